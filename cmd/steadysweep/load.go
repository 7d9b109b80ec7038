package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
}

func (l *loadFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&l.tokenizer, "tokenizer", "", "tokenizer: a tokenizer.json path or directory, a Hugging Face model id in the local cache, or 'words' (default: from the run's model name)")
	fs.StringVar(&l.model, "model", "", "model name for the tokenizer registry (default: config.yaml)")
	fs.IntVar(&l.datasetSize, "dataset-size", 0, "dataset size (default: run_meta.json, then sample_idx_map.json)")
	fs.StringVar(&l.cacheDir, "cache-dir", defaultCacheDir(), "column cache directory")
	fs.BoolVar(&l.noCache, "no-cache", false, "neither read nor write the column cache")
	fs.IntVar(&l.tokenizeSample, "tokenize-sample", 0, "count tokens of at most K samples per super-pass (0 = all; marked in the output)")
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
	run       *columnar.Run
	samples   core.Samples
	info      core.RunInfo
	counter   tokenizer.Counter
	tokSource string
	cacheHit  bool
	table     *columnar.Table
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
		model = run.Info.Model
	}
	c, res, err := tokenizer.Resolve(l.tokenizer, model)
	if err != nil {
		return nil, res, usageError{fmt.Errorf("tokenizer: %w", err)}
	}
	return c, res, nil
}

func (l *loadFlags) load(ctx context.Context, run *columnar.Run, stderr io.Writer) (*loadedRun, error) {
	counter, res, err := l.counterFor(run)
	if err != nil {
		return nil, err
	}
	if l.datasetSize != 0 {
		// Before ingest: --tokenize-sample picks its samples per super-pass.
		run.Info.DatasetSize, run.Info.DatasetSizeSource = l.datasetSize, "--dataset-size"
	}
	opts := columnar.IngestOptions{Counter: counter, TokenizeSample: l.tokenizeSample}
	var (
		table *columnar.Table
		hit   bool
	)
	if l.noCache || l.cacheDir == "" {
		table, err = columnar.Ingest(ctx, run, opts)
	} else {
		cache := &columnar.Cache{Dir: l.cacheDir}
		table, hit, err = cache.Ingest(ctx, run, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("ingest %s: %w", run.EventsPath, err)
	}
	for _, w := range run.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	for _, w := range table.Summary.Warnings() {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if n := table.Summary.ProblemTotal(); n > 0 {
		fmt.Fprintf(stderr, "warning: %s: %d bad line(s) skipped or read leniently; the result is best effort (repair or regenerate the log for an exact one)\n",
			run.EventsPath, n)
	} else if table.Summary.Lines == 0 {
		fmt.Fprintf(stderr, "warning: %s: empty events file: nothing to analyse (did the run die before logging?)\n", run.EventsPath)
	}
	info := table.Info // the sidecars' facts plus what the log showed (partial, …)
	return &loadedRun{
		run: run, samples: table.Samples(), info: info, counter: counter,
		tokSource: res.Source, cacheHit: hit, table: table,
	}, nil
}
