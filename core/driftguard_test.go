package core

import (
	"math"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Tests of the drift guard (deviation D14) on constructed series; the
// generated variants of the drift classes are in accuracyrules_test.go.

// TestDriftOver checks the drift test's three conditions (OLS p < α, the
// effect-size floor, line beats levels) one at a time.
func TestDriftOver(t *testing.T) {
	p := DefaultParams()
	for _, c := range []struct {
		name  string
		ys    []float64
		hinge bool
		fired bool
		up    bool
	}{
		// +2 per point with small residuals: OLS rejects at four points
		// (df 2), where Mann–Kendall cannot (checked below).
		{"four-point drift", []float64{100, 102.3, 103.8, 106.1}, false, true, true},
		{"drift down", []float64{100, 98.1, 96.3, 93.8, 92.2, 90.1}, false, true, false},
		// An exact line has no residual SE: its slope is certain.
		{"exact line", []float64{100, 103, 106, 109}, false, true, true},
		// A step: significant and large, but two levels beat the line.
		{"step", []float64{100, 100.2, 99.9, 100.1, 120, 120.1}, false, false, true},
		// Flat noise: neither significant nor over the floor.
		{"flat noise", []float64{100, 101, 99.5, 100.5, 99.8, 100.9}, false, false, true},
		// Significant but +2.5 % over the span: under the 5 % floor.
		{"under the floor", []float64{100, 100.52, 100.98, 101.51, 102.02, 102.49}, false, false, true},
		{"three points", []float64{100, 110, 120}, false, false, false},
		// A ramp settling into four flat points: a line beats 2–3 levels
		// (the ramp is long), but not the ramp-then-flat hinge.
		{"ramp then flat, no hinge", []float64{80.52, 83.91, 86.69, 89.69, 92.9, 96.68, 99.59, 99.43, 100.08, 100.05},
			false, true, true},
		{"ramp then flat, hinge", []float64{80.52, 83.91, 86.69, 89.69, 92.9, 96.68, 99.59, 99.43, 100.08, 100.05},
			true, false, true},
	} {
		dg := driftOver(c.ys, p, c.hinge, nil)
		if dg.Fired != c.fired || (len(c.ys) >= p.MinTrendN && dg.Up != c.up) {
			t.Errorf("%s: fired %v up %v (p %.3g, rel %.3f, BIC line %.2f alt %.2f), want fired %v up %v",
				c.name, dg.Fired, dg.Up, dg.P, dg.RelDrift, dg.BICLine, dg.BICAlt, c.fired, c.up)
		}
		if len(c.ys) < p.MinTrendN && !math.IsNaN(dg.P) {
			t.Errorf("%s: tested below MinTrendN (p %v)", c.name, dg.P)
		}
	}
	// Why OLS: at four points the rank gate cannot reject at α = 0.05.
	if v := stats.HamedRao([]float64{100, 102.3, 103.8, 106.1}).Verdict(p.Alpha); v != stats.VerdictSteady {
		t.Errorf("Hamed–Rao at n = 4: %v, want steady", v)
	}
}

// driftParams are steadysweep's defaults on a hand-built post-warmup
// series: no warmup crop, no min-duration gate (the fixtures' spans are
// milliseconds).
func driftParams() Params {
	p := DefaultParams()
	p.WarmupMode, p.WarmupFixed = WarmupFixed, 0
	p.MinDuration = false
	return p
}

// levelSeries is mkSeries with one TPOT level per super-pass (TTFT 50).
func levelSeries(levels ...float64) []SuperPass {
	ls := make([][2]float64, len(levels))
	for i, l := range levels {
		ls[i] = [2]float64{l, 50}
	}
	return mkSeries(ls, 40)
}

// TestDriftGuardWindowToRunEnd: a +1.5 %-per-super-pass drift over six
// super-passes. The first four are a plateau (relative drift 4.4 %, under
// the floor), growth stops at five; the guard tests [0, 6) (+7.2 %), fires,
// and the verdict is drifting_up — with the guard off (and under the
// reference) the four points are certified.
func TestDriftGuardWindowToRunEnd(t *testing.T) {
	sps := levelSeries(100, 101.6, 102.9, 104.6, 106.1, 107.4)
	p := driftParams()
	r, err := analyzeRollups(sps, testInfo, p)
	if err != nil {
		t.Fatal(err)
	}
	as := r.Assessment
	dg := as.Selection.DriftGuard
	if dg == nil || !dg.Fired || !dg.Up || dg.WholeRun || dg.Metric != "tpot_p50" || dg.SP != (SPRange{0, 6}) {
		t.Fatalf("drift guard %+v, want fired up on tpot_p50 over [0, 6)", dg)
	}
	if r.Steady.Found || as.Verdict != VerdictDriftingUp || as.Status != StatusWindowable {
		t.Errorf("found %v, status %s, verdict %s; want not found, windowable, drifting_up", r.Steady.Found, as.Status,
			as.Verdict)
	}
	if !strings.Contains(r.Steady.Reason, "tpot_p50 drifting up from the window's start to the run's end") {
		t.Errorf("reason %q", r.Steady.Reason)
	}
	if w := r.Steady.Window; w == nil || w.SPLo != 0 || w.SPHi != 4 {
		t.Errorf("window %+v, want the local plateau [0, 4) reported", w)
	}

	p.DriftGuard = false
	off, err := analyzeRollups(sps, testInfo, p)
	if err != nil {
		t.Fatal(err)
	}
	if !off.Steady.Found || off.Assessment.Verdict != VerdictSteadyState || off.Assessment.Selection.DriftGuard != nil {
		t.Errorf("guard off: found %v verdict %s guard %+v; want the local plateau certified", off.Steady.Found,
			off.Assessment.Verdict, off.Assessment.Selection.DriftGuard)
	}
	ref := postParams(false)
	rr, err := analyzeRollups(sps, testInfo, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !rr.Steady.Found {
		t.Error("reference: the local plateau is not found (the reference has no drift guard)")
	}
}

// TestDriftGuardWholeRun: a +2.2 %-per-super-pass drift with 1.2 % noise
// over ten super-passes never settles (no four consecutive values within
// ±2.5 % of their median), so the crop comes from the reference rule at
// four; from the window's start the six noisy points are not significant
// (OLS p ≈ 0.07), but over the whole run a line beats 2–3 levels and a
// ramp-then-flat: drifting_up, WholeRun.
func TestDriftGuardWholeRun(t *testing.T) {
	sps := levelSeries(100.18, 102.16, 104.34, 105.85, 109.04, 110.98, 114.69, 113.96, 121.26, 115.14)
	p := DefaultParams()
	p.MinDuration = false
	if pos := settlePosition(trajectory(percentileTable(sps), mTPOTP50), p); pos != -1 {
		t.Fatalf("the fixture settles at %d", pos)
	}
	r, err := analyzeRollups(sps, testInfo, p)
	if err != nil {
		t.Fatal(err)
	}
	dg := r.Assessment.Selection.DriftGuard
	if r.Warmup != 4 || dg == nil || !dg.Fired || !dg.WholeRun || !dg.Up || dg.SP != (SPRange{0, 10}) {
		t.Fatalf("warmup %d, guard %+v; want warmup 4 and the whole-run test [0, 10) fired", r.Warmup, dg)
	}
	if r.Steady.Found || r.Assessment.Verdict != VerdictDriftingUp {
		t.Errorf("found %v verdict %s, want drifting_up", r.Steady.Found, r.Assessment.Verdict)
	}
	if !strings.Contains(r.Steady.Reason, "over the whole run (the warmup crop never settled)") {
		t.Errorf("reason %q", r.Steady.Reason)
	}
	// A fixed crop is no evidence: only the window-to-end test runs.
	p.WarmupMode, p.WarmupFixed = WarmupFixed, 4
	fixed, err := analyzeRollups(sps, testInfo, p)
	if err != nil {
		t.Fatal(err)
	}
	if g := fixed.Assessment.Selection.DriftGuard; g != nil && g.WholeRun {
		t.Errorf("fixed warmup: whole-run test ran: %+v", g)
	}
}

// TestDriftGuardKeepsStaircasesAndPlateaus: a flat plateau followed by a
// step, and a noisy flat run, are not drifts.
func TestDriftGuardKeepsStaircasesAndPlateaus(t *testing.T) {
	for name, sps := range map[string][]SuperPass{
		"step":  levelSeries(100, 100.3, 99.8, 100.1, 100.2, 99.9, 100, 125, 125.2, 124.9, 125.1),
		"noisy": levelSeries(100, 101.2, 99.1, 100.8, 99.4, 100.9, 99.3, 100.6),
	} {
		r, err := analyzeRollups(sps, testInfo, driftParams())
		if err != nil {
			t.Fatal(err)
		}
		if dg := r.Assessment.Selection.DriftGuard; dg == nil || dg.Fired || !r.Steady.Found {
			t.Errorf("%s: guard %+v found %v; want run and not fired", name, dg, r.Steady.Found)
		}
	}
}
