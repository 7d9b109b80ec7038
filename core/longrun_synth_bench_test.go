package core_test

import (
	"fmt"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// BenchmarkLongRunSynth is BenchmarkLongRun on synth runs (issue 32's
// soak test with a small dataset): the clean_ramp and noisy presets
// stretched to 10,000 super-passes of 20 samples and of one, decoded
// once, then analysed under the default parameters with the outcome.
//
//	nice go test -run '^$' -bench LongRunSynth -benchtime 1x ./core/
func BenchmarkLongRunSynth(b *testing.B) {
	for _, preset := range []string{"clean_ramp", "noisy"} {
		for _, S := range []int{20, 1} {
			b.Run(fmt.Sprintf("%s/S=%d", preset, S), func(b *testing.B) {
				s, info, _ := genRun(b, preset, 1, func(sp *synth.Spec) {
					sp.DatasetSize, sp.Passes = S, 10000
					sp.Concurrency = min(sp.Concurrency, max(S, 4))
					sp.RampSuperPasses *= 10
				})
				p := core.DefaultParams()
				b.ResetTimer()
				for b.Loop() {
					r, err := core.NewRun(s, info).Analyze(p)
					if err != nil {
						b.Fatal(err)
					}
					o := r.Outcome()
					b.ReportMetric(float64(r.NSuperPasses), "super-passes")
					b.ReportMetric(float64(len(r.Steady.Plateaus)), "plateaus")
					_ = o
				}
			})
		}
	}
}
