package sinks

import (
	"math"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/sinks/internal/canvas"
)

// TestDistinctTicksNarrowRange: the default ticks over [29.999, 30.001]
// (a GuideLLM run's flat TPOT in ms) are labelled "30 30 30" (issue 26);
// the Y axis's ticks keep the default values and label each so no two
// read alike, and leave a wide range's labels as the default gives them.
// The default ticks are gonum/plot's (canvas.DefaultTicks, tested there
// against gonum's output).
func TestDistinctTicksNarrowRange(t *testing.T) {
	for _, r := range [][2]float64{{29.999, 30.001}, {29.99999, 30.00001}, {29.5, 30.4}, {0, 1000}} {
		def := canvas.DefaultTicks(r[0], r[1])
		got := distinctTicks(r[0], r[1])
		if len(got) != len(def) {
			t.Fatalf("%v: %d ticks, the default gives %d", r, len(got), len(def))
		}
		if !labelsDistinct(got) {
			t.Errorf("%v: labels repeat: %v", r, got)
		}
		for i := range got {
			if got[i].Value != def[i].Value || (got[i].Label == "") != (def[i].Label == "") {
				t.Errorf("%v: tick %d = %+v, the default's %+v", r, i, got[i], def[i])
			}
			if labelsDistinct(def) && got[i].Label != def[i].Label {
				t.Errorf("%v: tick %d relabelled %q though the default's %q are distinct", r, i, got[i].Label, def[i].Label)
			}
			if got[i].Label != "" {
				if v, err := strconv.ParseFloat(got[i].Label, 64); err != nil || math.Abs(v-got[i].Value) > (r[1]-r[0])/4 {
					t.Errorf("%v: label %q does not read as its value %v", r, got[i].Label, got[i].Value)
				}
			}
		}
	}
	if labelsDistinct(canvas.DefaultTicks(29.999, 30.001)) {
		t.Error("the default ticks over [29.999, 30.001] are distinct: the case this guards is gone")
	}
}
