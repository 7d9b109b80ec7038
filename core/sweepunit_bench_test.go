package core_test

import (
	"context"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// BenchmarkAnalyzeSweepUnit is the sweep's unit of work under the
// default parameters: one parameter set analysed over a run whose rollups
// and memos are shared by the run's parameter sets (one core.Run), on a
// synth clean_ramp run of 60 super-passes × 400 samples with word counts.
func BenchmarkAnalyzeSweepUnit(b *testing.B) {
	dir := b.TempDir()
	spec, _ := synth.PresetSpec("clean_ramp", 1)
	spec.Passes = 60
	spec.DatasetSize = 400
	if _, err := synth.Generate(dir, spec); err != nil {
		b.Fatal(err)
	}
	run, _ := columnar.ResolveRun(context.Background(), dir)
	t, err := columnar.Ingest(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		b.Fatal(err)
	}
	s := t.Samples()
	p := core.DefaultParams()
	shared := core.NewRun(&s, t.Info)
	for b.Loop() {
		r, err := shared.Analyze(p)
		if err != nil {
			b.Fatal(err)
		}
		_ = r.Outcome()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/config")
}
