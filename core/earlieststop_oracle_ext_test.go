package core_test

import (
	"fmt"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestEarliestStopOracle: on runs of up to 512 full super-passes the
// earliest-stop search gives exactly what the linear search of before the
// long-run search (D39) gives (core.CheckEarliestStopOracle, the old code
// kept in earlieststop_oracle_test.go) — every field of the result, under
// the default and the reference parameters — on every parity and
// accuracy run (default and exhaustive rule), and on synth runs of every
// preset, a third of the closed-loop ones also stretched to 400
// super-passes (default rule).
func TestEarliestStopOracle(t *testing.T) {
	analysed := 0
	check := func(t *testing.T, s *core.Samples, info core.RunInfo, exhaustive bool) int {
		t.Helper()
		n, sps, err := core.CheckEarliestStopOracle(s, info, exhaustive)
		if err != nil {
			t.Fatal(err)
		}
		if sps > 512 {
			t.Fatalf("%d super-passes: beyond the linear search's 512", sps)
		}
		analysed += n
		return sps
	}
	t.Run("synth", func(t *testing.T) {
		for i, preset := range synth.Presets() {
			for _, long := range []bool{false, true} {
				spec, _ := synth.PresetSpec(preset, 1)
				if long && (i%3 != 0 || spec.Mode != synth.ModeConcurrency) {
					continue
				}
				t.Run(fmt.Sprintf("%s/long=%v", preset, long), func(t *testing.T) {
					s, info, _ := genRun(t, preset, uint64(11+i), soakSpec(long))
					if sps := check(t, s, info, !long); long && sps < 300 {
						t.Errorf("the long run has %d super-passes, want ≥ 300", sps)
					}
				})
			}
		}
	})
	forSharedRuns(t, func(t *testing.T, s *core.Samples, info core.RunInfo) {
		check(t, s, info, true)
	})
	if analysed == 0 {
		t.Error("no prefix analysed: the comparison compared no search")
	}
	t.Logf("%d prefixes analysed by the searches compared", analysed)
}
