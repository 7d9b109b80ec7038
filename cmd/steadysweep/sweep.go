package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
	"github.com/steadysweep/steadysweep/sweep"
)

// sweepFlags are the flags of `steadysweep sweep`.
type sweepFlags struct {
	loadFlags
	out           string
	gridFile      string
	sets          []string
	presets       string
	include       []string
	exclude       []string
	shard         string
	jobs          int
	resume        bool
	retryErrors   bool
	quiet         bool
	progressEvery time.Duration
	debugLog      string
	htmlPath      string
	runPages      bool
	followLinks   bool
	earliestStop  bool
}

func (f *sweepFlags) register(fs *pflag.FlagSet) {
	f.loadFlags.register(fs)
	fs.StringVarP(&f.out, "output", "o", "", "output directory (rows/ and series/ Parquet part files)")
	fs.StringVar(&f.gridFile, "grid", "", "YAML grid file: parameter → list of values (cartesian product)")
	fs.StringArrayVar(&f.sets, "set", nil, "sweep a parameter: name=v1,v2,… (list parameters: 'name=a,b;c' for [a,b] and [c], quoted: ; ends a shell command); repeatable")
	fs.StringVar(&f.presets, "preset", "default", "comma list of presets, each one config: "+strings.Join(sweep.PresetNames(), ", "))
	fs.StringArrayVar(&f.include, "include", nil, "only runs whose path relative to its root matches this glob (* within a path segment, ** across segments; without a /, any segment: '*malformed*'); repeatable")
	fs.StringArrayVar(&f.exclude, "exclude", nil, "skip runs (and directories) whose relative path matches this glob (syntax of --include); repeatable")
	fs.StringVar(&f.shard, "shard", "", "process shard i of N (i/N); /N takes i from SLURM_ARRAY_TASK_ID (mod N) or JOB_COMPLETION_INDEX; empty: a Slurm array (N from STEADYSWEEP_SHARD_COUNT, else the array's MIN..MAX span), else JOB_COMPLETION_INDEX with STEADYSWEEP_SHARD_COUNT, else unsharded")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), fmt.Sprintf("runs analysed at once (1–%d)", sweep.MaxJobs))
	fs.BoolVar(&f.followLinks, "follow-links", false, "follow symbolic links wherever they lead (default: only links resolving inside a PATH)")
	fs.BoolVar(&f.earliestStop, "earliest-stop", true, "search each row's earliest stop (an analysis per prefix of a certified run; false for wide grids: the stop_* columns stay null)")
	fs.BoolVar(&f.resume, "resume", false, "skip run × config pairs already in the output directory")
	fs.BoolVar(&f.retryErrors, "retry-errors", true, "with --resume, redo the pairs whose rows are errors (false: keep them)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress and no summary")
	fs.DurationVar(&f.progressEvery, "progress-every", 30*time.Second, "when stderr is not a terminal, a progress line this often (0: none)")
	fs.StringVar(&f.debugLog, "debug-log", "", "append panic stacks and series errors to `FILE`")
	fs.StringVar(&f.htmlPath, "html", "", "after the sweep, write an HTML page of OUT_DIR to `FILE` (as steadysweep report)")
	fs.BoolVar(&f.runPages, "run-pages", false, "write an HTML page of every run × config to OUT_DIR/pages (linked from --html)")
}

func runSweep(fs *pflag.FlagSet) commandBody {
	return new(sweepFlags).flags(fs)
}

// flags registers f's flags on fs and returns `steadysweep sweep` with
// f's fields that are no flags (loadFlags.resolve) as set.
func (f *sweepFlags) flags(fs *pflag.FlagSet) commandBody {
	f.register(fs)
	return f.run
}

// run is `steadysweep sweep` once fs has parsed f's flags.
func (f *sweepFlags) run(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
	if f.out == "" || fs.NArg() == 0 {
		fs.Usage()
		return usagef("sweep needs at least one PATH and -o OUT_DIR")
	}
	if f.jobs < 1 || f.jobs > sweep.MaxJobs {
		return usagef("--jobs %d: want 1 to %d runs at once", f.jobs, sweep.MaxJobs)
	}
	configs, presets, err := f.configs()
	if err != nil {
		return err
	}
	shard, err := sweep.ParseShard(f.shard, os.Getenv)
	if err != nil {
		return usageError{err}
	}
	found, err := corpora.DiscoverWith(ctx, fs.Args(), corpora.DiscoverOptions{Include: f.include, Exclude: f.exclude, FollowLinks: f.followLinks})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("discovery: %w; nothing was written: run the same command again", err)
	}
	if err != nil {
		return fmt.Errorf("discovery: %w", err)
	}
	for _, p := range found.Problems {
		warn(stderr, p.Error())
	}
	for _, p := range found.Unmatched {
		warn(stderr, p+" matched nothing")
	}
	runs := found.Runs
	if len(runs) == 0 {
		if why := found.FilterSummary(); why != "" {
			return fmt.Errorf("no runs found under %s: %s", strings.Join(fs.Args(), ", "), why)
		}
		return fmt.Errorf("no runs found under %s (a run is a directory holding events.jsonl[.gz|.zst] in ./ or ./client/)",
			strings.Join(fs.Args(), ", "))
	}
	if err := f.loadFlags.check(); err != nil {
		return err
	}
	opts := sweep.Options{
		Runs: runs, Configs: configs, Presets: presets, Out: f.out, Shard: shard, Jobs: f.jobs, Resume: f.resume, RetryErrors: f.retryErrors,
		Load: f.loader(), Analyze: sweep.DefaultAnalyzer, Series: sweep.DefaultSeries,
		ToolVersion: version, ToolCommit: commit,
		Progress: sweep.NewProgress(stderr, isTerminalWriter(stderr), f.quiet),
	}
	if !f.earliestStop {
		opts.Analyze = sweep.PlainAnalyzer
	}
	opts.Progress.Every = f.progressEvery
	var pages *runPages
	if f.runPages {
		pages = &runPages{dir: htmlpage.RunPagesDir(f.out)}
		if f.htmlPath != "" && f.htmlPath != "-" {
			pages.back = htmlpageLink(pages.dir, f.htmlPath)
		}
		pages.install(&opts)
	}
	// The output directory first: the debug log lives in it in the
	// cluster recipes, and a fresh one does not exist yet.
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	if f.debugLog != "" {
		dl, err := openDebugLog(f.debugLog)
		if err != nil {
			return fmt.Errorf("--debug-log: %w", err)
		}
		defer dl.Close()
		opts.Debug = dl
	}
	sum, err := sweep.Run(ctx, opts)
	for _, w := range sum.Warnings {
		warn(stderr, w)
	}
	if errors.Is(err, context.Canceled) {
		// What was published stays; the same command with --resume
		// analyses only the pairs missing.
		return fmt.Errorf("%w; rows written so far are kept: run the same command with --resume to continue", err)
	}
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	if pages != nil {
		pages.report(stderr)
	}
	if f.htmlPath != "" {
		if err := writeSweepPage(ctx, f.out, f.htmlPath, stdout); err != nil {
			return fmt.Errorf("--html: %w", err)
		}
		if f.htmlPath != "-" && !f.quiet {
			fmt.Fprintf(stderr, "wrote %s\n", f.htmlPath)
		}
	}
	if s := discoverySummary(found); s != "" {
		fmt.Fprintf(stderr, "%s\n", s)
	}
	if !f.quiet {
		if _, err := fmt.Fprintf(stdout, "rows written under %s/rows (series under %s/series)\n", f.out, f.out); err != nil {
			return fmt.Errorf("write the summary: %w", err)
		}
	}
	return sweepOutcome(sum)
}

// sweepOutcome is the sweep's exit status as an error (nil: every run
// analysed), its message the summary exitCode prints even under -q:
// exit 1 when every row the sweep wrote is an error row (nothing could be
// analysed), exit 3 (partialError) when only some runs failed.
func sweepOutcome(sum sweep.Summary) error {
	if sum.ErrorRuns == 0 {
		return nil
	}
	first := ""
	if len(sum.Failures) > 0 {
		first = fmt.Sprintf(" (first: %s: %s)", sum.Failures[0].Run, sum.Failures[0].Reason)
	}
	if errs := sum.RowsByStatus[sweep.StatusError]; errs == sum.Rows && sum.Skipped == 0 {
		return fmt.Errorf("nothing could be analysed: %s failed, every row an error%s", plural(sum.ErrorRuns, "run"), first)
	}
	return partialError{fmt.Sprintf("%d of %s failed (their rows have status error)%s", sum.ErrorRuns, plural(sum.Runs, "run"), first)}
}

// configs expands --preset, --grid and --set into parameter sets and the
// preset each came from.
func (f *sweepFlags) configs() ([]core.Params, []string, error) {
	var grid sweep.Grid
	if f.gridFile != "" {
		data, err := safeopen.ReadFile(f.gridFile, "--grid files", safeopen.LimitGrid)
		if err != nil {
			return nil, nil, usageError{fmt.Errorf("--grid: %w", err)}
		}
		if grid, err = sweep.ParseGrid(data); err != nil {
			return nil, nil, usageError{fmt.Errorf("--grid %s: %w", f.gridFile, err)}
		}
	}
	configs, presets, err := grid.NamedConfigs(strings.Split(f.presets, ","), f.sets)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return configs, presets, nil
}

// loader reads runs for the sweep (sweep.DefaultLoader): one token
// counter for every run when --tokenizer is given, else each run's own,
// resolved from its model name and shared between runs of that model.
// Warnings are not printed (a sweep's rows carry what matters).
func (f *sweepFlags) loader() sweep.Loader {
	return sweep.DefaultLoader(f.loadFlags.options(nil))
}

// openDebugLog opens the --debug-log file for appending (a log grows; it
// is not an output the atomic writer replaces), refusing a symbolic link
// at its name (O_NOFOLLOW) and anything but a regular file (a FIFO is
// opened without blocking, then refused).
func openDebugLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY|noFollowNonblock, 0o644)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s is not a regular file", path)
		}
		return nil, err
	}
	return f, nil
}

// discoverySummary names, at the end of a sweep, what discovery could not
// search (also warned about at its start, where a long sweep scrolls it
// away): "" when nothing.
func discoverySummary(d corpora.Discovery) string {
	var parts []string
	if n := len(d.Unreadable); n > 0 {
		parts = append(parts, fmt.Sprintf("%d unreadable director(ies) not searched (%s)", n, firstNames(d.Unreadable)))
	}
	if n := len(d.Outside); n > 0 {
		parts = append(parts, fmt.Sprintf("%d link(s) leading outside the PATHs not followed (%s; --follow-links follows them)", n, firstNames(d.Outside)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "discovery: " + strings.Join(parts, "; ")
}

// firstNames quotes up to 3 paths (names are data: %q keeps one line).
func firstNames(paths []string) string {
	var q []string
	for i, p := range paths {
		if i == 3 {
			q = append(q, fmt.Sprintf("… %d more", len(paths)-3))
			break
		}
		q = append(q, strconv.Quote(p))
	}
	return strings.Join(q, ", ")
}
