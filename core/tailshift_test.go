package core

import (
	"math"
	"strings"
	"testing"
)

// Tests of the short-tail shift (deviation D15) on constructed series; the
// generated short-tail staircases are in accuracyrules_test.go.

// plateau8 is eight super-passes at 100 with ±0.3 % noise.
var plateau8 = []float64{100, 100.3, 99.8, 100.1, 99.7, 100.2, 99.9, 100.1}

// TestTailShiftDetects: two super-passes at +40 % or −25 % after an
// eight-super-pass plateau are a shift — too short for a plateau of their
// own, and Pettitt cannot see a change in the last two of ten points — with
// its change point, size, direction and length; the reported window ends
// before the tail. With the rule off there is no anomaly.
func TestTailShiftDetects(t *testing.T) {
	for _, c := range []struct {
		name  string
		tail  []float64
		delta float64
	}{
		{"up", []float64{140, 140.2}, 40.1},
		{"drop", []float64{75, 74.9}, -25.0},
	} {
		sps := levelSeries(append(append([]float64{}, plateau8...), c.tail...)...)
		p := driftParams()
		r, err := analyzeRollups(sps, testInfo, p)
		if err != nil {
			t.Fatal(err)
		}
		an := r.Steady.Anomaly
		if !an.Detected || an.ChangePointSP != 8 || an.TailSuperPasses != 2 || math.Abs(an.DeltaPct-c.delta) > 0.1 {
			t.Errorf("%s: anomaly %+v, want detected at 8, %+.1f %%, a 2-super-pass tail", c.name, an, c.delta)
		}
		if an.Pettitt == nil || an.Pettitt.Significant {
			t.Errorf("%s: Pettitt %+v, want run and not significant (the rule does not need it)", c.name, an.Pettitt)
		}
		// mkSeries super-passes are issued over [i·1000, i·1000+100] ns.
		if want := 1100e-9; math.Abs(an.TailDurationS-want) > 1e-15 {
			t.Errorf("%s: tail duration %v s, want %v", c.name, an.TailDurationS, want)
		}
		if w := r.Steady.Window; w == nil || w.SPLo != 0 || w.SPHi != 8 || !r.Steady.Found {
			t.Errorf("%s: window %+v found %v, want [0, 8) found", c.name, w, r.Steady.Found)
		}
		if r.Assessment.Verdict != VerdictAnomaly || !strings.Contains(r.Steady.Reason, "short tail: the last 2 full super-pass(es)") {
			t.Errorf("%s: verdict %s reason %q", c.name, r.Assessment.Verdict, r.Steady.Reason)
		}
		p.TailShift = false
		off, err := analyzeRollups(sps, testInfo, p)
		if err != nil {
			t.Fatal(err)
		}
		if off.Steady.Anomaly.Detected {
			t.Errorf("%s: rule off: anomaly %+v", c.name, off.Steady.Anomaly)
		}
	}
}

// TestTailShiftAbsorbedSuperPass: a +7 % step three super-passes before
// the end. The plateau grows over the first shifted super-pass (a one-point
// tail must differ by 2·band to break it) and stops at the second; the
// tail reaches back into the plateau, which ends where the tail starts.
func TestTailShiftAbsorbedSuperPass(t *testing.T) {
	sps := levelSeries(append(append([]float64{}, plateau8...), 107, 107.1, 106.9)...)
	r, err := analyzeRollups(sps, testInfo, driftParams())
	if err != nil {
		t.Fatal(err)
	}
	an := r.Steady.Anomaly
	if !an.Detected || an.TailSuperPasses != 3 || an.ChangePointSP != 8 || math.Abs(an.DeltaPct-7.0) > 0.1 {
		t.Errorf("anomaly %+v, want a 3-super-pass tail at 8, +7 %%", an)
	}
	if w := r.Steady.Window; w == nil || w.SPHi != 8 || r.Steady.Plateaus[0].Hi != 8 {
		t.Errorf("window %+v plateaus %v, want both cut at 8", w, r.Steady.Plateaus)
	}
}

// TestTailShiftRejects: what is not a short-tail shift.
func TestTailShiftRejects(t *testing.T) {
	p := driftParams()
	for _, c := range []struct {
		name   string
		levels []float64
	}{
		{"one super-pass", append(append([]float64{}, plateau8...), 140)},
		{"inside the band", append(append([]float64{}, plateau8...), 104, 104.2)},
		// ±4 % noise: +8 % is beyond the band but under 3 SDs.
		{"under 3 SDs", []float64{100, 104, 96, 103, 97, 104, 96, 100, 108, 108.2}},
	} {
		r, err := analyzeRollups(levelSeries(c.levels...), testInfo, p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Steady.Anomaly.Detected {
			t.Errorf("%s: anomaly %+v", c.name, r.Steady.Anomaly)
		}
	}
	// The end of a drift lies beyond the band too, but a line fits it
	// better than levels. (The pipeline would not report this as a
	// plateau; tailShift is asked directly.)
	line := make([]float64, 10)
	for i := range line {
		line[i] = 100 + 1.2*float64(i)
	}
	if an, _, ok := tailShift(levelSeries(line...), percentileTable(levelSeries(line...)), Plateau{0, 6}, 0.05, 4, 2, 3); ok {
		t.Errorf("drift end: %+v", an)
	}
}
