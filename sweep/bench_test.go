package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora"
)

// BenchmarkSweep sweeps 200 small runs × 100 parameter sets into Parquet.
// With loader=memory the loader serves one run held in memory (testdata's
// conc_partial_dataset, 2 000 samples), so the figures are the engine, the
// analyses and the writer, not the disk; loader=columnar decodes 200
// on-disk copies of it (.jsonl.gz, no cache). analyzer=core runs the real
// detector, analyzer=fake a trivial one (engine and writer overhead only).
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
	cs := gridConfigs(b, "alpha: [0.01, 0.025, 0.05, 0.1]\ntrend_rel_drift_min: [0.01, 0.02, 0.05, 0.1, 0.2]\nwarmup_band: [0.02, 0.05, 0.1, 0.2, 0.3]", 100)
	small, err := DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}})(context.Background(),
		corpora.RunRef{Path: filepath.Join("testdata", "runs", "conc_partial_dataset")})
	if err != nil {
		b.Fatal(err)
	}
	load := func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		return &LoadedRun{Samples: small.Samples, Info: small.Info, Tokenizer: small.Tokenizer}, nil
	}
	// On-disk copies for loader=columnar.
	src := filepath.Join("testdata", "runs", "conc_partial_dataset")
	files, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	var diskRefs []corpora.RunRef
	for _, r := range refs {
		d := filepath.Join(dir, "disk", r.Rel)
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(src, f.Name()))
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, f.Name()), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		diskRefs = append(diskRefs, corpora.RunRef{Root: dir, Path: d, Rel: r.Rel, EventsPath: filepath.Join(d, "events.jsonl.gz")})
	}
	for _, v := range []struct {
		loader, analyzer string
		load             Loader
		refs             []corpora.RunRef
		f                Analyzer
	}{
		{"memory", "fake", load, refs, fakeAnalyze},
		{"columnar", "fake", DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}}), diskRefs, fakeAnalyze},
		{"memory", "core", load, refs, DefaultAnalyzer},
	} {
		for _, jobs := range []int{1, 2} {
			b.Run(fmt.Sprintf("loader=%s/analyzer=%s/jobs=%d", v.loader, v.analyzer, jobs), func(b *testing.B) {
				b.ReportAllocs()
				rows := 0
				for b.Loop() {
					sum, err := Run(context.Background(), Options{Runs: v.refs, Configs: cs, Out: b.TempDir(), Jobs: jobs,
						Load: v.load, Analyze: v.f, Series: DefaultSeries})
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
