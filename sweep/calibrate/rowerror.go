package calibrate

import (
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

func rowError(r *row, t *synth.Truth, planted, relErr float64) calibration.RowError {
	return calibration.RowError{RunPath: r.RunPath, Truth: t.ExpectedVerdict.Verdict, Preset: t.Name, Label: Label(r.Status, r.Verdict),
		Found: r.Found, WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, PlantedNs: planted, TPOTNs: r.TPOTP50Ns, Err: relErr}
}

// keepWorst inserts e into list (largest Err first, NaN last, then by
// run path) and keeps at most calibration.MaxListed.
func keepWorst(list []calibration.RowError, e calibration.RowError) []calibration.RowError {
	i, _ := slices.BinarySearchFunc(list, e, compareRowErrors)
	list = slices.Insert(list, i, e)
	if len(list) > calibration.MaxListed {
		list = list[:calibration.MaxListed]
	}
	return list
}

func compareRowErrors(a, b calibration.RowError) int {
	if c := cmpUndefinedLast(a.Err, b.Err, true); c != 0 {
		return c
	}
	return strings.Compare(a.RunPath, b.RunPath)
}
