package core_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestSweepMemoMatchesFresh is the oracle of the memos a sweep's parameter
// sets share (issue 32: the drift guard's and the certification's
// measurements, the ensemble segmentation and the metric states kept over
// a range of alpha, the prefix runs of the earliest-stop search): one
// core.Run analysed, and its earliest stop searched, under a grid of alphas
// (and effect-size floors and minimum trend lengths) in turn, twice over,
// gives for every set exactly the Outcome, the JSON and the earliest stop
// of a fresh core.Run — on every parity and accuracy run and on a synth
// run of every preset.
func TestSweepMemoMatchesFresh(t *testing.T) {
	var grid []core.Params
	for _, alpha := range []float64{0.05, 0.001, 0.3, 0.02, 0.15, 0.08, 0.0501} {
		p := core.DefaultParams()
		p.Alpha = alpha
		grid = append(grid, p)
	}
	p := core.DefaultParams()
	p.Alpha, p.TrendRelDriftMin, p.MinTrendN = 0.1, 0.02, 5
	grid = append(grid, p)
	target := core.DefaultStopTarget()
	compared, stops := 0, 0
	check := func(t *testing.T, s *core.Samples, info core.RunInfo) {
		shared := core.NewRun(s, info)
		for i, p := range append(grid, grid...) { // twice: the second pass reads the memos
			got, gotStop := analyzeAndStop(t, shared, p, target)
			want, wantStop := analyzeAndStop(t, core.NewRun(s, info), p, target)
			if g, w := fmt.Sprintf("%+v", got.Outcome()), fmt.Sprintf("%+v", want.Outcome()); g != w {
				t.Fatalf("config %d (alpha %v): shared run\n%s\nfresh run\n%s", i, p.Alpha, g, w)
			}
			if g, w := refJSON(t, got), refJSON(t, want); !bytes.Equal(g, w) {
				t.Fatalf("config %d (alpha %v): JSON of the shared run differs", i, p.Alpha)
			}
			if g, w := fmt.Sprintf("%+v", gotStop), fmt.Sprintf("%+v", wantStop); g != w {
				t.Fatalf("config %d (alpha %v): earliest stop of the shared run\n%s\nfresh run\n%s", i, p.Alpha, g, w)
			}
			compared++
			if gotStop.Found {
				stops++
			}
		}
	}
	t.Run("synth", func(t *testing.T) {
		for i, preset := range synth.Presets() {
			t.Run(preset, func(t *testing.T) {
				s, info, _ := genRun(t, preset, uint64(31+i), nil)
				check(t, s, info)
			})
		}
	})
	forSharedRuns(t, check)
	if stops == 0 {
		t.Error("no earliest stop found: the comparison shows little")
	}
	t.Logf("%d parameter sets compared, %d with a stop", compared, stops)
}
