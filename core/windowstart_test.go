package core

import (
	"testing"
)

// Tests of the head test (deviation D16) on constructed series.

// settlingHead is twelve super-passes: two settling ones 3 % and 1.4 %
// below a level of 100 held with ±0.2 % noise.
var settlingHead = []float64{97, 98.6, 100, 100.2, 99.9, 100.1, 99.8, 100, 100.1, 99.9, 100.2, 100}

func TestHeadTrim(t *testing.T) {
	p := DefaultParams()
	trim := func(levels []float64, minN int, minRel float64) int {
		pct := percentileTable(levelSeries(levels...))
		return headTrim(pct, 0, len(levels), minN, p.HeadTrimZ, minRel, p.HeadTrimMaxFrac)
	}
	for _, c := range []struct {
		name   string
		levels []float64
		minN   int
		minRel float64
		want   int
	}{
		// σ ≈ 0.2 (the level's noise): 97 and 98.6 are off the rest's
		// median by far more than 2σ and 0.5 %; 100 is not.
		{"settling head", settlingHead, 4, 0.005, 2},
		// Noise on both sides of the level is not a head.
		{"noise", []float64{100.4, 99.6, 100.3, 99.7, 100.2, 99.8, 100.4, 99.7}, 4, 0.005, 0},
		// At most ⌊12/4⌋ = 3 super-passes, however long the head.
		{"cap", []float64{90, 92, 94, 96, 98, 100, 100.1, 99.9, 100, 100.1, 99.9, 100}, 4, 0.005, 3},
		// Five super-passes keep at least four: one at most.
		{"keep minN", []float64{95, 97, 100, 100.1, 99.9}, 4, 0.005, 1},
		{"too short", []float64{95, 100, 100.1, 99.9}, 4, 0.005, 0},
		// A smooth series has σ ≈ 0: the 0.5 % floor keeps a 0.2 %
		// difference; without the floor it is trimmed.
		{"floor", []float64{99.8, 100, 100, 100, 100, 100, 100, 100}, 4, 0.005, 0},
		{"no floor", []float64{99.8, 100, 100, 100, 100, 100, 100, 100}, 4, 0, 1},
	} {
		if got := trim(c.levels, c.minN, c.minRel); got != c.want {
			t.Errorf("%s: start %d, want %d", c.name, got, c.want)
		}
	}
}

// TestWindowStartHead: under window_start=head the settling head is
// trimmed off the reported window (HeadTrimApplied), unless the trimmed
// window would fail the min-duration gate the untrimmed one passes.
func TestWindowStartHead(t *testing.T) {
	p := driftParams()
	p.WindowStart = WindowStartHead
	r, err := analyzeRollups(levelSeries(settlingHead...), testInfo, p)
	if err != nil {
		t.Fatal(err)
	}
	// Since issue 29 the settling curve (settling.go) sees the same head:
	// its settled start, 2, is where the plateaus are searched, so the head
	// test finds nothing left to trim. Either way the window is [2, 12).
	sel := r.Assessment.Selection
	bySettling := sel.Settling != nil && sel.Settling.Settled && sel.Settling.Start == 2
	if w := r.Steady.Window; w == nil || w.SPLo != 2 || !(sel.HeadTrimApplied || bySettling) || sel.MSERApplied {
		t.Errorf("window %+v, head trim %v, settling %+v, MSER %v; want [2, 12) by the head test or the settling curve",
			w, sel.HeadTrimApplied, sel.Settling, sel.MSERApplied)
	}
	// 55 s a super-pass: twelve are 660 s, ten are 550 s, under the 600 s
	// floor (the relaxation term is 5 × 1 s).
	sps := spannedSeries(len(settlingHead), 100, 55, 0, 1, 40)
	for i, l := range settlingHead {
		for k := range sps[i].TPOT {
			sps[i].TPOT[k] = l
		}
	}
	p.MinDuration = true
	r, err = analyzeRollups(sps, testInfo, p)
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Steady.Window; w == nil || w.SPLo != 0 || r.Assessment.Selection.HeadTrimApplied || !r.Steady.Found {
		t.Errorf("gated: window %+v found %v; want the untrimmed window kept (the trimmed one is short)", w,
			r.Steady.Found)
	}
}
