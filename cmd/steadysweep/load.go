package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/sweep"
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
	// keepTable keeps what only sweep.LoadedRun.Table reads (the uuids
	// and text lengths: 24 bytes a sample) for a command that exports the
	// columns; the others let them go once the run is loaded.
	keepTable bool
	// storeLater writes a decoded run's cache entry while the command
	// analyses it (sweep.LoaderOptions.StoreLater); the command waits
	// for it before it exits (sweep.LoadedRun.WaitStored).
	storeLater bool
	// resolve replaces columnar.ResolveRun (nil: it): a test counts the
	// resolutions of a sweep through it.
	resolve func(ctx context.Context, path string) (*columnar.Run, error)
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

// defaultCacheDir is --cache-dir's default: the one rule,
// columnar.DefaultCacheDir ("" when the user has no cache directory: no
// column cache, no compiled tokenizers).
func defaultCacheDir() string { return columnar.DefaultCacheDir() }

// check refuses what no loader can use.
func (l *loadFlags) check() error {
	if l.datasetSize < 0 {
		return usagef("--dataset-size: %d is negative", l.datasetSize)
	}
	return nil
}

// options are the flags as sweep.LoaderOptions, warnings written to warn
// ("warning: …" lines; nil drops them).
func (l *loadFlags) options(warn io.Writer) sweep.LoaderOptions {
	o := sweep.LoaderOptions{Tokenizer: l.tokenizer, Model: l.model, TokenizerCache: l.tokenizerCache(),
		TokenizeSample: l.tokenizeSample, SuperPassSize: l.superpassSize, DatasetSize: l.datasetSize,
		KeepColumns: l.keepTable, StoreLater: l.storeLater, Resolve: l.resolve}
	if !l.noCache && l.cacheDir != "" {
		o.Cache = &columnar.Cache{Dir: l.cacheDir}
	}
	if warn != nil {
		o.Warn = func(w string) { fmt.Fprintf(warn, "warning: %s\n", oneLine(w)) } // names are data: one line
	}
	return o
}

// loader is the RunLoader of a command that reads one run at a time
// (analyze, compare, ingest): every decode goroutine, and the collector's
// target lowered before a decode (decodeGC).
func (l *loadFlags) loader(warn io.Writer) *sweep.RunLoader {
	o := l.options(warn)
	o.BeforeDecode = decodeGC
	return sweep.NewRunLoader(o)
}

// loadError is a load's error for the CLI: a counter that could not be
// resolved is the command line's to fix (--tokenizer, --model: exit 2).
func loadError(err error) error {
	var te *sweep.TokenizerError
	if errors.As(err, &te) {
		return usageError{err}
	}
	return err
}

// loadGCPercent is the headroom over the live heap, in percent, while a
// command decodes one run and holds it: the live heap is the run's columns
// (pointer-free, so cheap to mark), and the default 100 % headroom would
// double the process's peak for nothing. 10 rather than 20 took 2–5 MB off
// the 1 GB log's peak (~45 MB live) at no measurable CPU (cold analyze,
// the 183 MB and 1 GB logs).
const loadGCPercent = 10

// loadFloor is the Go memory below which a decode does not collect
// (loadLimit). GOGC=10 alone put the runtime's smallest goal at 0.4 MiB
// (its 4 MiB minimum × 10 %), so a decode's growing columns started a
// collection every ~10 % of growth from the first block on: on the 185 MB
// streamed log, cold analyze took 0.14–0.17 s with it and 0.12–0.15 s
// without, 1100–3650 page faults against 855, and a lower peak RSS
// without (21.8 against 22.2 MB), idle 2-core machine, interleaved. That
// log's decode holds ~16 MB of heap at its peak (its columns, sized ahead
// from the file): a 24 MiB floor (the limit counts stacks and metadata
// too) still collected there twice. 32 MiB does not, and keeps the
// process's peak near the reference's 36 MiB on that log even for a
// decode that makes garbage (off-heap buffers and the binary come on top).
const loadFloor = 32 << 20

// decodeGC makes the collector follow loadLimit (unless GOGC or
// GOMEMLIMIT says otherwise) before a decode. Only then: on a cache hit
// the columns arrive in one read, and a target this low of the small heap
// before it would collect at once, leaving freed pages below the fresh
// ones that the entry's buffer then spans and the runtime zeroes page by
// page (a fault per 4 KiB, where a fresh buffer is read into huge pages:
// safeopen.HugeRoom).
func decodeGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		setDecodeGCPercent(-1)
		loadLimit()
	}
}

// loadLimit sets the memory limit to loadGCPercent over the live heap
// left by the last collection, and at least loadFloor (the collector's
// goal as GOGC=10 would set it, without its 0.4 MiB minimum), and again at
// the end of the next collection (a cleanup re-armed each time): the limit
// follows the live heap up as a large log's columns grow, so a 1 GB log
// collects as it did and never against a limit below what it holds.
//
// The heap is read with runtime.ReadMemStats, not runtime/metrics: that
// package's initialisation (the descriptions of every GODEBUG counter,
// 95 allocations) ran in every process, --version included, and was its
// costliest init (0.7 ms of ~2.3 ms, GODEBUG=inittrace=1). Run from the
// cleanup just after a collection, HeapAlloc is the live heap plus what
// was allocated since, a little above it.
func loadLimit() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	live := m.HeapAlloc
	// The limit counts the runtime's memory but what it has released, so
	// what is not heap objects (stacks, metadata, free spans) comes on top
	// of the goal.
	other := m.Sys - min(m.Sys, m.HeapAlloc+m.HeapReleased)
	debug.SetMemoryLimit(int64(max(loadFloor, live+live*loadGCPercent/100+other)))
	atFirstGC(loadLimit)
}
