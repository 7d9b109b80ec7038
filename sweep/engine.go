package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
	"golang.org/x/sync/errgroup"
)

// Options configure a sweep.
type Options struct {
	// Runs are the runs to sweep (corpora.Discover); those Shard does not
	// own are ignored.
	Runs []corpora.RunRef
	// Configs are the parameter sets (Grid.Configs); at least one.
	Configs []core.Params
	// Presets, if set, name the preset each config was built from
	// (parallel to Configs; Grid.NamedConfigs): the rows' preset column.
	Presets []string
	// Out is the output directory: rows go to Out/rows, series to
	// Out/series (package sinks).
	Out string
	// Shard selects this process's runs and names its part files.
	Shard Shard
	// Jobs is the number of runs processed at once, and so the number of
	// runs held in memory (default GOMAXPROCS).
	Jobs int
	// Resume skips run × parameter pairs whose row is already in
	// Out/rows with the same events hash, config_id and schema_version.
	// Without it, Out/rows must hold no part files of this shard.
	Resume bool
	// RetryErrors, with Resume, redoes the run × parameter pairs whose
	// row has status "error" (a missing tokenizer since installed, a run
	// since repaired): their rows are taken out of the part files this
	// process may rewrite (its shard's; any when unsharded) and the pairs
	// analysed again. Error rows in other shards' files are kept.
	RetryErrors bool

	// Load reads a run; Analyze analyses it under one parameter set
	// (DefaultLoader / DefaultAnalyzer plug in columnar and core).
	Load    Loader
	Analyze Analyzer
	// Series, if set, fills the Out/series table once per run.
	Series SeriesFunc
	// AfterRun, if set, is called once a loaded run's rows (and series)
	// are computed, before the run is let go, outside the timed load and
	// analysis, with the run's successful analyses in config order (cmd's
	// --run-pages renders their results there, so writing pages never
	// counts in analysis_ns). The results are kept until then only when
	// AfterRun is set. A panic in it is logged to Debug; the run's rows
	// stand.
	AfterRun func(ref corpora.RunRef, run *LoadedRun, analyses []Analysis)

	// ToolVersion and ToolCommit are written into every row.
	ToolVersion, ToolCommit string
	// Progress reports progress (nil: silent).
	Progress *Progress
	// Debug receives panic stacks and series errors (nil: discarded).
	Debug io.Writer
	// RowsPerGroup, RowsPerFile and MaxFileAge tune the writers (see
	// sinks.WriterOptions).
	RowsPerGroup int
	RowsPerFile  int
	MaxFileAge   time.Duration
}

// MaxJobs caps Options.Jobs: each job holds a run in memory, and the
// results channel has a slot per job (a billion jobs asked for 64 GB).
const MaxJobs = 1024

// Summary reports what a sweep did.
type Summary struct {
	// Runs is the number of runs this shard owns; Configs the number of
	// parameter sets.
	Runs, Configs int
	// Analysed runs had rows written; Skipped runs had every row already
	// (resume); Abandoned runs were cut short by cancellation (no rows).
	Analysed, Skipped, Abandoned int
	// Rows is the number of rows written, RowsByStatus by status column.
	Rows         int
	RowsByStatus map[string]int
	// RowsByVerdict counts the rows by verdict column ("" uncounted): a
	// windowable row may still be drifting or an anomaly, which the
	// status counts alone would hide.
	RowsByVerdict map[string]int
	// ErrorRuns is the number of runs with at least one error row;
	// Failures names the first maxFailures of them, with a reason.
	ErrorRuns int
	Failures  []RunFailure
	// Retried is the number of error rows taken out to be redone
	// (RetryErrors); RetryKept those left because another shard's part
	// files hold them.
	Retried, RetryKept int
	// Upgraded is the number of rows of an older schema version taken out
	// to be redone under this one (resume); UpgradeKept those left: rows
	// of runs or configs outside this sweep, or in other shards' files.
	Upgraded, UpgradeKept int
	// Superseded is the number of rows of logs that changed since they
	// were written, dropped once this sweep wrote the new rows (resume);
	// SupersededKept those left in other shards' part files.
	Superseded, SupersededKept int
	SeriesRows                 int
	// WarnedRuns is the number of analysed runs whose loader ignored one
	// of their files (a FIFO config.yaml, malformed or unreadable
	// sidecars: LoadedRun.Warnings); Warned names the first maxFailures,
	// each with its first warning (warnings.go).
	WarnedRuns int
	Warned     []RunFailure
	// Bytes is the size of the events files of the analysed runs.
	Bytes int64
	// Files are the part files published by this sweep.
	Files   []string
	Elapsed time.Duration
	// Warnings are problems that did not stop the sweep (an output
	// directory that could not be locked).
	Warnings []string
	// Peers compare our windows with the recording tools' own, per
	// parameter set (PeerLines).
	Peers []PeerTally
}

// RunFailure is a run that got error rows, and the first one's reason.
type RunFailure struct{ Run, Reason string }

// maxFailures is how many failed runs a Summary names.
const maxFailures = 10

// String is the one-line final report.
func (s Summary) String() string {
	var st []string
	for _, k := range slices.Sorted(maps.Keys(s.RowsByStatus)) {
		name := k
		if name == "" {
			name = "no status" // reference-compat outcomes carry none
		}
		st = append(st, fmt.Sprintf("%s %d", name, s.RowsByStatus[k]))
	}
	var vs []string
	for _, k := range slices.Sorted(maps.Keys(s.RowsByVerdict)) {
		if k != "" {
			vs = append(vs, fmt.Sprintf("%s %d", k, s.RowsByVerdict[k]))
		}
	}
	line := fmt.Sprintf("%s × %s: %s", sinks.Count(s.Runs, "run"), sinks.Count(s.Configs, "config"), sinks.Count(s.Rows, "row"))
	if len(st) > 0 {
		line += " (" + strings.Join(st, ", ") + ")"
	}
	if len(vs) > 0 {
		line += ", verdicts (" + strings.Join(vs, ", ") + ")"
	}
	line += fmt.Sprintf("; %d analysed, %d skipped", s.Analysed, s.Skipped)
	if s.Abandoned > 0 {
		line += fmt.Sprintf(", %d abandoned", s.Abandoned)
	}
	if s.ErrorRuns > 0 {
		line += fmt.Sprintf(", %d with errors", s.ErrorRuns)
	}
	if s.Retried > 0 {
		line += fmt.Sprintf(", %d error rows redone", s.Retried)
	}
	if s.Superseded > 0 {
		line += fmt.Sprintf(", %s of changed logs replaced", sinks.Count(s.Superseded, "row"))
	}
	if s.SupersededKept > 0 {
		line += fmt.Sprintf(", %s of changed logs kept in other shards' files", sinks.Count(s.SupersededKept, "row"))
	}
	line += fmt.Sprintf("; %d files; %s", len(s.Files), s.Elapsed.Round(time.Millisecond))
	if secs := s.Elapsed.Seconds(); secs > 0 && s.Bytes > 0 {
		line += fmt.Sprintf(", %.1f MB/s", float64(s.Bytes)/1e6/secs)
	}
	return line
}

// FailureLines names the runs that failed and why, the first
// maxFailures of them; none when no run failed.
func (s Summary) FailureLines() []string {
	return countedRuns(s.ErrorRuns, "failed", s.Failures)
}

// countedRuns is namedRuns under the head "N runs what:", which says "the
// first len(rs)" when rs holds fewer than all total runs; none when total
// is 0.
func countedRuns(total int, what string, rs []RunFailure) []string {
	if total == 0 {
		return nil
	}
	head := sinks.Count(total, "run") + " " + what + ":"
	if total > len(rs) {
		head = fmt.Sprintf("%d runs %s; the first %d:", total, what, len(rs))
	}
	return namedRuns(head, rs)
}

// namedRuns is head, then a line per reason of rs naming its runs, by
// run name (workers finish in any order, the listing should not): runs
// that failed alike (ten runs of one model whose tokenizer is missing)
// share one line, "  3 runs (a, b, c): reason", rather than repeating a
// long reason; names are data: escaped, a line per reason.
func namedRuns(head string, rs []RunFailure) []string {
	lines := []string{head}
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b RunFailure) int { return strings.Compare(a.Run, b.Run) })
	var reasons []string
	byReason := map[string][]string{}
	for _, r := range rs {
		if _, ok := byReason[r.Reason]; !ok {
			reasons = append(reasons, r.Reason)
		}
		byReason[r.Reason] = append(byReason[r.Reason], sinks.OneLine(r.Run))
	}
	for _, reason := range reasons {
		names := byReason[reason]
		who := names[0]
		if len(names) > 1 {
			who = sinks.Count(len(names), "run") + " (" + strings.Join(names, ", ") + ")"
		}
		lines = append(lines, "  "+who+": "+sinks.OneLine(reason))
	}
	return lines
}

// tableSink is what the sweep needs of a table writer (sinks.RowWriter,
// sinks.SeriesWriter). One goroutine owns it.
type tableSink[T any] interface {
	Write([]T) error
	Close() error
	Files() []string
}

// The sinks' constructors; tests swap them to inject write failures.
var (
	newRowSink    = func(o sinks.WriterOptions) (tableSink[sinks.Row], error) { return sinks.NewRowWriter(o) }
	newSeriesSink = func(o sinks.WriterOptions) (tableSink[sinks.SeriesRow], error) { return sinks.NewSeriesWriter(o) }
)

// runResult is what a worker hands the writer for one run.
type runResult struct {
	rows      []sinks.Row
	series    []sinks.SeriesRow
	bytes     int64
	skipped   bool
	abandoned bool
	stale     staleOutput // written rows and series this run's output supersedes (supersede.go)
	warnings  []string    // the loader's warnings: files of the run it ignored
}

type engine struct {
	o          Options
	ids        []string // config ids, parallel to o.Configs
	labels     []string // config labels, parallel to o.Configs
	done       map[sinks.Key]struct{}
	seriesDone map[sinks.SeriesKey]struct{}
	resumed    resumedRuns  // run ids in done or seriesDone (provenance.go)
	written    writtenIndex // done and seriesDone by run, with their part files (supersede.go)
	stale      staleSet     // superseded rows found so far; the writer goroutine's
	debug      *debugLog
	locked     bool // the output directory is locked (lock.go): stale temporaries may go
}

// Run sweeps o.Runs × o.Configs and writes the rows. Jobs workers each
// load one run at a time and analyse it under every parameter set; a
// single goroutine writes. A run that cannot be read, or whose analysis
// fails or panics, becomes rows with status "error" and a reason.
//
// Cancelling ctx stops the sweep cleanly: runs already analysed are
// written, runs in flight are abandoned (written by a later Resume), the
// open part files are finished, and Run returns the Summary with an
// error wrapping ctx's error. Other errors (output directory, writing)
// stop the sweep and are returned.
func Run(ctx context.Context, o Options) (Summary, error) {
	start := time.Now()
	sum := Summary{Configs: len(o.Configs), RowsByStatus: map[string]int{}}
	e, err := newEngine(o)
	if err != nil {
		return sum, err
	}
	runs := e.ownedRuns()
	sum.Runs = len(runs)
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return sum, fmt.Errorf("create output directory: %w", err)
	}
	lock, err := lockOutput(o.Out, o.Shard)
	if err != nil {
		return sum, err
	}
	defer lock.release()
	if lock.unsupported != "" {
		sum.Warnings = append(sum.Warnings, lock.unsupported)
	}
	e.locked = lock.unsupported == ""
	out, err := e.openOutputs(ctx, runs, &sum)
	if err != nil {
		return sum, err
	}
	e.o.Progress.start(len(runs), len(e.o.Configs))
	werr := e.analyzeAll(ctx, runs, out, &sum)
	werr = errors.Join(werr, out.close(&sum))
	if werr == nil && ctx.Err() == nil {
		if err := e.dropSuperseded(ctx, &e.stale, &sum); err != nil {
			werr = fmt.Errorf("drop rows of changed logs: %w", err)
		}
	}
	sum.Abandoned = sum.Runs - sum.Analysed - sum.Skipped
	sum.Elapsed = time.Since(start)
	e.o.Progress.finish(sum)
	if werr != nil {
		return sum, fmt.Errorf("write results: %w", werr)
	}
	if err := ctx.Err(); err != nil && sum.Abandoned > 0 {
		return sum, fmt.Errorf("sweep interrupted after %d of %d runs: %w", sum.Analysed+sum.Skipped, sum.Runs, context.Cause(ctx))
	}
	return sum, nil
}

// newEngine checks the options, fills their defaults and computes the
// config ids.
func newEngine(o Options) (*engine, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if o.Jobs <= 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	o.Jobs = min(o.Jobs, MaxJobs)
	debug := o.Debug
	if debug == nil {
		debug = io.Discard
	}
	e := &engine{o: o, debug: &debugLog{w: debug}}
	e.ids, e.labels = sinks.ConfigIDsAndLabels(o.Configs)
	return e, nil
}

// ownedRuns are the runs of this shard.
func (e *engine) ownedRuns() []corpora.RunRef {
	var runs []corpora.RunRef
	for _, r := range e.o.Runs {
		if e.o.Shard.Owns(r) {
			runs = append(runs, r)
		}
	}
	return runs
}

// outputs are the table writers of a sweep.
type outputs struct {
	rows   tableSink[sinks.Row]
	series tableSink[sinks.SeriesRow] // nil without a series function
}

// openOutputs prepares the rows and series directories, reads what a
// resumed sweep has written already (taking out the error rows of runs to
// retry, counted in sum) and opens the writers.
func (e *engine) openOutputs(ctx context.Context, runs []corpora.RunRef, sum *Summary) (*outputs, error) {
	o := e.o
	rowsDir, seriesDir := filepath.Join(o.Out, "rows"), filepath.Join(o.Out, "series")
	if err := prepareTable(rowsDir, o.Shard, o.Resume, e.locked); err != nil {
		return nil, err
	}
	if err := prepareTable(seriesDir, o.Shard, o.Resume, e.locked); err != nil {
		return nil, err
	}
	if o.Resume {
		states, err := sinks.ReadRowStates(ctx, rowsDir)
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		series, err := sinks.ReadSeriesFiles(ctx, seriesDir)
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		if err := e.upgradeSchema(ctx, states, series, runs, sum); err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		if o.RetryErrors {
			if sum.Retried, sum.RetryKept, err = e.takeOutErrors(ctx, states, runs); err != nil {
				return nil, fmt.Errorf("resume: redo error rows: %w", err)
			}
			o.Progress.retrying(sum.Retried, sum.RetryKept)
		}
		e.done = make(map[sinks.Key]struct{}, len(states))
		for k := range states {
			e.done[k] = struct{}{}
		}
		e.seriesDone = make(map[sinks.SeriesKey]struct{}, len(series))
		for k := range series {
			e.seriesDone[k] = struct{}{}
		}
		e.written = indexWritten(states, series)
	}
	wopts := sinks.WriterOptions{Dir: rowsDir, Shard: o.Shard.String(), RowsPerGroup: o.RowsPerGroup,
		RowsPerFile: o.RowsPerFile, MaxFileAge: o.MaxFileAge}
	rw, err := newRowSink(wopts)
	if err != nil {
		return nil, err
	}
	out := &outputs{rows: rw}
	if o.Series != nil {
		wopts.Dir = seriesDir
		if out.series, err = newSeriesSink(wopts); err != nil {
			return nil, errors.Join(err, rw.Close())
		}
	}
	return out, nil
}

// close finishes the writers and lists their files in sum.
func (out *outputs) close(sum *Summary) error {
	err := out.rows.Close()
	sum.Files = append(sum.Files, out.rows.Files()...)
	if out.series != nil {
		err = errors.Join(err, out.series.Close())
		sum.Files = append(sum.Files, out.series.Files()...)
	}
	return err
}

// analyzeAll feeds the runs to Jobs workers, each loading one run at a
// time and analysing it under every parameter set, and writes their
// results from this goroutine, counting them in sum. A write error
// cancels the workers and is returned.
func (e *engine) analyzeAll(ctx context.Context, runs []corpora.RunRef, out *outputs, sum *Summary) error {
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	results := make(chan runResult, e.o.Jobs)
	work := make(chan corpora.RunRef)
	// Loading is IO- and CPU-bound, analysis CPU-bound: one run per
	// core, and at most Jobs runs in memory (plus the rows in results).
	var g errgroup.Group
	g.Go(func() error {
		defer close(work)
		for _, r := range runs {
			select {
			case work <- r:
			case <-wctx.Done():
				return nil
			}
		}
		return nil
	})
	var workers sync.WaitGroup
	for range e.o.Jobs {
		workers.Add(1)
		g.Go(func() error {
			defer workers.Done()
			for r := range work {
				results <- e.safeProcess(wctx, r) // the writer drains results to the end
			}
			return nil
		})
	}
	go func() { workers.Wait(); close(results) }()

	var werr error
	for res := range results {
		if werr != nil {
			continue
		}
		if werr = e.write(res, out.rows, out.series, sum); werr != nil {
			cancel(werr)
		}
		e.o.Progress.update(sum)
	}
	_ = g.Wait() // workers return nil; panics are recovered per run
	return werr
}

func (o *Options) check() error {
	var errs []error
	if len(o.Configs) == 0 {
		errs = append(errs, errors.New("no parameter sets"))
	}
	if o.Out == "" {
		errs = append(errs, errors.New("no output directory"))
	}
	if o.Load == nil || o.Analyze == nil {
		errs = append(errs, errors.New("Load and Analyze must be set"))
	}
	if len(o.Presets) > 0 && len(o.Presets) != len(o.Configs) {
		errs = append(errs, fmt.Errorf("%d presets for %d parameter sets", len(o.Presets), len(o.Configs)))
	}
	if o.Shard.Count > 1 && (o.Shard.Index < 0 || o.Shard.Index >= o.Shard.Count) {
		errs = append(errs, fmt.Errorf("shard %d of %d out of range", o.Shard.Index, o.Shard.Count))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sweep options: %w", err)
	}
	return nil
}

// prepareTable creates a table directory, removes this shard's stale
// temporaries (left by a killed sweep; never readable) when locked, and,
// unless resuming, refuses a directory that already holds parts of this
// shard or of a sweep with another shard count (either would duplicate
// rows). Parts of the other shards of the same count are expected: shards
// of one sweep share the directory. A temporary is only ever removed by
// its owner or, under the shard's lock (outlock.go), once its owner is
// gone: no live writer of this shard can exist then.
func prepareTable(dir string, shard Shard, resume, locked bool) error {
	if err := RefuseLinkedDir(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("list output directory: %w", err)
	}
	prefix := "part-" + shard.String() + "-"
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."+prefix) && strings.HasSuffix(name, ".tmp"):
			if !locked {
				continue
			}
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("remove stale temporary: %w", err)
			}
		case strings.HasPrefix(name, prefix) && !resume:
			return fmt.Errorf("%s already holds part files of shard %s (%s); resume, or use an empty directory",
				dir, shard, name)
		case !resume && strings.HasPrefix(name, "part-") && !strings.HasSuffix(strings.SplitN(name, "-", 3)[1], "of"+strconv.Itoa(max(shard.Count, 1))):
			return fmt.Errorf("%s holds part files of another sweep (%s, not %d shards); resume, or use an empty directory",
				dir, name, max(shard.Count, 1))
		}
	}
	return nil
}

// write hands one run's rows to the writers and counts them.
func (e *engine) write(res runResult, rw tableSink[sinks.Row], sw tableSink[sinks.SeriesRow], sum *Summary) error {
	if res.abandoned {
		return nil
	}
	e.stale.add(res.stale)
	if len(res.rows) > 0 {
		if err := rw.Write(res.rows); err != nil {
			return err
		}
	}
	if sw != nil && len(res.series) > 0 {
		if err := sw.Write(res.series); err != nil {
			return err
		}
		sum.SeriesRows += len(res.series)
	}
	if res.skipped {
		sum.Skipped++
		return nil
	}
	sum.Analysed++
	sum.Bytes += res.bytes
	sum.warned(res)
	sum.Rows += len(res.rows)
	failure := -1
	for i := range res.rows {
		st := string(res.rows[i].Outcome.Status)
		sum.RowsByStatus[st]++
		sum.addPeer(&res.rows[i])
		if sum.RowsByVerdict == nil {
			sum.RowsByVerdict = map[string]int{}
		}
		sum.RowsByVerdict[string(res.rows[i].Outcome.Verdict)]++
		if st == StatusError && failure < 0 {
			failure = i
		}
	}
	if failure >= 0 {
		sum.ErrorRuns++
		if len(sum.Failures) < maxFailures {
			r := &res.rows[failure]
			name := r.RunRel
			if name == "" || name == "." {
				name = r.RunPath
			}
			sum.Failures = append(sum.Failures, RunFailure{Run: name, Reason: r.Outcome.Reason})
		}
	}
	return nil
}

// takeOutErrors removes from states, and from the part files holding
// them, the error rows that this sweep will redo: rows of runs it owns,
// under parameter sets it sweeps, in part files it may rewrite (its
// shard's own; every file when unsharded, as no other process writes).
// It returns how many it took out and how many it had to keep.
func (e *engine) takeOutErrors(ctx context.Context, states map[sinks.Key]sinks.RowState, runs []corpora.RunRef) (taken, kept int, err error) {
	return e.takeOutRows(ctx, states, runs, func(k sinks.Key, st sinks.RowState) bool { return st.Status == StatusError })
}

// takeOutRows removes from states, and from the part files holding them,
// the rows that sel selects and this sweep will redo (see takeOutErrors);
// it returns how many it took out and how many it had to keep because
// another shard's part files hold them.
func (e *engine) takeOutRows(ctx context.Context, states map[sinks.Key]sinks.RowState, runs []corpora.RunRef,
	sel func(sinks.Key, sinks.RowState) bool) (taken, kept int, err error) {
	owned := ownedIDs(runs)
	swept := make(map[string]bool, len(e.ids))
	for _, id := range e.ids {
		swept[id] = true
	}
	redo := map[sinks.Key]bool{}
	files := map[string]bool{}
	for k, st := range states {
		if !sel(k, st) || !owned[k.RunID] || !swept[k.ConfigID] {
			continue
		}
		if !e.mayRewrite(st.File) {
			kept++
			continue
		}
		redo[k], files[st.File] = true, true
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		n, err := sinks.DropRows(ctx, f, func(k sinks.Key) bool { return redo[k] })
		if err != nil {
			return taken, kept, err
		}
		taken += n
	}
	for k := range redo {
		delete(states, k)
	}
	return taken, kept, nil
}

// mayRewrite reports whether this process may rewrite a published part
// file: its shard's own, or any when unsharded (no other process writes).
func (e *engine) mayRewrite(path string) bool {
	return e.o.Shard.Count <= 1 || strings.HasPrefix(filepath.Base(path), "part-"+e.o.Shard.String()+"-")
}

// ownedIDs is the set of run ids of runs.
func ownedIDs(runs []corpora.RunRef) map[string]bool {
	owned := make(map[string]bool, len(runs))
	for _, r := range runs {
		owned[r.RunID()] = true
	}
	return owned
}

// RefuseLinkedDir returns an error when dir, a subdirectory of OUT that
// the sweep writes into, is a symbolic link: the files would land
// wherever it points, outside OUT (a planted OUT/rows → /etc). A missing
// dir is fine (it is created).
func RefuseLinkedDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	target, _ := os.Readlink(dir)
	return fmt.Errorf("%s is a symbolic link (to %q): refused, a sweep writes only inside its output directory", dir, target)
}
