package bench

import (
	"context"
	"fmt"
	"strconv"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sweep"
)

// Loader returns a sweep.Loader that ingests a run counting output tokens
// as whitespace words (the synthetic corpus's counter), through the column
// cache in cacheDir, or without a cache when cacheDir is "".
//
// It stands in for the sweep package's default loader, which does not
// exist yet (sweep.Options documents DefaultLoader/DefaultAnalyzer); it
// wires columnar and core the way cmd/steadysweep's analyze does.
func Loader(cacheDir string) sweep.Loader {
	return func(ctx context.Context, ref corpora.RunRef) (*sweep.LoadedRun, error) {
		run, err := columnar.ResolveRun(ref.Path)
		if err != nil {
			return nil, err
		}
		opts := columnar.IngestOptions{Counter: tokenizer.Words{}, Workers: 1}
		var table *columnar.Table
		if cacheDir == "" {
			table, err = columnar.Ingest(ctx, run, opts)
		} else {
			table, _, err = (&columnar.Cache{Dir: cacheDir}).Ingest(ctx, run, opts)
		}
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", run.EventsPath, err)
		}
		s := table.Samples()
		return &sweep.LoadedRun{Samples: &s, Info: table.Info, Tokenizer: "words", Warnings: run.Warnings}, nil
	}
}

// Analyze is the sweep.Analyzer of the benchmarks: core.Analyze under p,
// reduced to its outcome row.
func Analyze(run *sweep.LoadedRun, p core.Params) (core.Outcome, error) {
	res, err := core.Analyze(run.Samples, run.Info, p)
	if err != nil {
		return core.Outcome{}, err
	}
	return res.Outcome(), nil
}

// Configs returns n parameter sets (n a multiple of 10): the presets
// default and reference × 5 values of trend_rel_drift_min × n/10 values of
// warmup_band spread over [0.02, 0.20].
func Configs(n int) ([]core.Params, error) {
	if n < 10 || n%10 != 0 {
		return nil, fmt.Errorf("bench: %d configs: want a positive multiple of 10", n)
	}
	k := n / 10
	bands := make([]string, k)
	for i := range k {
		v := 0.05
		if k > 1 {
			v = 0.02 + 0.18*float64(i)/float64(k-1)
		}
		bands[i] = strconv.FormatFloat(v, 'g', 6, 64)
	}
	g := sweep.Grid{Axes: []sweep.Axis{
		{Name: "trend_rel_drift_min", Values: []string{"0.02", "0.035", "0.05", "0.075", "0.1"}},
		{Name: "warmup_band", Values: bands},
	}}
	cs, err := g.Configs([]string{"default", "reference"}, nil)
	if err != nil {
		return nil, err
	}
	if len(cs) != n {
		return nil, fmt.Errorf("bench: grid made %d configs, want %d", len(cs), n)
	}
	return cs, nil
}
