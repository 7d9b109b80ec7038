package core

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// The drift guard (deviation D14): a certified steady state must not sit
// inside a significant drift. On a short run (8–12 super-passes) the
// warmup crop can take half the run and leave the minimum window of
// MinTrendN super-passes, where Mann–Kendall cannot reject (its smallest
// two-sided p at n = 4 is ≈ 0.089), so a window on a slow drift passes the
// gate while every whole-run trend test says it drifts. The guard tests
// the span from the window's start to the run's end with OLS, which does
// reach p < α at four points, and with a line-versus-levels BIC, so a
// staircase is not taken for a drift. The reference has no such guard.

// DriftGuard is the record of the drift guard over a certified window.
type DriftGuard struct {
	// Fired reports a drift: the window is withdrawn (not a steady state).
	Fired bool
	// Metric is the key of the gating metric tested last (the one that
	// fired, else tpot_p90).
	Metric string
	// WholeRun reports the test over every full super-pass, warmup
	// included: the warmup crop never settled (settlePosition found no
	// settled stretch before its cap), so the crop came from the reference
	// rule and is itself evidence of a drift.
	WholeRun bool
	// SP is the tested span [Lo, Hi) in absolute super-passes.
	SP SPRange
	// Up is the slope's sign; P its OLS two-sided p-value; RelDrift the
	// relative drift (stats.RelDrift) of the span.
	Up          bool
	P, RelDrift float64
	// BICLine and BICAlt are the BIC of the line and of the best
	// alternative: 2–3 levels, or for a whole-run test also a ramp that
	// settles into a flat part of MinTrendN points (NaN when not computed).
	BICLine, BICAlt float64

	metric int
}

// driftGuard tests the gating metrics of the certified window starting at
// lo (post-relative) over [lo, run end), then, if the warmup crop never
// settled, over every full super-pass (the first test that fires is
// returned; without one, the last test run).
func (a *analysis) driftGuard(lo int) *DriftGuard {
	r, p := a.res, a.p
	driver := warmupDriver(p, a.prof)
	unsettled := p.WarmupMode == WarmupAuto && driver >= 0 && settlePosition(trajectory(a.pct, driver), p) < 0
	var last DriftGuard
	for _, m := range gatedMetrics() {
		dg := a.memo.drift(a.pct, m, min(r.Warmup+lo, len(a.pct)), len(a.pct), false, p, a.stop)
		dg.SP = absRange(r.Warmup, lo, len(r.pct))
		dg.metric, dg.Metric = m, Metrics()[m].Key
		if last = dg; dg.Fired {
			return &dg
		}
		if unsettled {
			dg := a.memo.drift(a.pct, m, 0, len(a.pct), true, p, a.stop)
			dg.SP, dg.WholeRun = SPRange{0, SPIndex(len(a.pct))}, true
			dg.metric, dg.Metric = m, Metrics()[m].Key
			if last = dg; dg.Fired {
				return &dg
			}
		}
	}
	return &last
}

// driftOver is the drift test of one trajectory ys: it fires when the OLS
// slope is significant (p < Alpha), the relative drift is at least the
// effect-size floor TrendRelDriftMin, and a line explains ys better (BIC)
// than the alternative. From the window's start (hinge false) that is a
// staircase: the window's plateau as the first of 2–3 levels, so at least
// MinTrendN points (free levels of two points each would fit any noisy
// six-point drift). Over the whole run (hinge true) it is 2–3 levels of any
// length or a ramp settling into a flat part of MinTrendN points (a slow
// warmup). Below MinTrendN points nothing is tested. An exact line (OLS Degenerate, slope ≠ 0) has p = 0.
func driftOver(ys []float64, p Params, hinge bool, stop *stopper) DriftGuard {
	dg := driftMeasure(ys, p.MinTrendN, hinge, stop)
	dg.fire(p)
	return dg
}

// fire decides the drift test from its measurements under p (a test not
// run, P NaN, does not fire).
func (dg *DriftGuard) fire(p Params) {
	dg.Fired = dg.P < p.Alpha && math.Abs(dg.RelDrift) >= p.TrendRelDriftMin && dg.BICLine < dg.BICAlt
}

// driftMeasure is driftOver's measurements of ys before its thresholds
// (Alpha, TrendRelDriftMin) are applied: they depend on p only through
// minN = MinTrendN, so a sweep's parameter sets share them (memoView.drift).
func driftMeasure(ys []float64, minN int, hinge bool, stop *stopper) DriftGuard {
	dg := DriftGuard{P: math.NaN(), RelDrift: math.NaN(), BICLine: math.NaN(), BICAlt: math.NaN()}
	n := len(ys)
	if n < minN {
		return dg
	}
	o := stats.OLS(ys)
	mean := stats.Mean(ys)
	dg.P, dg.RelDrift, dg.Up = o.P, stats.RelDrift(ys), o.Slope > 0
	if o.Degenerate && o.Slope != 0 {
		dg.P = 0 // an exact line: its SE is rounding noise, the slope is certain (stats.OLSResult)
	}
	dg.BICLine = bic(o.RSS, n, 2, mean)
	fit := ys
	if n > stepFitMaxPoints { // a long run: the fits on block means (stepFitPoints)
		var xs []float64
		xs, fit = stepFitPoints(indexSeries(n), ys)
		_, rss := lineFit(xs, fit)
		dg.BICLine = bic(rss, len(fit), 2, stats.Mean(fit))
	}
	if hinge {
		dg.BICAlt = math.Min(bestStepBIC(fit, 3, 1, stop), hingeBIC(fit, minN, stop))
	} else {
		dg.BICAlt = bestStepBIC(fit, 3, minN, stop)
	}
	return dg
}

// bestStepBIC is the least BIC of a piecewise-constant fit of ys with
// k = 2 … min(kmax, n−1) levels (q = 2k − 1 parameters), the first of at
// least minFirst points; +Inf when there is none (NaN once stop fails).
func bestStepBIC(ys []float64, kmax, minFirst int, stop *stopper) float64 {
	best := math.Inf(1)
	mean := stats.Mean(ys)
	for k := 2; k <= min(kmax, len(ys)-1); k++ {
		best = math.Min(best, bic(segmentSSE(ys, k, minFirst, stop), len(ys), 2*k-1, mean))
	}
	return best
}

// indexSeries is 0, 1, …, n−1 as floats.
func indexSeries(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	return xs
}

// hingeBIC is the BIC (q = 3) of the best "ramp, then flat" fit
// y = a + b·min(t, c) over the breaks c = 1 … n − minFlat (a flat part of at
// least minFlat points), +Inf when there is none.
func hingeBIC(ys []float64, minFlat int, stop *stopper) float64 {
	_, _, _, rss := hingeFit(ys, minFlat, stop)
	if math.IsNaN(rss) {
		if stop.failed() {
			return rss // the analysis is being abandoned
		}
		return math.Inf(1)
	}
	return bic(rss, len(ys), 3, stats.Mean(ys))
}

// withdraw records a fired guard on the steady state: not found, with the
// reason.
func (dg *DriftGuard) withdraw(ss *SteadyState) {
	ss.Found = false
	span := "from the window's start to the run's end"
	if dg.WholeRun {
		span = "over the whole run (the warmup crop never settled)"
	}
	ss.Reason = joinReason(ss.Reason, fmt.Sprintf("%s drifting %s %s (%+.1f%%, OLS p=%.3g; a line fits better than "+
		"steps): the window is a local plateau, no steady state", dg.Metric, upDown(dg.Up), span, 100*dg.RelDrift, dg.P))
}

// state is the drifting state of the fired metric.
func (dg *DriftGuard) state() MetricState {
	if dg.Up {
		return StateDriftingUp
	}
	return StateDriftingDown
}
