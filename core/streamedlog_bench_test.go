package core_test

import (
	"os"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// BenchmarkStreamedLog is the core work of a warm analyze of issue 32's
// 185 MB streamed two-chunk log, decoded once from the run directory
// STEADYSWEEP_BENCH_STREAMED_RUN names: the analysis under the
// reference's parameters at super-pass size 1000 and the diagnostic
// tables, on a fresh Run each time as the command does.
//
//	STEADYSWEEP_BENCH_STREAMED_RUN=DIR go test -run '^$' -bench StreamedLog -cpu 1 ./core/
func BenchmarkStreamedLog(b *testing.B) {
	s, info := givenRun(b, "STEADYSWEEP_BENCH_STREAMED_RUN")
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

// givenRun is decodeRun of the run directory the environment variable
// env names; it skips b when env names none.
func givenRun(b *testing.B, env string) (*core.Samples, core.RunInfo) {
	dir := os.Getenv(env)
	if dir == "" {
		b.Skip(env + " names no run directory")
	}
	s, info, err := decodeRun(dir)
	if err != nil {
		b.Fatal(err)
	}
	return s, info
}
