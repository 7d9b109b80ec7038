package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
)

// loadFlags are the flags shared by every command that reads runs: how to
// count tokens, where the column cache lives, and overrides of what the
// sidecars say.
type loadFlags struct {
	tokenizer      string
	model          string
	datasetSize    int
	cacheDir       string
	noCache        bool
	tokenizeSample int
	// superpassSize is the command's --superpass-size (0 when it has
	// none): --tokenize-sample's fallback when the dataset size is unknown.
	superpassSize int
	// keepTable keeps what only loadedRun.table reads (the uuids and text
	// lengths: 24 bytes a sample) for a command that exports the columns;
	// the others let them go once the run is loaded.
	keepTable bool
}

func (l *loadFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&l.tokenizer, "tokenizer", "", "tokenizer: a tokenizer.json path or directory, a Hugging Face model id in the local cache, or 'words' (default: from the run's model name)")
	fs.StringVar(&l.model, "model", "", "model name for the tokenizer registry (default: config.yaml)")
	fs.IntVar(&l.datasetSize, "dataset-size", 0, "dataset size (default: run_meta.json, then sample_idx_map.json)")
	fs.StringVar(&l.cacheDir, "cache-dir", defaultCacheDir(), "column cache directory")
	fs.BoolVar(&l.noCache, "no-cache", false, "neither read nor write the column cache (nor the compiled tokenizers)")
	fs.IntVar(&l.tokenizeSample, "tokenize-sample", 0, "count tokens of at most K samples per super-pass (0 = all; marked in the output)")
}

// tokenizerCache is the directory of compiled tokenizers (under the
// column cache's; none with --no-cache).
func (l *loadFlags) tokenizerCache() string {
	if l.noCache {
		return ""
	}
	return l.cacheDir
}

func defaultCacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "steadysweep")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "steadysweep")
	}
	return ""
}

// loadedRun is a run ready for the detector.
type loadedRun struct {
	run      *columnar.Run
	samples  core.Samples
	info     core.RunInfo
	counter  tokenizer.Counter
	tokRes   tokenizer.Resolution
	cacheHit bool
	cols     *columnar.Loaded // nil unless loadFlags.keepTable
}

// table builds the run's Arrow table (for export; Release it when done).
func (l *loadedRun) table() (*columnar.Table, error) {
	if l.cols == nil {
		return nil, errors.New("the run's columns were not kept for export (loadFlags.keepTable)")
	}
	return l.cols.Table(nil)
}

// counterFor resolves the token counter for run: --tokenizer, else the
// model name (flag, then config.yaml) through the registry.
func (l *loadFlags) counterFor(run *columnar.Run) (tokenizer.Counter, tokenizer.Resolution, error) {
	if run.Format.RecordsTokens() {
		// The log carries the tool's own counts; a counter would go unused.
		return tokenizer.Words{}, tokenizer.Resolution{Source: "unused: the " + string(run.Format) + " log records token counts"}, nil
	}
	model := l.model
	if model == "" {
		model = tokenizerModel(run)
	}
	c, res, err := tokenizer.ResolveCached(l.tokenizer, model, l.tokenizerCache())
	if err != nil {
		return nil, res, usageError{err} // one line, "tokenizer: …" (tokenizer.Resolve)
	}
	return c, res, nil
}

// loadingCounter is a tokenizer being loaded on its own goroutine while
// the log is decoded (columnar.PendingCounter): the decoder leaves the
// counts of what it decodes before the tokenizer is ready for a second
// pass over those lines.
type loadingCounter struct {
	ready chan struct{}
	c     tokenizer.Counter
	res   tokenizer.Resolution
	err   error
}

func (l *loadFlags) startCounter(run *columnar.Run, cancel context.CancelFunc) *loadingCounter {
	lc := &loadingCounter{ready: make(chan struct{})}
	go func() {
		defer close(lc.ready)
		lc.c, lc.res, lc.err = l.counterFor(run)
		if lc.err != nil {
			cancel() // the decode is of no use without its counter
		}
	}()
	return lc
}

func (lc *loadingCounter) Ready() bool {
	select {
	case <-lc.ready:
		return true
	default:
		return false
	}
}

// wait returns the loaded counter.
func (lc *loadingCounter) wait() (tokenizer.Counter, error) { <-lc.ready; return lc.c, lc.err }

func (lc *loadingCounter) Count(text string) int {
	if c, err := lc.wait(); err == nil {
		return c.Count(text)
	}
	return 0 // the decode is being cancelled
}

// CountContext is Count through the loaded counter's CountContext when it
// has one (a tokenizer: cancellable, bounded), so columnar binds it to the
// decode's context like the tokenizer itself.
func (lc *loadingCounter) CountContext(ctx context.Context, text string) (int, error) {
	c, err := lc.wait()
	if err != nil {
		return 0, nil // the decode is being cancelled
	}
	if cc, ok := c.(interface {
		CountContext(context.Context, string) (int, error)
	}); ok {
		return cc.CountContext(ctx, text)
	}
	return c.Count(text), nil
}

func (lc *loadingCounter) Identity() string {
	if c, err := lc.wait(); err == nil {
		return c.Identity()
	}
	return ""
}

// loadGCPercent is the collector's target while a command decodes one
// run and holds it: the live heap is the run's columns (pointer-free, so
// cheap to mark), and the default 100 % headroom would double the
// process's peak for nothing. 10 rather than 20 took 2–5 MB off the 1 GB
// log's peak (~45 MB live) at no measurable CPU (cold analyze, the 183 MB
// and 1 GB logs).
const loadGCPercent = 10

// decodeGC sets loadGCPercent (unless GOGC says otherwise) before a
// decode. Only then: on a cache hit the columns arrive in one read, and
// a target this low of the small heap before it would collect at once,
// leaving freed pages below the fresh ones that the entry's buffer then
// spans and the runtime zeroes page by page (a fault per 4 KiB, where a
// fresh buffer is read into huge pages: safeopen.HugeRoom).
func decodeGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(loadGCPercent)
	}
}

// counterSource is the rows' tokenizer_source of a resolved counter:
// which it is, how it was chosen and the file it was read from, e.g.
// "openai/gpt-oss-120b via registry: gpt-oss → openai/gpt-oss-120b
// (/hf/…/tokenizer.json)".
func counterSource(c tokenizer.Counter, res tokenizer.Resolution) string {
	s := c.Identity()
	if res.Source != "" {
		s += " via " + res.Source
	}
	if res.Path != "" {
		s += " (" + res.Path + ")"
	}
	return s
}

func (l *loadFlags) load(ctx context.Context, run *columnar.Run, stderr io.Writer) (*loadedRun, error) {
	if l.datasetSize != 0 {
		// Before ingest: --tokenize-sample picks its samples per super-pass.
		run.Info.DatasetSize, run.Info.DatasetSizeSource = l.datasetSize, "--dataset-size"
		if w := columnar.SmallSuperpassWarning(l.datasetSize, "--dataset-size"); w != "" {
			warn(stderr, w)
		}
	}
	opts := columnar.IngestOptions{TokenizeSample: l.tokenizeSample, SuperPassSize: l.superpassSize}
	if l.tokenizeSample > 0 && run.Info.DatasetSize <= 0 {
		if l.superpassSize > 0 {
			fmt.Fprintf(stderr, "warning: %s: --tokenize-sample %d: the dataset size is unknown; sampling per super-pass of --superpass-size %d samples\n",
				run.EventsPath, l.tokenizeSample, l.superpassSize)
		} else {
			fmt.Fprintf(stderr, "warning: %s: --tokenize-sample %d ignored: neither the dataset size nor --superpass-size is known, so every sample's tokens are counted (pass --dataset-size or --superpass-size)\n",
				run.EventsPath, l.tokenizeSample)
		}
	}
	var (
		counter tokenizer.Counter
		res     tokenizer.Resolution
		lc      *loadingCounter
		err     error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if l.tokenizer == "words" {
		// Known at once: and the decoder counts words on the escaped bytes.
		counter, res, err = l.counterFor(run)
		opts.Counter = counter
	} else {
		lc = l.startCounter(run, cancel)
		opts.Counter = lc
	}
	var (
		cols *columnar.Loaded
		hit  bool
	)
	if l.noCache || l.cacheDir == "" {
		decodeGC()
		cols, err = columnar.Load(ctx, run, opts)
	} else {
		cache := &columnar.Cache{Dir: l.cacheDir}
		if cols, hit = cache.Lookup(run, opts); !hit {
			decodeGC()
			cols, err = cache.Fill(ctx, run, opts)
		}
	}
	if lc != nil {
		var cerr error
		if counter, cerr = lc.wait(); cerr != nil {
			return nil, cerr
		}
		res = lc.res
	}
	if err != nil {
		return nil, ingestError(run.EventsPath, err)
	}
	for _, w := range run.Warnings {
		warn(stderr, w)
	}
	for _, w := range cols.Summary.Warnings() {
		warn(stderr, w)
	}
	if n := cols.Summary.ProblemTotal(); n > 0 {
		warn(stderr, fmt.Sprintf("%s: %d bad line(s) skipped or read leniently; the result is best effort (repair or regenerate the log for an exact one)",
			run.EventsPath, n))
	} else if cols.Summary.Lines == 0 {
		warn(stderr, run.EventsPath+": empty events file: nothing to analyse (did the run die before logging?)")
	}
	lr := &loadedRun{
		run: run, samples: cols.Samples, info: cols.Info, counter: counter,
		tokRes: res, cacheHit: hit,
	}
	if l.keepTable {
		lr.cols = cols
	}
	return lr, nil
}

// ingestError names the file an ingest error is about once: a reader's
// error that starts with the path already keeps it ("ingest FILE: FILE:
// no benchmark 1" said it twice).
func ingestError(path string, err error) error {
	if strings.HasPrefix(err.Error(), path+":") {
		return fmt.Errorf("ingest %w", err)
	}
	return fmt.Errorf("ingest %s: %w", path, err)
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
