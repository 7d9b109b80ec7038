package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/corpora"
)

// BenchmarkSweep sweeps 200 small runs × 100 parameter sets into Parquet.
// The loader serves one run held in memory (testdata's conc_partial_dataset,
// 2 000 samples) so the figures are the engine, the analyses and the
// writer, not the disk; analyzer=core runs the real detector,
// analyzer=fake a trivial one (engine and writer overhead only).
//
//	go test -run '^$' -bench '^BenchmarkSweep' -benchtime 1x -count 6 ./sweep | tee sweep.txt; benchstat sweep.txt
func BenchmarkSweep(b *testing.B) {
	const nRuns = 200
	dir := b.TempDir()
	var refs []corpora.RunRef
	for i := range nRuns {
		p := filepath.Join(dir, fmt.Sprintf("run%03d", i), "events.jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("{\"n\":%d}\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		refs = append(refs, corpora.RunRef{Root: dir, Path: filepath.Dir(p), Rel: fmt.Sprintf("run%03d", i), EventsPath: p})
	}
	g, err := ParseGrid([]byte("alpha: [0.01, 0.025, 0.05, 0.1]\ntrend_rel_drift_min: [0.01, 0.02, 0.05, 0.1, 0.2]\nwarmup_band: [0.02, 0.05, 0.1, 0.2, 0.3]"))
	if err != nil {
		b.Fatal(err)
	}
	cs, err := g.Configs(nil, nil)
	if err != nil || len(cs) != 100 {
		b.Fatalf("%d configs, %v", len(cs), err)
	}
	small, err := DefaultLoader(LoaderOptions{})(context.Background(),
		corpora.RunRef{Path: filepath.Join("testdata", "runs", "conc_partial_dataset")})
	if err != nil {
		b.Fatal(err)
	}
	load := func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		return &LoadedRun{Samples: small.Samples, Info: small.Info, Tokenizer: small.Tokenizer}, nil
	}
	for _, an := range []struct {
		name string
		f    Analyzer
	}{{"fake", fakeAnalyze}, {"core", DefaultAnalyzer}} {
		for _, jobs := range []int{1, 2} {
			b.Run(fmt.Sprintf("analyzer=%s/jobs=%d", an.name, jobs), func(b *testing.B) {
				b.ReportAllocs()
				rows := 0
				for b.Loop() {
					sum, err := Run(context.Background(), Options{Runs: refs, Configs: cs, Out: b.TempDir(), Jobs: jobs,
						Load: load, Analyze: an.f, Series: DefaultSeries})
					if err != nil {
						b.Fatal(err)
					}
					if sum.Rows != nRuns*len(cs) || sum.RowsByStatus[StatusError] != 0 {
						b.Fatalf("summary %+v", sum)
					}
					rows += sum.Rows
				}
				secs := b.Elapsed().Seconds()
				b.ReportMetric(float64(rows)/secs, "rows/s")
				b.ReportMetric(float64(rows/len(cs))/secs, "runs/s")
			})
		}
	}
}
