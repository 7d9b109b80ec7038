package core_test

import (
	"os"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// BenchmarkEarliestStopSweep is sweep.DefaultAnalyzer's core work per
// parameter set (issue 32's wide grid): one core.Run of a synth
// clean_ramp run of 60 super-passes × 1000 samples analysed under alpha
// values spread over [0.001, 0.3] (bench.AlphaConfigs), each result's
// earliest stop searched (DefaultStopTarget). STEADYSWEEP_BENCH_RUN names
// an already generated run (bench.PerConfigSpec) to skip the generation.
//
//	go test -run '^$' -bench EarliestStopSweep -benchtime 2000x -cpu 1 ./core/
func BenchmarkEarliestStopSweep(b *testing.B) {
	var s *core.Samples
	var info core.RunInfo
	if dir := os.Getenv("STEADYSWEEP_BENCH_RUN"); dir != "" {
		var err error
		if s, info, err = decodeRun(dir); err != nil {
			b.Fatal(err)
		}
	} else {
		s, info, _ = genRun(b, "clean_ramp", 1, func(sp *synth.Spec) { sp.Passes, sp.DatasetSize = 60, 1000 })
	}
	shared := core.NewRun(s, info)
	const n = 1001
	i, evaluated := 0, 0
	cpu0 := core.CPUTime()
	for b.Loop() {
		p := core.DefaultParams()
		p.Alpha = 0.001 + 0.299*float64(i%n)/float64(n-1)
		i++
		_, e := analyzeAndStop(b, shared, p, core.DefaultStopTarget())
		evaluated += e.Evaluated
	}
	b.ReportMetric(float64((core.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/config")
	b.ReportMetric(float64(evaluated)/float64(b.N), "prefixes/config")
}
