package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// LoaderOptions say how runs are read: the one set of load settings of
// analyze, compare, ingest and sweep (cmd's loadFlags fill it).
type LoaderOptions struct {
	// Cache, if set, keeps ingested runs so a run is decoded once across
	// commands and sweeps (columnar.Cache); nil decodes every time.
	Cache *columnar.Cache
	// Counter, if set, counts every run's output tokens (a test's or a
	// benchmark's fixed counter); CounterSource says how it was chosen
	// (default its identity). Without it the counter is resolved by
	// Tokenizer and Model (RunLoader.Counter).
	Counter       columnar.TokenCounter
	CounterSource string
	// Tokenizer is --tokenizer (a tokenizer.json path or directory, a
	// Hugging Face id, or "words"); "" resolves each run's own from
	// Model, else its config.yaml (tokenizerModel).
	Tokenizer, Model string
	// TokenizerCache is the directory of compiled tokenizers ("" none).
	TokenizerCache string
	// TokenizeSample is columnar.IngestOptions.TokenizeSample, and
	// SuperPassSize (analyze's --superpass-size, warned about when small)
	// its super-pass size when the dataset size is unknown.
	TokenizeSample, SuperPassSize int
	// DatasetSize, if positive, overrides the run's sidecars (as
	// --dataset-size): every run gets this dataset size.
	DatasetSize int
	// Workers is the decode goroutines per run (0: columnar's default).
	Workers int
	// HashEvents hashes the events file while decoding it
	// (LoadedRun.EventsSHA256; a cache fill always does).
	HashEvents bool
	// KeepColumns keeps the decoded columns (LoadedRun.Columns) for a
	// command that exports them; the others let them go once loaded.
	KeepColumns bool
	// Warn, if set, receives the loader's warnings as they arise (the
	// run's sidecars, the log's problems, --tokenize-sample's fallbacks).
	Warn func(string)
	// BeforeDecode, if set, is called just before a run is decoded (not
	// on a cache hit): analyze lowers the collector's target there.
	BeforeDecode func()
	// StoreLater writes a decoded run's cache entry on its own goroutine
	// while the caller goes on with the columns (which nothing changes):
	// a cold analyze analyses while the entry is written.
	// LoadedRun.WaitStored waits for it; its warning comes then.
	StoreLater bool
	// Resolve resolves a path into a run (default columnar.ResolveRun,
	// through the cache's memo of config.yaml documents when there is a
	// cache): a test counts the resolutions through it.
	Resolve func(ctx context.Context, path string) (*columnar.Run, error)
}

// RunLoader reads runs under one LoaderOptions: it resolves a run once,
// chooses its token counter by one rule (Counter) and loads its columns
// through the cache when there is one. The counters it resolves are
// shared between the runs of one model. It is safe for concurrent use.
type RunLoader struct {
	o        LoaderOptions
	mu       sync.Mutex
	counters map[string]*pendingCounter // by tokenizer spec or model
}

// NewRunLoader returns a RunLoader for o.
func NewRunLoader(o LoaderOptions) *RunLoader {
	if o.Resolve == nil {
		o.Resolve = columnar.ResolveRun
		if o.Cache != nil {
			if memo := o.Cache.ConfigMemo(); memo != nil {
				o.Resolve = func(ctx context.Context, path string) (*columnar.Run, error) {
					return columnar.ResolveRunMemo(ctx, path, memo)
				}
			}
		}
	}
	return &RunLoader{o: o, counters: map[string]*pendingCounter{}}
}

// DefaultLoader is the sweep's Loader: a RunLoader's Load with the
// sweep's defaults, one decode goroutine per run (the sweep already runs
// one run per core), and the events file hashed as it is decoded (a cache
// hit has the hash recorded): no second read for the rows' provenance.
func DefaultLoader(o LoaderOptions) Loader {
	if o.Workers <= 0 {
		o.Workers = 1
	}
	o.HashEvents = true
	return NewRunLoader(o).Load
}

// Load is LoadRun of ref's path (a Loader).
func (l *RunLoader) Load(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
	return l.LoadRun(ctx, ref.Path)
}

// ResolveError is a path that could not be resolved into a run
// (columnar.ResolveRun's error, its message unchanged).
type ResolveError struct{ Err error }

func (e *ResolveError) Error() string { return e.Err.Error() }
func (e *ResolveError) Unwrap() error { return e.Err }

// TokenizerError is a run's token counter that could not be resolved
// (tokenizer.ResolveCached's error, one line, "tokenizer: …").
type TokenizerError struct{ Err error }

func (e *TokenizerError) Error() string { return e.Err.Error() }
func (e *TokenizerError) Unwrap() error { return e.Err }

// IngestError is a run whose log could not be read: "ingest FILE: …",
// the file named once (IngestError.Error).
type IngestError struct {
	Path string
	Err  error
}

// Error names the file once: a reader's error that starts with the path
// already keeps it ("ingest FILE: FILE: no benchmark 1" said it twice).
func (e *IngestError) Error() string {
	if msg := e.Err.Error(); strings.HasPrefix(msg, e.Path+":") {
		return "ingest " + msg
	}
	return "ingest " + e.Path + ": " + e.Err.Error()
}

func (e *IngestError) Unwrap() error { return e.Err }

// LoadRun resolves path (a run directory, an events file, a report's
// "file#N") once, and loads the run: the dataset size override, its
// token counter (Counter), its columns from the cache or a decode, the
// warnings of all that (Warn). Its errors are a *ResolveError, a
// *TokenizerError or an *IngestError.
func (l *RunLoader) LoadRun(ctx context.Context, path string) (*LoadedRun, error) {
	o := &l.o
	run, err := o.Resolve(ctx, path)
	if err != nil {
		return nil, &ResolveError{err}
	}
	// An empty log is said to be one before anything is resolved for it
	// (its model's tokenizer, its super-pass size), which would otherwise
	// be the error named.
	if err := columnar.EmptyFile(run.EventsPath); err != nil {
		return nil, err
	}
	warn := func(format string, args ...any) {
		if o.Warn != nil {
			o.Warn(fmt.Sprintf(format, args...))
		}
	}
	// A size below 4 has the warning that says more; up to 11, each
	// super-pass's p90 is one of its two largest samples.
	if w := columnar.SmallSuperpassWarning(o.SuperPassSize, "--superpass-size"); w != "" {
		warn("%s", w)
	} else if w := sinks.SmallSuperpassP90Warning(o.SuperPassSize, "--superpass-size"); w != "" {
		warn("%s", w)
	}
	if o.DatasetSize > 0 {
		// Before ingest: TokenizeSample picks its samples per
		// super-pass, and the cache key holds the size.
		run.Info.DatasetSize, run.Info.DatasetSizeSource = o.DatasetSize, "--dataset-size"
		if w := columnar.SmallSuperpassWarning(o.DatasetSize, "--dataset-size"); w != "" {
			warn("%s", w)
		}
	}
	if o.TokenizeSample > 0 && run.Info.DatasetSize <= 0 {
		if o.SuperPassSize > 0 {
			warn("%s: --tokenize-sample %d: the dataset size is unknown; sampling per super-pass of --superpass-size %d samples",
				run.EventsPath, o.TokenizeSample, o.SuperPassSize)
		} else {
			warn("%s: --tokenize-sample %d ignored: neither the dataset size nor --superpass-size is known, so every sample's tokens are counted (pass --dataset-size or --superpass-size)",
				run.EventsPath, o.TokenizeSample)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts := columnar.IngestOptions{Workers: o.Workers, TokenizeSample: o.TokenizeSample,
		SuperPassSize: o.SuperPassSize, HashEvents: o.HashEvents}
	pc := l.counter(run)
	if pc.Ready() {
		opts.Counter = pc.c // nil on an error, reported below
	} else {
		// The tokenizer loads beside the decode (columnar.PendingCounter);
		// a tokenizer that fails ends the decode, of no use without it.
		opts.Counter = pc
		go func() {
			select {
			case <-pc.loaded:
				if pc.failure() != nil {
					cancel()
				}
			case <-ctx.Done():
			}
		}()
	}
	var (
		cols  *columnar.Loaded
		hit   bool
		store func() error // the entry's write, StoreLater
	)
	if pc.done() && pc.err != nil {
		err = pc.err
	} else if o.Cache != nil {
		// The lookup needs only the counter's identity; its tables are
		// loaded for a decode, which a hit does without.
		if cols, hit = o.Cache.Lookup(run, opts); !hit {
			pc.load()
			l.beforeDecode()
			if o.StoreLater {
				cols, store, err = o.Cache.FillLater(ctx, run, opts)
				// A load that fails after the decode writes the entry
				// before it returns, as Fill would have (unwarned: the
				// error is what it says).
				defer func() {
					if store != nil {
						store()
					}
				}()
			} else {
				cols, err = o.Cache.Fill(ctx, run, opts)
			}
		}
	} else {
		pc.load()
		l.beforeDecode()
		cols, err = columnar.Load(ctx, run, opts)
	}
	// The tokenizer first: its failure cancels the decode, which may then
	// end early without error and without events, so an empty load says
	// nothing about the log until the counter is known to be fine.
	terr := pc.failure()
	if !hit && terr == nil {
		terr = pc.waitLoaded() // the decode counted with it
	}
	if terr != nil {
		if eerr := blankLog(run); eerr != nil {
			return nil, eerr // not the tokenizer of a log with nothing to count
		}
		return nil, &TokenizerError{terr}
	}
	if err != nil {
		return nil, &IngestError{Path: run.EventsPath, Err: err}
	}
	if err := columnar.EmptyLoad(run.EventsPath, &cols.Summary); err != nil {
		return nil, err
	}
	for _, w := range run.Warnings {
		warn("%s", w)
	}
	for _, w := range cols.Summary.Warnings() {
		warn("%s", w)
	}
	if n := cols.Summary.ProblemTotal(); n > 0 {
		warn("%s: %d bad line(s) skipped or read leniently; the result is best effort (repair or regenerate the log for an exact one)",
			run.EventsPath, n)
	}
	lr := &LoadedRun{Samples: &cols.Samples, Info: cols.Info, Warnings: run.Warnings, EventsSHA256: cols.EventsSHA256,
		Run: run, Counter: pc.c, Resolution: pc.res, CacheHit: hit}
	lr.Tokenizer, lr.TokenizerSource = pc.c.Identity(), pc.source
	if cols.Info.TokensRecorded {
		lr.Tokenizer = "recorded:" + cols.Info.SourceFormat
		lr.TokenizerSource = "recorded: the " + cols.Info.SourceFormat + " log's own token counts"
	}
	if o.KeepColumns {
		lr.Columns = cols
	}
	if store != nil {
		done := make(chan struct{})
		var serr error
		go func(store func() error) {
			defer close(done)
			serr = store()
		}(store)
		lr.stored = sync.OnceValue(func() error {
			<-done
			if serr != nil {
				warn("%s", serr)
			}
			return serr
		})
		store = nil // handed over
	}
	return lr, nil
}

// blankLog returns a columnar.EmptyLogError when the small log of run
// (at most 1 MiB) holds blank lines only, read with the word counter: the
// check behind an error the log's content caused (its model's tokenizer),
// when the load that would have told was cancelled by it.
func blankLog(run *columnar.Run) error {
	if fi, err := os.Stat(run.EventsPath); err != nil || fi.Size() > 1<<20 {
		return nil
	}
	cols, err := columnar.Load(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		return nil
	}
	return columnar.EmptyLoad(run.EventsPath, &cols.Summary)
}

func (l *RunLoader) beforeDecode() {
	if l.o.BeforeDecode != nil {
		l.o.BeforeDecode()
	}
}

// Counter returns the token counter of run, waiting for it, by the one
// rule of every command: none when the log records the tool's own counts
// (tokenizer.Words stands in, unused); else LoaderOptions.Counter when
// set; else --tokenizer when given; else the run's model (Model, then
// config.yaml: tokenizerModel) through the registry and the Hugging Face
// cache. A failure is a *TokenizerError.
func (l *RunLoader) Counter(run *columnar.Run) (columnar.TokenCounter, tokenizer.Resolution, error) {
	pc := l.counter(run)
	if err := pc.waitLoaded(); err != nil {
		return nil, pc.res, &TokenizerError{err}
	}
	return pc.c, pc.res, nil
}

// counter returns run's counter (Counter's rule), resolved or being
// resolved on its own goroutine; the first run of a model starts the
// resolution, later ones share it.
func (l *RunLoader) counter(run *columnar.Run) *pendingCounter {
	o := &l.o
	switch {
	case run.Format.RecordsTokens():
		// The log carries the tool's own counts; a counter would go unused.
		return resolvedCounter(tokenizer.Words{}, tokenizer.Resolution{Source: "unused: the " + string(run.Format) + " log records token counts"}, "")
	case o.Counter != nil:
		return resolvedCounter(o.Counter, tokenizer.Resolution{}, o.CounterSource)
	}
	model, key := o.Model, "--tokenizer "+o.Tokenizer // a spec decides alone
	if model == "" {
		model = tokenizerModel(run)
	}
	if o.Tokenizer == "" {
		key = "model " + model
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if pc, ok := l.counters[key]; ok {
		return pc
	}
	pc := newPendingCounter()
	l.counters[key] = pc
	resolve := func() {
		c, res, err := tokenizer.ResolveCached(o.Tokenizer, model, o.TokenizerCache)
		var source string
		if err == nil {
			source = counterSource(c, res)
		}
		pc.resolve(c, res, source, err)
	}
	if o.Tokenizer == "words" {
		// Known at once: and the decoder counts words on the escaped
		// bytes (columnar.WhitespaceWordCounter).
		resolve()
	} else {
		go resolve()
	}
	return pc
}

// pendingCounter is a token counter being resolved (a tokenizer loading
// on its own goroutine while logs are decoded): a columnar.PendingCounter,
// the decoder leaving the counts of what it decodes before it is ready
// for a second pass over those lines. It is ready in two steps: resolved
// (which counter, and its identity, all a column-cache lookup needs),
// then loaded — a tokenizer from the compiled cache builds its tables
// only when load is called (a decode), so a cache hit never pays for them.
type pendingCounter struct {
	resolved chan struct{} // closed once c, res, source and err are set
	c        columnar.TokenCounter
	res      tokenizer.Resolution
	source   string // the rows' tokenizer_source (counterSource)
	err      error

	loadOnce sync.Once
	loaded   chan struct{} // closed once c counts without building anything (or failed: loadErr)
	loadErr  error
}

// deferredLoader is a counter whose tables are built on first use or by
// Load (a *tokenizer.Tokenizer from the compiled cache).
type deferredLoader interface {
	Loaded() bool
	Load() error
}

func newPendingCounter() *pendingCounter {
	return &pendingCounter{resolved: make(chan struct{}), loaded: make(chan struct{})}
}

func resolvedCounter(c columnar.TokenCounter, res tokenizer.Resolution, source string) *pendingCounter {
	if source == "" {
		source = c.Identity()
	}
	pc := newPendingCounter()
	pc.resolve(c, res, source, nil)
	return pc
}

// resolve sets the resolution; a counter with nothing left to build (or
// none, on an error) is loaded at once.
func (pc *pendingCounter) resolve(c columnar.TokenCounter, res tokenizer.Resolution, source string, err error) {
	pc.c, pc.res, pc.source, pc.err = c, res, source, err
	if d, ok := c.(deferredLoader); err != nil || !ok || d.Loaded() {
		pc.loadOnce.Do(func() { close(pc.loaded) })
	}
	close(pc.resolved)
}

// load builds the counter's tables, once, on its own goroutine (beside the
// decode that will count with it); loaded is closed when it is done.
func (pc *pendingCounter) load() {
	pc.loadOnce.Do(func() {
		go func() {
			pc.wait()
			if d, ok := pc.c.(deferredLoader); ok && pc.err == nil {
				pc.loadErr = d.Load()
			}
			close(pc.loaded)
		}()
	})
}

// failure is the resolution's error, or, once loaded, the load's.
func (pc *pendingCounter) failure() error {
	pc.wait()
	if pc.err != nil {
		return pc.err
	}
	if closed(pc.loaded) {
		return pc.loadErr
	}
	return nil
}

// waitLoaded loads the counter (if no one has asked yet) and waits for
// it: its failure, nil when it counts.
func (pc *pendingCounter) waitLoaded() error {
	pc.load()
	<-pc.loaded
	return pc.failure()
}

func (pc *pendingCounter) done() bool { return closed(pc.resolved) }

func (pc *pendingCounter) wait() { <-pc.resolved }

// Ready reports the counter resolved and loaded (columnar.PendingCounter).
func (pc *pendingCounter) Ready() bool { return closed(pc.loaded) }

// closed reports whether ch is closed, without waiting.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func (pc *pendingCounter) Count(text string) int {
	if pc.waitLoaded() == nil {
		return pc.c.Count(text)
	}
	return 0 // the decode is being cancelled
}

// CountContext is Count through the resolved counter's CountContext when
// it has one (a tokenizer: cancellable, bounded), so columnar binds it to
// the decode's context like the tokenizer itself.
func (pc *pendingCounter) CountContext(ctx context.Context, text string) (int, error) {
	if pc.waitLoaded() != nil {
		return 0, nil // the decode is being cancelled
	}
	if cc, ok := pc.c.(interface {
		CountContext(context.Context, string) (int, error)
	}); ok {
		return cc.CountContext(ctx, text)
	}
	return pc.c.Count(text), nil
}

func (pc *pendingCounter) Identity() string {
	if pc.wait(); pc.err == nil {
		return pc.c.Identity()
	}
	return ""
}

// counterSource is the rows' tokenizer_source of a resolved counter:
// which it is, how it was chosen and the file it was read from, e.g.
// "openai/gpt-oss-120b via registry: gpt-oss → openai/gpt-oss-120b
// (/hf/…/tokenizer.json)".
func counterSource(c columnar.TokenCounter, res tokenizer.Resolution) string {
	s := c.Identity()
	if res.Source != "" {
		s += " via " + res.Source
	}
	if res.Path != "" {
		s += " (" + res.Path + ")"
	}
	return s
}

// tokenizerModel is the name a run's tokenizer is resolved by: its
// config.yaml's model_params.tokenizer_name when set (the endpoints client
// tokenizes by it), else the model name.
func tokenizerModel(run *columnar.Run) string {
	if c := run.Sidecars.Config; c != nil && c.TokenizerName != "" {
		return c.TokenizerName
	}
	return run.Info.Model
}

// Table builds the run's per-sample table (for export).
func (r *LoadedRun) Table() (*columnar.Table, error) {
	if r.Columns == nil {
		return nil, errors.New("the run's columns were not kept for export (LoaderOptions.KeepColumns)")
	}
	return r.Columns.Table(), nil
}
