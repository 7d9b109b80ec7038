package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sweep"
)

// SweepRowsTargetUs is issue 32's per-config target through a whole sweep
// (rows written, the earliest-stop search included), in µs of CPU.
const SweepRowsTargetUs = 500

// SweepRowsCost is the per-config CPU cost of a whole sweep of the run in
// dir (issue 32): sweep.Run under all of cfgs and under cfgs[0] alone, on
// one job with the column cache in cacheDir warm (filled first), rows
// written to Parquet under work; the difference of the two sweeps' CPU
// times over the len(cfgs) − 1 configs more, so the run's load and the
// files' setup cancel. It returns µs of CPU per config.
func SweepRowsCost(ctx context.Context, dir, cacheDir, work string, cfgs []core.Params) (float64, error) {
	if len(cfgs) < 2 {
		return 0, fmt.Errorf("bench: SweepRowsCost needs two configs or more")
	}
	ref := corpora.RunRef{Path: dir, Rel: filepath.Base(dir), EventsPath: filepath.Join(dir, "events.jsonl")}
	n := 0
	sweepCPU := func(cfgs []core.Params) (float64, error) {
		n++
		out := filepath.Join(work, fmt.Sprintf("sweep-%d", n))
		if err := os.MkdirAll(out, 0o755); err != nil {
			return 0, err
		}
		defer os.RemoveAll(out)
		runtime.GC()
		c0 := CPUTime()
		sum, err := sweep.Run(ctx, sweep.Options{
			Runs: []corpora.RunRef{ref}, Configs: cfgs, Out: out, Jobs: 1,
			Load:    sweep.DefaultLoader(sweep.LoaderOptions{Counter: tokenizer.Words{}, Workers: 1, Cache: &columnar.Cache{Dir: cacheDir}}),
			Analyze: sweep.DefaultAnalyzer, ToolVersion: "bench", ToolCommit: "bench",
		})
		if err != nil {
			return 0, err
		}
		if sum.Rows != len(cfgs) {
			return 0, fmt.Errorf("bench: %d rows, want %d", sum.Rows, len(cfgs))
		}
		return (CPUTime() - c0).Seconds(), nil
	}
	if _, err := sweepCPU(cfgs[:1]); err != nil { // fills the column cache
		return 0, err
	}
	one, err := sweepCPU(cfgs[:1])
	if err != nil {
		return 0, err
	}
	many, err := sweepCPU(cfgs)
	if err != nil {
		return 0, err
	}
	return (many - one) / float64(len(cfgs)-1) * 1e6, nil
}
