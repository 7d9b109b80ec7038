package calibrate

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// RowError is one scored row kept for the report's lists: what truth
// planted and what the row reported.
type RowError struct {
	RunPath string
	// Truth is expected_verdict.verdict, Preset the run's synth preset
	// (truth name), Label the row's label.
	Truth, Preset, Label string
	Found                bool
	// WindowStart and WindowEnd are the row's window (absolute
	// super-passes of its size, end inclusive; −1 none).
	WindowStart, WindowEnd int
	// PlantedNs is the planted TPOT level of the window, TPOTNs the row's
	// steady TPOT p50, Err their relative difference (NaN when either is
	// missing).
	PlantedNs, TPOTNs, Err float64
}

func rowError(r *row, t *synth.Truth, planted, relErr float64) RowError {
	return RowError{RunPath: r.RunPath, Truth: t.ExpectedVerdict.Verdict, Preset: t.Name, Label: Label(r.Status, r.Verdict),
		Found: r.Found, WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, PlantedNs: planted, TPOTNs: r.TPOTP50Ns, Err: relErr}
}

// keepWorst inserts e into list (largest Err first, NaN last, then by
// run path) and keeps at most maxListed.
func keepWorst(list []RowError, e RowError) []RowError {
	i, _ := slices.BinarySearchFunc(list, e, compareRowErrors)
	list = slices.Insert(list, i, e)
	if len(list) > maxListed {
		list = list[:maxListed]
	}
	return list
}

func compareRowErrors(a, b RowError) int {
	if c := cmpUndefinedLast(a.Err, b.Err, true); c != 0 {
		return c
	}
	switch {
	case a.RunPath < b.RunPath:
		return -1
	case a.RunPath > b.RunPath:
		return 1
	}
	return 0
}

// errPct formats a relative error as a percentage for the lists.
func errPct(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return pct(x)
}
