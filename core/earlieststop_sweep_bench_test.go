package core_test

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// BenchmarkEarliestStopSweep is sweep.DefaultAnalyzer's core work per
// parameter set (issue 32's wide grid): one core.Run of a synth
// clean_ramp run of 60 super-passes × 1000 samples analysed under alpha
// values spread over [0.001, 0.3] (bench.AlphaConfigs), each result's
// earliest stop searched (DefaultStopTarget). STEADYSWEEP_BENCH_RUN names
// an already generated run to skip the generation.
//
//	go test -run '^$' -bench EarliestStopSweep -benchtime 200x -cpu 1 ./core/
func BenchmarkEarliestStopSweep(b *testing.B) {
	dir := os.Getenv("STEADYSWEEP_BENCH_RUN")
	if dir == "" {
		dir = b.TempDir()
		spec, _ := synth.PresetSpec("clean_ramp", 1)
		spec.Passes, spec.DatasetSize = 60, 1000
		if _, err := synth.Generate(dir, spec); err != nil {
			b.Fatal(err)
		}
	}
	run, err := columnar.ResolveRun(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	t, err := columnar.Ingest(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		b.Fatal(err)
	}
	s := t.Samples()
	shared := core.NewRun(&s, t.Info)
	const n = 1001
	i, evaluated := 0, 0
	cpu0 := cpuNs()
	for b.Loop() {
		p := core.DefaultParams()
		p.Alpha = 0.001 + 0.299*float64(i%n)/float64(n-1)
		i++
		r, err := shared.Analyze(p)
		if err != nil {
			b.Fatal(err)
		}
		e, err := shared.EarliestStopOf(p, r, core.DefaultStopTarget())
		if err != nil {
			b.Fatal(err)
		}
		evaluated += e.Evaluated
		_ = r.Outcome()
	}
	b.ReportMetric(float64(cpuNs()-cpu0)/1e3/float64(b.N), "cpu-µs/config")
	b.ReportMetric(float64(evaluated)/float64(b.N), "prefixes/config")
}

// cpuNs is the process's user and system CPU time in ns.
func cpuNs() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
