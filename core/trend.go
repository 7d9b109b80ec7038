package core

import "github.com/steadysweep/steadysweep/core/stats"

// Verdict values of the trend algorithms (detector spec §7.0).
const (
	VerdictUp           = string(stats.VerdictUp)
	VerdictDown         = string(stats.VerdictDown)
	VerdictSteady       = string(stats.VerdictSteady)
	VerdictInsufficient = string(stats.VerdictInsufficient)
)

// trendVerdict is the verdict of algorithm algo on xs: insufficient below
// minN points (the reference's MIN_TREND_N = 4), else stats.TrendVerdict at
// significance alpha.
func trendVerdict(algo string, xs []float64, minN int, alpha float64) string {
	if len(xs) < minN {
		return VerdictInsufficient
	}
	return string(stats.TrendVerdict(stats.TrendAlgo(algo), xs, alpha))
}

// allVerdicts is the five algorithms' verdicts on xs in registry order;
// tmp is scratch space.
func allVerdicts(xs []float64, minN int, alpha float64, tmp []float64) [5]string {
	var out [5]string
	for i, a := range stats.TrendAlgos {
		out[i] = verdict(string(a), xs, minN, alpha, tmp)
	}
	return out
}
