package sinks_test

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// BenchmarkPlotLongRun draws the PNG and SVG plots of a long run (issue
// 32): synth clean_ramp stretched to 10,000 super-passes of one sample
// (bench/cmd/benchall's longRunSpec), generated, decoded and analysed
// once under the default parameters. A plot's cost must not grow faster
// than its points.
//
//	nice go test -run '^$' -bench PlotLongRun -benchtime 5x -cpu 1 ./sinks/
func BenchmarkPlotLongRun(b *testing.B) {
	r := longRunResult(b, 1, 10000)
	for _, f := range []struct {
		name  string
		write func(io.Writer, string, *core.Result) error
	}{{"png", sinks.WritePlotPNG}, {"svg", sinks.WritePlotSVG}} {
		b.Run(fmt.Sprintf("%s/P=%d", f.name, r.NSuperPasses), func(b *testing.B) {
			for b.Loop() {
				if err := f.write(io.Discard, "longrun", r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// longRunResult analyses synth clean_ramp stretched to passes passes of
// a dataset of S samples, as bench/cmd/benchall's longRunSpec does.
func longRunResult(tb testing.TB, S int, passes float64) *core.Result {
	tb.Helper()
	spec, err := synth.PresetSpec("clean_ramp", 1)
	if err != nil {
		tb.Fatal(err)
	}
	spec.DatasetSize, spec.Passes = S, passes
	spec.Concurrency = min(spec.Concurrency, max(S, 4))
	spec.RampSuperPasses *= 10
	dir := filepath.Join(tb.TempDir(), "longrun")
	if _, err := synth.Generate(dir, spec); err != nil {
		tb.Fatal(err)
	}
	run, d := sinkstest.DecodeEvents(tb, dir)
	r, err := core.NewRun(&d.Samples, run.Info).Analyze(core.DefaultParams())
	if err != nil {
		tb.Fatal(err)
	}
	return r
}
