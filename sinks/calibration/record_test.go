package calibration

import (
	"slices"
	"testing"
)

// TestPredLabels: the predicted labels are the truth labels, in their
// order, then LabelShort (PredLabels is a literal, not built from them).
func TestPredLabels(t *testing.T) {
	if want := append(slices.Clone(TruthLabels), LabelShort); !slices.Equal(PredLabels, want) {
		t.Errorf("PredLabels = %q, want TruthLabels and %q: %q", PredLabels, LabelShort, want)
	}
}
