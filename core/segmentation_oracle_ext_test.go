package core_test

import (
	"fmt"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestSegmentationOracle: the incremental plateau scans, the k-segment
// SSE, the MSER trim and the level-shift split give exactly what the quadratic code they replace
// gives (core.CheckSegmentationOracle, the old code kept in
// segmentation_oracle_test.go), on every parity run, every accuracy run
// and synth runs of every preset up to 500 super-passes (issue 32).
func TestSegmentationOracle(t *testing.T) {
	runs, empty := 0, 0
	check := func(t *testing.T, s *core.Samples, info core.RunInfo) int {
		t.Helper()
		n, longest, err := core.CheckSegmentationOracle(s, info)
		if err != nil {
			t.Fatal(err)
		}
		if runs++; n == 0 {
			empty++
			t.Log("no comparison: the run has no post-warmup super-pass")
		}
		return longest
	}
	defer func() {
		// A run without a full super-pass (a partial dataset) has nothing
		// to segment; the corpora have two such runs.
		if empty > 2 {
			t.Errorf("%d of %d runs had no post-warmup series to compare", empty, runs)
		}
	}()
	t.Run("synth", func(t *testing.T) {
		for i, preset := range synth.Presets() {
			for _, long := range []bool{false, true} {
				spec, _ := synth.PresetSpec(preset, 1)
				if long && (i%3 != 0 || spec.Mode != synth.ModeConcurrency) {
					continue // a third of the closed-loop presets also long: the oracle is O(P³) over a run
				}
				t.Run(fmt.Sprintf("%s/long=%v", preset, long), func(t *testing.T) {
					s, info, _ := genRun(t, preset, uint64(7+i), soakSpec(long))
					if sps := check(t, s, info); long && sps < 300 {
						t.Errorf("the long run has %d post-warmup super-passes, want ≥ 300", sps)
					}
				})
			}
		}
	})
	forSharedRuns(t, func(t *testing.T, s *core.Samples, info core.RunInfo) {
		check(t, s, info)
	})
}
