package htmlpage_test

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// perPageCPU runs write b.N times and reports its CPU time per call.
func perPageCPU(b *testing.B, write func() error) {
	b.ReportAllocs()
	c0 := bench.CPUTime()
	for b.Loop() {
		if err := write(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bench.CPUTime()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkWritePage writes a run page of 2,000 super-passes (synth's
// clean ramp, one sample per super-pass: four charts and a table of a
// point, a hover target and a row per super-pass) and a sweep page of
// 3,000 rows (manyRows), each to io.Discard: the page writer's cost
// (issue 32), record included; cpu-ns/op is the process's CPU time per
// page (steadier than the wall clock on a loaded machine).
//
//	nice go test -run '^$' -bench WritePage -benchmem -benchtime 10x -cpu 1 ./sinks/htmlpage/
func BenchmarkWritePage(b *testing.B) {
	b.Run("run/P=2000", func(b *testing.B) {
		spec, err := synth.PresetSpec("clean_ramp", 1)
		if err != nil {
			b.Fatal(err)
		}
		spec.DatasetSize, spec.Passes, spec.Concurrency = 1, 2000, 4
		dir := filepath.Join(b.TempDir(), "run")
		if _, err := synth.Generate(dir, spec); err != nil {
			b.Fatal(err)
		}
		in := htmlpage.RunInput{Result: analyzeDir(b, dir, core.DefaultParams()), RunPath: dir}
		perPageCPU(b, func() error { return htmlpage.WriteRun(io.Discard, in) })
	})
	b.Run("sweep/rows=3000", func(b *testing.B) {
		s := manyRows(3000)
		perPageCPU(b, func() error { return htmlpage.WriteSweep(io.Discard, s, htmlpage.SweepOptions{}) })
	})
}
