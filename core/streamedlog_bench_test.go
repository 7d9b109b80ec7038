package core_test

import (
	"os"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// BenchmarkStreamedLog is the core work of a warm analyze of a real run
// (issue 32's 185 MB streamed two-chunk log): the analysis under the
// reference's parameters at super-pass size 1000 and the diagnostic
// tables, on a fresh Run each time as the command does.
// STEADYSWEEP_BENCH_STREAMED_RUN names the run directory (decoded once).
//
//	STEADYSWEEP_BENCH_STREAMED_RUN=DIR go test -run '^$' -bench StreamedLog -cpu 1 ./core/
func BenchmarkStreamedLog(b *testing.B) {
	dir := os.Getenv("STEADYSWEEP_BENCH_STREAMED_RUN")
	if dir == "" {
		b.Skip("STEADYSWEEP_BENCH_STREAMED_RUN names no run")
	}
	s, info, err := decodeRun(dir)
	if err != nil {
		b.Fatal(err)
	}
	p := core.ReferenceParams()
	p.SuperpassSize = 1000
	b.ReportAllocs()
	cpu0 := core.CPUTime()
	for b.Loop() {
		r, err := core.NewRun(s, info).Analyze(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Diagnostics(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((core.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}
