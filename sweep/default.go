package sweep

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// LoaderOptions configure DefaultLoader.
type LoaderOptions struct {
	// Cache, if set, keeps ingested runs so a run is decoded once across
	// sweeps (columnar.Cache); nil decodes every time.
	Cache *columnar.Cache
	// Counter counts output tokens (default tokenizer.Words{});
	// CounterSource says how it was chosen and where it was found, for
	// the rows' tokenizer_source (tokenizer.Resolution; default the
	// counter's identity).
	Counter       columnar.TokenCounter
	CounterSource string
	// TokenizeSample is columnar.IngestOptions.TokenizeSample.
	TokenizeSample int
	// DatasetSize, if positive, overrides the run's sidecars (as
	// analyze's --dataset-size): every run gets this dataset size.
	DatasetSize int
	// Workers is the decode goroutines per run (default 1: the sweep
	// already runs one run per core).
	Workers int
	// Mem allocates the ingest's Arrow memory.
	Mem memory.Allocator
}

// DefaultLoader returns a Loader that resolves a run with
// columnar.ResolveRun and loads its columns (through the cache when set),
// hashing the events file as it decodes it (a cache hit has the hash
// recorded): no Arrow round trip, no second read.
func DefaultLoader(o LoaderOptions) Loader {
	if o.Counter == nil {
		o.Counter = tokenizer.Words{}
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	return func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		run, err := columnar.ResolveRun(ref.Path)
		if err != nil {
			return nil, err
		}
		if err := columnar.EmptyFile(run.EventsPath); err != nil {
			return nil, err
		}
		if o.DatasetSize > 0 {
			// Before ingest: TokenizeSample picks its samples per
			// super-pass, and the cache key holds the size.
			run.Info.DatasetSize, run.Info.DatasetSizeSource = o.DatasetSize, "--dataset-size"
		}
		opts := columnar.IngestOptions{Counter: o.Counter, Allocator: o.Mem, Workers: o.Workers, TokenizeSample: o.TokenizeSample, HashEvents: true}
		var l *columnar.Loaded
		if o.Cache != nil {
			l, _, err = o.Cache.Load(ctx, run, opts)
		} else {
			l, err = columnar.Load(ctx, run, opts)
		}
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", run.EventsPath, err)
		}
		if err := columnar.EmptyLoad(run.EventsPath, &l.Summary); err != nil {
			return nil, err
		}
		tok, src := o.Counter.Identity(), o.CounterSource
		if src == "" {
			src = tok
		}
		if l.Info.TokensRecorded {
			tok = "recorded:" + l.Info.SourceFormat
			src = "recorded: the " + l.Info.SourceFormat + " log's own token counts"
		}
		return &LoadedRun{Samples: &l.Samples, Info: l.Info, Tokenizer: tok, TokenizerSource: src, Warnings: run.Warnings,
			EventsSHA256: l.EventsSHA256}, nil
	}
}

// runKey is the LoadedRun memo of the run's core.Run.
type runKey struct{}

// CoreRun returns the core.Run of a loaded run, prepared on first use: the
// run's parameter sets share its rollups and memos, and they are released
// with the LoadedRun (a sweep holds at most Jobs runs in memory).
//
// The core.Run's Stop hook polls run.Stop, whenever that is set.
func CoreRun(run *LoadedRun) *core.Run {
	return run.Memo(runKey{}, func() any {
		r := core.NewRun(run.Samples, run.Info)
		r.Stop = func() error {
			if run.Stop == nil {
				return nil
			}
			return run.Stop()
		}
		return r
	}).(*core.Run)
}

// DefaultAnalyzer analyses with core.Run.Analyze and returns the result's
// Outcome, with its earliest stop (EarliestStop). The parameter sets of
// one run go to one core.Run (CoreRun), so they share its rollups and
// memos.
func DefaultAnalyzer(run *LoadedRun, p core.Params) (core.Outcome, error) {
	cr := CoreRun(run)
	r, err := cr.Analyze(p)
	if err != nil {
		return core.Outcome{}, err
	}
	out := r.Outcome()
	if err := EarliestStop(cr, p, r, &out); err != nil {
		return core.Outcome{}, err
	}
	return out, nil
}

// PlainAnalyzer is DefaultAnalyzer without the earliest-stop search: the
// stop columns stay null. The search analyses every prefix of a certified
// run (core.Run.EarliestStopOf), an order of magnitude more work than the
// analysis itself, which a wide grid multiplies by its configs
// (`sweep --earliest-stop=false`).
func PlainAnalyzer(run *LoadedRun, p core.Params) (core.Outcome, error) {
	r, err := CoreRun(run).Analyze(p)
	if err != nil {
		return core.Outcome{}, err
	}
	return r.Outcome(), nil
}

// EarliestStop records in out (when not nil) the earliest stop of the run
// analysed as r under p (core.Run.EarliestStopOf, core.DefaultStopTarget:
// searched only when the full analysis certifies a window, an analysis
// per prefix from the minimum duration on), and attaches it to r (the
// JSON's earliest_stop block) on steadysweep's super-pass path: the one
// computation behind rows, analyze's report and JSON, and run pages.
func EarliestStop(cr *core.Run, p core.Params, r *core.Result, out *core.Outcome) error {
	es, err := cr.EarliestStopOf(p, r, core.DefaultStopTarget())
	if err != nil {
		return err
	}
	if out != nil {
		out.SetEarliestStop(es)
	}
	if r.Assessment != nil && r.Path == core.PathWindow {
		r.EarliestStop = &es
	}
	return nil
}

// DefaultSeries is the per-super-pass trajectory at the run's dataset
// size (no rows when it is unknown): issue span, p50/p90/p99 of TTFT, TPOT
// and latency by the reference's percentile rule, and the TPOT mean.
func DefaultSeries(run *LoadedRun) ([]sinks.SeriesRow, error) {
	S := run.Info.DatasetSize
	if S <= 0 {
		return nil, nil
	}
	sps, err := CoreRun(run).SuperPasses(S)
	if err != nil {
		return nil, err
	}
	rows := make([]sinks.SeriesRow, len(sps))
	for i, d := range sps {
		rows[i] = sinks.SeriesRowOf(d, S)
	}
	return rows, nil
}
