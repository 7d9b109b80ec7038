package core

import (
	"math"
	"testing"
)

// Tests of the noise-relative level shift and the settling curve (issue
// 29) on small planted series: every level, step and curve below is
// planted, the noise is a fixed ±0.3 % pattern (0.3·sin(2.4·i), SD ≈ 0.21).

// noise is the planted noise of point i, in percent of a level of 100.
func noise(i int) float64 { return 0.3 * math.Sin(2.4*float64(i)) }

// planted returns n points of level(i) + noise(i).
func planted(n int, level func(i int) float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = level(i) + noise(i)
	}
	return xs
}

// step is a level of 100 for i < at and 100·(1+rel) from at on.
func step(at int, rel float64) func(int) float64 {
	return func(i int) float64 {
		if i >= at {
			return 100 * (1 + rel)
		}
		return 100
	}
}

func TestHasNoiseStep(t *testing.T) {
	p := DefaultParams()
	for _, c := range []struct {
		name string
		xs   []float64
		want bool
	}{
		// +3 % after 8 points, two points into the new level: 14 noise SDs.
		{"3% step, tail of 2", planted(10, step(8, 0.03)), true},
		{"-2% step, tail of 3", planted(11, step(8, -0.02)), true},
		// A first point at the new level is not yet a step (tail of 1).
		{"tail of 1", planted(9, step(8, 0.03)), false},
		// 0.3 % is inside the noise and under the 1 % floor.
		{"0.3% step", planted(16, step(8, 0.003)), false},
		// One slow super-pass (+10 %) followed by a level one: the level
		// point is not beyond the midpoint.
		{"spike", append(planted(8, step(99, 0)), 110, 100.1), false},
		// A step two points after the start is a settling head, not a step
		// of a plateau (the head must last MinTrendN = 4 points).
		{"short head", append([]float64{97, 97.5}, planted(8, step(99, 0))...), false},
	} {
		if got := hasNoiseStep(c.xs, p.TailShiftSDs, shiftMinRel, p.MinTrendN); got != c.want {
			t.Errorf("%s: hasNoiseStep = %v, want %v (%v)", c.name, got, c.want, c.xs)
		}
	}
}

// TestNoiseShiftAnalysis: end to end on planted series (no warmup, no
// min-duration gate): a +3 % step at super-pass 10 of 22 on ±0.3 % noise
// — under the fixed 5 % band — is flagged at 10 with Δ ≈ +3 % and the
// window ends before it; the same run with a 0.3 % step is steady, one
// window, no anomaly; −2.5 % is flagged downwards.
func TestNoiseShiftAnalysis(t *testing.T) {
	for _, c := range []struct {
		name   string
		rel    float64
		detect bool
	}{{"+3%", 0.03, true}, {"-2.5%", -0.025, true}, {"+0.3%", 0.003, false}} {
		r, err := analyzeRollups(levelSeries(planted(22, step(10, c.rel))...), testInfo, driftParams())
		if err != nil {
			t.Fatal(err)
		}
		an, w := r.Steady.Anomaly, r.Steady.Window
		if an.Detected != c.detect || w == nil {
			t.Fatalf("%s: anomaly %+v window %+v, want detected %v", c.name, an, w, c.detect)
		}
		if !c.detect {
			if !r.Steady.Found || w.SPLo != 0 || w.SPHi != 22 || r.Assessment.Verdict != VerdictSteadyState {
				t.Errorf("%s: found %v window %+v verdict %s, want the whole run steady", c.name, r.Steady.Found, w,
					r.Assessment.Verdict)
			}
			continue
		}
		if an.ChangePointSP != 10 || math.Abs(an.DeltaPct-100*c.rel) > 0.3 || w.SPHi != 10 || !r.Steady.Found {
			t.Errorf("%s: change point %d Δ %+.2f %% window %+v found %v; want 10, %+.1f %%, window ending at 10",
				c.name, an.ChangePointSP, an.DeltaPct, w, r.Steady.Found, 100*c.rel)
		}
	}
}

// TestSettlingCurve: a planted exponential approach 100·(1 − 0.15·e^{−t/4})
// settles within 0.25 % at t = 4·ln(0.15/0.0025) = 16.4: detected as
// "exp", settled at 16–18; the same approach with τ = 30 over 30 points
// is still 5 % off at the end (not settled); a flat series and a +3 %
// step are no settling curve.
func TestSettlingCurve(t *testing.T) {
	approach := func(tau float64) func(int) float64 {
		return func(i int) float64 { return 100 * (1 - 0.15*math.Exp(-float64(i)/tau)) }
	}
	st := settlingCurve(percentileTable(levelSeries(planted(30, approach(4))...)), 4, nil)
	if !st.Detected || !st.Settled || st.Kind != "exp" || !st.Up || st.start < 16 || st.start > 18 ||
		math.Abs(st.Tau-4) > 1 {
		t.Errorf("τ = 4: %+v, want an exp approach up, settled at 16–18", st)
	}
	st = settlingCurve(percentileTable(levelSeries(planted(30, approach(30))...)), 4, nil)
	if !st.Detected || st.Settled {
		t.Errorf("τ = 30: %+v, want detected, not settled", st)
	}
	for name, lv := range map[string]func(int) float64{"flat": step(99, 0), "step": step(15, 0.03)} {
		if st := settlingCurve(percentileTable(levelSeries(planted(30, lv)...)), 4, nil); st.Detected {
			t.Errorf("%s: %+v, want no settling curve", name, st)
		}
	}
	// End to end: the approach's plateau is where it has settled, without
	// a level shift; the unsettled one is drifting up, not found.
	r, err := analyzeRollups(levelSeries(planted(30, approach(4))...), testInfo, driftParams())
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Steady.Window; w == nil || w.SPLo < 16 || r.Steady.Anomaly.Detected || !r.Steady.Found {
		t.Errorf("τ = 4: window %+v anomaly %v found %v (%s)", w, r.Steady.Anomaly.Detected, r.Steady.Found, r.Steady.Reason)
	}
	r, err = analyzeRollups(levelSeries(planted(30, approach(30))...), testInfo, driftParams())
	if err != nil {
		t.Fatal(err)
	}
	if r.Steady.Found || r.Assessment.Verdict != VerdictDriftingUp {
		t.Errorf("τ = 30: found %v verdict %s, want drifting_up (%s)", r.Steady.Found, r.Assessment.Verdict, r.Steady.Reason)
	}
}

// TestTailTrim (issue 29, symmetric trimming): a window of ten super-passes
// at 100 ± 0.3 % ending in the onset of a +4 % transient is cut before it,
// as the head test cuts a settling head; noise at the end is kept, and
// the reported window of the end-to-end run ends before the transient.
func TestTailTrim(t *testing.T) {
	p := DefaultParams()
	trim := func(xs []float64) int {
		return tailTrim(percentileTable(levelSeries(xs...)), 0, len(xs), p.MinTrendN, p.HeadTrimZ, p.HeadTrimMinRel,
			p.HeadTrimMaxFrac)
	}
	dip := append(planted(10, step(99, 0)), 104)
	if got := trim(dip); got != 10 {
		t.Errorf("transient at the end: end %d, want 10", got)
	}
	if got := trim(planted(11, step(99, 0))); got != 11 {
		t.Errorf("noise: end %d, want 11 (nothing trimmed)", got)
	}
	// Mid-run: the plateau breaks two super-passes into a +4 % transient
	// that recovers, so it ends one super-pass into it.
	run := append(append(planted(10, step(99, 0)), 104, 104.1), planted(6, step(99, 0))...)
	r, err := analyzeRollups(levelSeries(run...), testInfo, driftParams())
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Steady.Window; w == nil || w.SPHi != 10 || !r.Assessment.Selection.TailTrimApplied || !r.Steady.Found {
		t.Errorf("window %+v tail trim %v found %v, want [0, 10) by the tail trim", w,
			r.Assessment.Selection.TailTrimApplied, r.Steady.Found)
	}
}

// TestSettlingCurveLong: 3,000 super-passes of the planted approach with
// τ = 400 (settled within 0.25 % at 400·ln 60 = 1,638) are fitted on 512
// block means of 6 and still settle at 1,638 ± one block.
func TestSettlingCurveLong(t *testing.T) {
	xs := planted(3000, func(i int) float64 { return 100 * (1 - 0.15*math.Exp(-float64(i)/400)) })
	st := settlingCurve(percentileTable(levelSeries(xs...)), 4, nil)
	if !st.Detected || !st.Settled || st.Kind != "exp" || st.start < 1632 || st.start > 1644 {
		t.Errorf("%+v, want an exp approach settled at 1,638 ± 6", st)
	}
}
