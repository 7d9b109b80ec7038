package core

import "github.com/steadysweep/steadysweep/core/stats"

// TrendGate names the trend test that gates admissibility: one of the
// reference's five trend algorithms (detector spec §7).
type TrendGate string

// The trend gates, spelled as the reference spells its algorithms.
const (
	TrendMKHamedRao     = TrendGate(stats.TrendMKHamedRao)
	TrendMannKendall    = TrendGate(stats.TrendMannKendall)
	TrendNeweyWest      = TrendGate(stats.TrendNeweyWest)
	TrendTheilSen       = TrendGate(stats.TrendTheilSen)
	TrendSlopeVsScatter = TrendGate(stats.TrendSlopeVsScatter)
)

// TrendGates returns the gates in the reference's registry order.
func TrendGates() []TrendGate {
	return []TrendGate{TrendMKHamedRao, TrendMannKendall, TrendNeweyWest, TrendTheilSen, TrendSlopeVsScatter}
}

func (g TrendGate) String() string { return string(g) }

// Valid reports whether g is one of TrendGates.
func (g TrendGate) Valid() bool { _, err := ParseTrendGate(string(g)); return err == nil }

// ParseTrendGate returns the TrendGate spelled s.
func ParseTrendGate(s string) (TrendGate, error) { return parseEnum("trend_gate", s, TrendGates()) }

// trendVerdict is the verdict of algorithm algo on xs: insufficient below
// minN points (the reference's MIN_TREND_N = 4), else stats.TrendVerdict at
// significance alpha.
func trendVerdict(algo TrendGate, xs []float64, minN int, alpha float64) stats.Verdict {
	if len(xs) < minN {
		return stats.VerdictInsufficient
	}
	return stats.TrendVerdict(stats.TrendAlgo(algo), xs, alpha)
}

// allVerdicts is the five algorithms' verdicts on xs in registry order:
// trendVerdict of each, computed together (stats.TrendVerdicts).
func allVerdicts(xs []float64, minN int, alpha float64) [5]stats.Verdict {
	if len(xs) < minN {
		return [5]stats.Verdict{stats.VerdictInsufficient, stats.VerdictInsufficient, stats.VerdictInsufficient,
			stats.VerdictInsufficient, stats.VerdictInsufficient}
	}
	return stats.TrendVerdicts(xs, alpha)
}
