package sinks

import (
	"math"

	"github.com/steadysweep/steadysweep/core"
)

// outcomeOf returns the flat digest the report and the plot read: core's
// Outcome, with the whole-run percentiles a reference-mode result lacks
// taken from the run's whole-run totals (the reference reports no
// whole-run numbers, but the gap to them is the point of the report and
// the plot).
func outcomeOf(r *core.Result) core.Outcome {
	o := r.Outcome()
	if !math.IsNaN(o.TotalTTFTP50Ns) && !math.IsNaN(o.TotalTPOTP50Ns) {
		return o
	}
	t := r.WholeRun()
	if t == nil {
		return o
	}
	if math.IsNaN(o.TotalTTFTP50Ns) {
		o.TotalTTFTP50Ns, o.TotalTTFTP90Ns, o.TotalTTFTP99Ns = t.TTFT.P50, t.TTFT.P90, t.TTFT.P99
	}
	if math.IsNaN(o.TotalTPOTP50Ns) {
		o.TotalTPOTP50Ns, o.TotalTPOTP90Ns, o.TotalTPOTP99Ns = t.TPOT.P50, t.TPOT.P90, t.TPOT.P99
	}
	return o
}
