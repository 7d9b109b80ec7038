package core_test

import (
	"io"
	"os"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/reftext"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
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

// BenchmarkStreamedLogCommand is the core work of `steadysweep analyze
// RUN --compat reference --superpass-size 1000 --json OUT` on the same
// log, as the command does it: the rollups' lists from Run.Floats (the
// command's come from huge pages outside the heap; here one array reused
// from run to run, so that B/op counts the heap the command allocates),
// then the diagnostic tables, the JSON and the text report, rendered to
// nothing. Its B/op are the command's fresh heap pages, a page fault per
// 4 KiB of them on a fresh process.
//
//	STEADYSWEEP_BENCH_STREAMED_RUN=DIR go test -run '^$' -bench StreamedLogCommand -cpu 1 -benchmem ./core/
func BenchmarkStreamedLogCommand(b *testing.B) {
	s, info := givenRun(b, "STEADYSWEEP_BENCH_STREAMED_RUN")
	p := core.ReferenceParams()
	p.SuperpassSize = 1000
	var room []float64
	floats := func(n int) []float64 {
		if cap(room) < n {
			room = make([]float64, n)
		}
		return room[:0:n]
	}
	b.ReportAllocs()
	cpu0 := core.CPUTime()
	for b.Loop() {
		cr := core.NewRun(s, info)
		cr.Floats = floats
		r, err := cr.Analyze(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Diagnostics(); err != nil {
			b.Fatal(err)
		}
		if err := resultjson.Write(io.Discard, r); err != nil {
			b.Fatal(err)
		}
		if _, err := reftext.Text(r); err != nil {
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
