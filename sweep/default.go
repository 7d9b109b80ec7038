package sweep

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// LoaderOptions configure DefaultLoader.
type LoaderOptions struct {
	// Cache, if set, keeps ingested runs so a run is decoded once across
	// sweeps (columnar.Cache); nil decodes every time.
	Cache *columnar.Cache
	// Counter counts output tokens (default tokenizer.Words{}).
	Counter columnar.TokenCounter
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
// columnar.ResolveRun, ingests it (through the cache when set) and
// converts it to core.Samples; the Arrow table is released before it
// returns.
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
		if o.DatasetSize > 0 {
			// Before ingest: TokenizeSample picks its samples per
			// super-pass, and the cache key holds the size.
			run.Info.DatasetSize, run.Info.DatasetSizeSource = o.DatasetSize, "--dataset-size"
		}
		opts := columnar.IngestOptions{Counter: o.Counter, Allocator: o.Mem, Workers: o.Workers, TokenizeSample: o.TokenizeSample}
		var t *columnar.Table
		if o.Cache != nil {
			t, _, err = o.Cache.Ingest(ctx, run, opts)
		} else {
			t, err = columnar.Ingest(ctx, run, opts)
		}
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", run.EventsPath, err)
		}
		defer t.Release()
		s := t.Samples()
		tok := o.Counter.Identity()
		if t.Info.TokensRecorded {
			tok = "recorded:" + t.Info.SourceFormat
		}
		return &LoadedRun{Samples: &s, Info: t.Info, Tokenizer: tok, Warnings: run.Warnings}, nil
	}
}

// rollupKey memoises core.Rollup per super-pass size.
type rollupKey struct{ S int }

// DefaultAnalyzer analyses with core and returns (*core.Result).Outcome.
// On the window path it builds the rollups once per distinct super-pass
// size of the run and hands them to core.AnalyzeWithRollups, so the
// parameter sets of a run share them and core's per-window memos; the
// agentic NATL path goes through core.Analyze. Either way the outcome
// equals core.Analyze's (TestRealSweep checks it).
func DefaultAnalyzer(run *LoadedRun, p core.Params) (core.Outcome, error) {
	var r *core.Result
	var err error
	if S := superpassSize(run.Info, p); S > 0 && profileOf(run.Info, p).Path == "window" {
		sps := run.Memo(rollupKey{S}, func() any { return core.Rollup(run.Samples, S) }).([]core.SuperPass)
		r, err = core.AnalyzeWithRollups(run.Samples, sps, run.Info, p)
	} else {
		r, err = core.Analyze(run.Samples, run.Info, p)
	}
	if err != nil {
		return core.Outcome{}, err
	}
	return r.Outcome(), nil
}

// profileOf resolves the workload profile as core does: the forced
// profile when it names one, else the run's load pattern.
func profileOf(info core.RunInfo, p core.Params) core.Profile {
	if p.Profile != "" {
		if pr, ok := core.LookupProfile(p.Profile); ok {
			return pr
		}
	}
	return core.ProfileForLoadPattern(info.LoadPattern)
}

// superpassSize resolves S as core does; ≤ 0 when unresolvable.
func superpassSize(info core.RunInfo, p core.Params) int {
	if p.SuperpassSize != 0 {
		return p.SuperpassSize
	}
	return info.DatasetSize
}

// DefaultSeries is the per-super-pass trajectory at the run's dataset
// size (no rows when it is unknown): issue span, and p50/p90/p99 of TTFT,
// TPOT and latency by the reference's percentile rule.
func DefaultSeries(run *LoadedRun) ([]sinks.SeriesRow, error) {
	S := run.Info.DatasetSize
	if S <= 0 {
		return nil, nil
	}
	sps := run.Memo(rollupKey{S}, func() any { return core.Rollup(run.Samples, S) }).([]core.SuperPass)
	rows := make([]sinks.SeriesRow, len(sps))
	for i := range sps {
		sp := &sps[i]
		r := sinks.SeriesRow{SP: sp.Index, SuperpassSize: S, NIssued: sp.NIssued,
			FirstIssueNs: sp.FirstIssueNs, LastIssueNs: sp.LastIssueNs, OutTokens: sp.OutTokens}
		r.TTFTP50Ns, r.TTFTP90Ns, r.TTFTP99Ns = percentiles(sp.TTFT)
		r.TPOTP50Ns, r.TPOTP90Ns, r.TPOTP99Ns = percentiles(sp.TPOT)
		r.LatencyP50Ns, r.LatencyP90Ns, r.LatencyP99Ns = percentiles(sp.Latency)
		rows[i] = r
	}
	return rows, nil
}

func percentiles(xs []float64) (p50, p90, p99 float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return stats.PercentileLower(s, 0.5), stats.PercentileLower(s, 0.9), stats.PercentileLower(s, 0.99)
}
