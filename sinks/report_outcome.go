package sinks

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
)

// outcomeOf returns the flat digest the report and the plot read: core's
// Outcome, with the whole-run percentiles a reference-mode result lacks
// pooled over its super-passes (the reference reports no whole-run
// numbers, but the gap to them is the point of the report and the plot).
func outcomeOf(r *core.Result) core.Outcome {
	o := r.Outcome()
	sps := r.SuperPasses()
	if math.IsNaN(o.TotalTTFTP50Ns) {
		o.TotalTTFTP50Ns, o.TotalTTFTP90Ns, o.TotalTTFTP99Ns = pooledPercentiles(sps,
			func(sp *core.SuperPass) []float64 { return sp.TTFT })
	}
	if math.IsNaN(o.TotalTPOTP50Ns) {
		o.TotalTPOTP50Ns, o.TotalTPOTP90Ns, o.TotalTPOTP99Ns = pooledPercentiles(sps,
			func(sp *core.SuperPass) []float64 { return sp.TPOT })
	}
	return o
}

// pooledPercentiles are the p50, p90 and p99 (PercentileLower, the
// detector's convention) of one list pooled over sps; NaN when empty.
func pooledPercentiles(sps []core.SuperPass, list func(*core.SuperPass) []float64) (p50, p90, p99 float64) {
	var all []float64
	for i := range sps {
		all = append(all, list(&sps[i])...)
	}
	if len(all) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	slices.Sort(all)
	return stats.PercentileLower(all, 0.50), stats.PercentileLower(all, 0.90), stats.PercentileLower(all, 0.99)
}
