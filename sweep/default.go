package sweep

import (
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// CoreRun returns the core.Run of a loaded run, prepared on first use: the
// run's parameter sets share its rollups and memos, and they are released
// with the LoadedRun (a sweep holds at most Jobs runs in memory).
//
// The core.Run's Stop hook polls run.Stop, whenever that is set.
func CoreRun(run *LoadedRun) *core.Run {
	if run.core == nil {
		r := core.NewRun(run.Samples, run.Info)
		r.Stop = func() error {
			if run.Stop == nil {
				return nil
			}
			return run.Stop()
		}
		run.core = r
	}
	return run.core
}

// DefaultAnalyzer analyses with core.Run.Analyze and attaches the result's
// earliest stop (EarliestStop). The parameter sets of one run go to one
// core.Run (CoreRun), so they share its rollups and memos.
func DefaultAnalyzer(run *LoadedRun, p core.Params) (*core.Result, error) {
	cr := CoreRun(run)
	r, err := cr.Analyze(p)
	if err != nil {
		return nil, err
	}
	if err := EarliestStop(cr, p, r); err != nil {
		return nil, err
	}
	return r, nil
}

// PlainAnalyzer is DefaultAnalyzer without the earliest-stop search: the
// stop columns stay null. The search analyses every prefix of a certified
// run (core.Run.EarliestStopOf), an order of magnitude more work than the
// analysis itself, which a wide grid multiplies by its configs
// (`sweep --earliest-stop=false`).
func PlainAnalyzer(run *LoadedRun, p core.Params) (*core.Result, error) {
	return CoreRun(run).Analyze(p)
}

// EarliestStop searches the earliest stop of the run analysed as r under
// p (core.Run.EarliestStopOf, core.DefaultStopTarget: searched only when
// the full analysis certifies a window, an analysis per prefix from the
// minimum duration on) and attaches it to r (the JSON's earliest_stop
// block, the rows' stop_* columns: OutcomeOf) on steadysweep's super-pass
// path, the only one where a stop can be found: the one computation
// behind rows, analyze's report and JSON, and run pages.
func EarliestStop(cr *core.Run, p core.Params, r *core.Result) error {
	if r.Assessment == nil || r.Path != core.PathWindow {
		return nil // the reference's output stays the reference's; NATL has no windows
	}
	es, err := cr.EarliestStopOf(p, r, core.DefaultStopTarget())
	if err != nil {
		return err
	}
	r.EarliestStop = &es
	return nil
}

// OutcomeOf is the row digest of r: core.Result.Outcome with the earliest
// stop attached to r (EarliestStop), if any. Off the super-pass path no
// stop is attached, and none could be found (EarliestStopOf's reasons):
// the stop columns stay null either way.
func OutcomeOf(r *core.Result) core.Outcome {
	out := r.Outcome()
	if r.EarliestStop != nil {
		out.SetEarliestStop(*r.EarliestStop)
	}
	return out
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
