package sweep

import (
	"context"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// LoadedRun is one run in memory: the detector's input and what the rows
// record about how it was read.
type LoadedRun struct {
	Samples *core.Samples
	Info    core.RunInfo
	// Run is the resolved run (nil from a loader that has none).
	Run *columnar.Run
	// Counter counted the output tokens, chosen as Resolution says
	// (RunLoader.Counter); CacheHit: the columns came from the cache.
	Counter    columnar.TokenCounter
	Resolution tokenizer.Resolution
	CacheHit   bool
	// Columns are the decoded columns when LoaderOptions.KeepColumns
	// asked for them (Table), else nil.
	Columns *columnar.Loaded
	// Tokenizer identifies the output-token counter used ("" unknown);
	// TokenizerSource says which counter it is and where it was found.
	Tokenizer, TokenizerSource string
	// Warnings are ingest warnings (not written to rows).
	Warnings []string
	// EventsSHA256 is the hex SHA-256 of the events file as stored, when
	// the loader computed it while reading (or had it from a cache): the
	// sweep then does not read the file again for the rows' provenance.
	EventsSHA256 string
	// Stop, when set, is polled by the long loops of the run's analyses
	// (core.Run.Stop, through CoreRun); the sweep sets it to its context's
	// error so a cancelled sweep leaves a run mid-analysis at once.
	Stop func() error

	// stored is the cache entry's write running beside the analysis
	// (LoaderOptions.StoreLater), nil when there is none: WaitStored.
	stored func() error

	// core is the run prepared for the detector (CoreRun), shared by the
	// run's parameter sets; a run is analysed by one goroutine.
	core *core.Run
}

// Loader reads one run. It is called once per run, from a worker
// goroutine; it should honour ctx for long reads.
type Loader func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error)

// Analyzer analyses a loaded run under one parameter set and returns the
// detector's result: the engine derives the row from it (OutcomeOf), and
// hands it to Options.AfterRun (cmd's run pages render it). It is called
// once per run × parameter set, sequentially for a given run.
type Analyzer func(run *LoadedRun, p core.Params) (*core.Result, error)

// Analysis is one parameter set of a run and the Analyzer's result of it.
type Analysis struct {
	Params core.Params
	Result *core.Result
}

// SeriesFunc computes a run's per-super-pass trajectory for the series
// table (RunID is filled in by the sweep). Nil disables the table.
type SeriesFunc func(run *LoadedRun) ([]sinks.SeriesRow, error)

// WaitStored waits for the run's cache entry to be written when the
// loader left it to run beside the caller (LoaderOptions.StoreLater), and
// gives its warning ("cache: …", which it also sends to
// LoaderOptions.Warn, once) or nil. A command calls it before it exits:
// the entry is then whole on disk. It may be called again; nil for a run
// whose entry was written by the load or not at all.
func (lr *LoadedRun) WaitStored() error {
	if lr == nil || lr.stored == nil {
		return nil
	}
	return lr.stored()
}
