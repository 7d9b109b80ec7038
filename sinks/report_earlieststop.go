package sinks

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core"
)

// writeEarliestStop prints the run's earliest stop when the analysis
// computed it: when the run could have stopped with a certified answer,
// the wall time after that, and whether the full run's numbers lie inside
// the stop's intervals; or why it could not.
func writeEarliestStop(b *reportBuilder, r *core.Result) {
	e := r.EarliestStop
	if e == nil {
		return
	}
	if !e.Found {
		b.field("stop", "no earliest stop: "+e.Reason)
		return
	}
	agree := b.p.paint(good, "yes")
	if !e.Agrees {
		agree = b.p.paint(warn, "no")
	}
	b.field("stop", fmt.Sprintf("could have stopped %s s into the run, after %d super-passes (system TPS %s, TPOT p50 %s) · "+
		"%s s (%s%%) of the run's wall time after it · full run's system TPS and TPOT p50 inside the stop's 95%% CIs: %s",
		fixed(e.StopAtS, 0), e.Stop.NSuperPasses, stopHalfWidthPct(e.Stop.TPSSystem, e.Stop.TPSSystemCI),
		stopHalfWidthPct(e.Stop.TPOTP50Ns, e.Stop.TPOTP50CI), fixed(float64(e.SavedNs())/1e9, 0), fixed(100*e.SavedFrac, 1), agree))
}

// stopHalfWidthPct is a relative half-width in percent ("n/a" when NaN).
func stopHalfWidthPct(v float64, ci [2]float64) string {
	hw := core.RelHalfWidth(v, ci)
	if math.IsNaN(hw) {
		return "n/a"
	}
	return "±" + fixed(100*hw, 2) + "%"
}
