package sweep

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
)

func fakeOptions(runs []corpora.RunRef, cs []core.Params, out string) Options {
	return Options{Runs: runs, Configs: cs, Out: out, Jobs: 2, Load: fakeLoader(nil), Analyze: fakeAnalyze,
		Series: fakeSeries, ToolVersion: "test", RowsPerGroup: 16}
}

func TestRunGrid(t *testing.T) {
	o, mem := fakeSweep(t)
	runs, cs, out := o.Runs, o.Configs, o.Out
	var calls atomic.Int64
	o.Load = fakeLoader(&calls)
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 18*9 || sum.Analysed != 18 || sum.Skipped != 0 || sum.Abandoned != 0 || calls.Load() != 18 {
		t.Fatalf("summary %+v, loads %d", sum, calls.Load())
	}
	rows := readRows(t, filepath.Join(out, "rows"), mem)
	if len(rows) != 18*9 {
		t.Fatalf("rows read back: %d, want %d", len(rows), 18*9)
	}
	if got, want := pairs(t, rows), expectedPairs(runs, cs); !slices.Equal(got, want) {
		t.Fatalf("row keys differ from runs × configs")
	}
	// Statuses as the fake analyzer decides (n > 300 ⇔ len(Rel) > 20).
	wantStatus := map[string]int{}
	for _, r := range runs {
		if 100+10*len(r.Rel) > 300 {
			wantStatus["insufficient_passes"] += 9
		} else {
			wantStatus["windowable"] += 9
		}
	}
	got := map[string]int{}
	for _, r := range rows {
		got[r.status]++
	}
	for k, v := range wantStatus {
		if got[k] != v || sum.RowsByStatus[k] != v {
			t.Errorf("status %s: read %d, summary %d, want %d", k, got[k], sum.RowsByStatus[k], v)
		}
	}
	// Series: once per run, not per config.
	wantSeries := 0
	for _, r := range runs {
		wantSeries += (100 + 10*len(r.Rel) + 49) / 50
	}
	if sum.SeriesRows != wantSeries {
		t.Errorf("series rows %d, want %d", sum.SeriesRows, wantSeries)
	}
	if !strings.Contains(sum.String(), "18 runs × 9 configs: 162 rows") {
		t.Errorf("summary line %q", sum.String())
	}
	if got := (Summary{Runs: 1, Configs: 2, Rows: 2, RowsByStatus: map[string]int{"": 1, "windowable": 1}}).String(); !strings.HasPrefix(got, "1 run × 2 configs: 2 rows (no status 1, windowable 1); ") {
		t.Errorf("summary line %q", got)
	}

	// Resume writes nothing new and loads nothing.
	calls.Store(0)
	o.Resume = true
	sum2, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Rows != 0 || sum2.Skipped != 18 || len(sum2.Files) != 0 || calls.Load() != 0 {
		t.Fatalf("resume: %+v, loads %d", sum2, calls.Load())
	}
	// Without resume the directory is refused.
	o.Resume = false
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "already holds part files") {
		t.Fatalf("rerun without resume: %v", err)
	}
	// A new config: resume analyses only it, without rewriting series.
	o.Resume = true
	extra := core.DefaultParams()
	extra.Alpha = 0.2
	o.Configs = append(slices.Clone(cs), extra)
	sum3, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum3.Rows != 18 || sum3.SeriesRows != 0 || calls.Load() != 18 {
		t.Fatalf("resume with a new config: %+v", sum3)
	}
	if got, want := pairs(t, readRows(t, filepath.Join(out, "rows"), mem)), expectedPairs(runs, o.Configs); !slices.Equal(got, want) {
		t.Fatalf("after adding a config: row keys differ")
	}
}

func TestRunInterruptThenResume(t *testing.T) {
	o, mem := fakeSweep(t)
	runs, cs, out := o.Runs, o.Configs, o.Out

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The count and the cancel are one step under mu: a load counted
	// after the 7th must find the context cancelled (without the lock a
	// worker preempted between the two let later loads through on a busy
	// machine, and their runs were analysed).
	var mu sync.Mutex
	loads := 0
	o.Load = func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		mu.Lock()
		if loads++; loads == 7 {
			cancel() // interrupt mid-sweep: this run and later ones are abandoned
		}
		mu.Unlock()
		return fakeLoader(nil)(ctx, ref)
	}
	sum, err := Run(ctx, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted sweep: err %v", err)
	}
	if sum.Analysed+sum.Abandoned != 18 || sum.Analysed < 1 || sum.Analysed > 6 {
		t.Fatalf("interrupted: %+v", sum)
	}
	first := readRows(t, filepath.Join(out, "rows"), mem)
	if len(first) != sum.Analysed*9 {
		t.Fatalf("interrupted: %d rows on disk, want %d (whole runs only)", len(first), sum.Analysed*9)
	}

	o.Load, o.Resume = fakeLoader(nil), true
	sum2, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Skipped != sum.Analysed || sum2.Analysed != 18-sum.Analysed {
		t.Fatalf("resume: %+v after %+v", sum2, sum)
	}
	if got, want := pairs(t, readRows(t, filepath.Join(out, "rows"), mem)), expectedPairs(runs, cs); !slices.Equal(got, want) {
		t.Fatalf("interrupted+resumed rows differ from an uninterrupted sweep (%d vs %d)", len(got), len(want))
	}
}

func TestRunShards(t *testing.T) {
	mem := checkedMem(t)
	runs, cs := fakeArchive(t), grid3x3(t)
	whole, sharded := t.TempDir(), t.TempDir()
	if _, err := Run(context.Background(), fakeOptions(runs, cs, whole)); err != nil {
		t.Fatal(err)
	}
	var perShard []int
	for i := range 2 {
		o := fakeOptions(runs, cs, sharded)
		o.Shard = Shard{i, 2}
		sum, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		perShard = append(perShard, sum.Runs)
		for _, f := range sum.Files {
			if !strings.Contains(filepath.Base(f), "part-"+o.Shard.String()+"-") {
				t.Errorf("shard %d wrote %s", i, f)
			}
		}
	}
	// An unsharded sweep into the sharded directory would duplicate rows.
	if _, err := Run(context.Background(), fakeOptions(runs, cs, sharded)); err == nil || !strings.Contains(err.Error(), "another sweep") {
		t.Fatalf("unsharded sweep over shards: %v", err)
	}
	if perShard[0]+perShard[1] != 18 || perShard[0] == 0 || perShard[1] == 0 {
		t.Fatalf("shard sizes %v", perShard)
	}
	a := pairs(t, readRows(t, filepath.Join(whole, "rows"), mem))
	b := pairs(t, readRows(t, filepath.Join(sharded, "rows"), mem))
	if !slices.Equal(a, b) || len(a) != 162 {
		t.Fatalf("sharded rows (%d) differ from unsharded (%d)", len(b), len(a))
	}
}

func TestRunPanicBecomesErrorRows(t *testing.T) {
	o, mem := fakeSweep(t)
	out := o.Out
	var dbg bytes.Buffer
	o.Debug = &dbg
	o.Analyze = func(run *LoadedRun, p core.Params) (*core.Result, error) {
		if run.Info.Model == "conc_failures" {
			var m map[string]int
			m["boom"]++ // nil map write: a real runtime panic
		}
		return fakeAnalyze(run, p)
	}
	o.Load = func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		if ref.Rel == "offline_burst" {
			return nil, errors.New("bad log")
		}
		if ref.Rel == "poisson_steady" {
			panic("loader exploded")
		}
		return fakeLoader(nil)(ctx, ref)
	}
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, filepath.Join(out, "rows"), mem)
	if len(rows) != 162 || sum.Rows != 162 {
		t.Fatalf("rows %d (summary %d), want 162: the sweep must continue", len(rows), sum.Rows)
	}
	byRun := map[string]map[string]int{} // run path base → reason → n
	for _, r := range rows {
		if r.status != StatusError {
			continue
		}
		base := filepath.Base(r.runPath)
		if byRun[base] == nil {
			byRun[base] = map[string]int{}
		}
		byRun[base][r.reason]++
	}
	want := map[string]string{
		"conc_failures":  "analyze: panic: assignment to entry in nil map",
		"offline_burst":  "load: bad log",
		"poisson_steady": "load: panic: loader exploded",
	}
	if len(byRun) != len(want) {
		t.Fatalf("error rows by run: %v", byRun)
	}
	for run, reason := range want {
		if byRun[run][reason] != 9 {
			t.Errorf("%s: error rows %v, want 9 × %q", run, byRun[run], reason)
		}
	}
	if sum.ErrorRuns != 3 || sum.RowsByStatus[StatusError] != 27 {
		t.Errorf("summary: %+v", sum)
	}
	// The summary names the failed runs and why.
	failures := map[string]string{}
	for _, f := range sum.Failures {
		failures[f.Run] = f.Reason
	}
	if !maps.Equal(failures, want) {
		t.Errorf("summary failures %v, want %v", failures, want)
	}
	if lines := sum.FailureLines(); len(lines) != 4 || lines[0] != "3 runs failed:" || !slices.Contains(lines, "  offline_burst: load: bad log") {
		t.Errorf("failure lines %q", lines)
	}
	if !containsAll(dbg.String(), "panic: loader exploded", "goroutine", "process.go") {
		t.Errorf("debug log lacks the panic stacks:\n%s", dbg.String())
	}
}

func TestRunUnreadableEvents(t *testing.T) {
	mem := checkedMem(t)
	runs, cs := fakeArchive(t), grid3x3(t)[:2]
	runs[3].EventsPath = filepath.Join(t.TempDir(), "gone.jsonl")
	out := t.TempDir()
	sum, err := Run(context.Background(), fakeOptions(runs, cs, out))
	if err != nil {
		t.Fatal(err)
	}
	if sum.RowsByStatus[StatusError] != 2 || sum.Rows != 36 {
		t.Fatalf("summary %+v", sum)
	}
	for _, r := range readRows(t, filepath.Join(out, "rows"), mem) {
		if (r.status == StatusError) != (r.runID == runs[3].RunID()) || (r.status == StatusError && !strings.Contains(r.reason, "open events file")) {
			t.Errorf("row %+v", r)
		}
	}
	// Resuming does not repeat the error rows of a still-unreadable run.
	o := fakeOptions(runs, cs, out)
	o.Resume = true
	if sum, err := Run(context.Background(), o); err != nil || sum.Rows != 0 || sum.Skipped != 18 {
		t.Fatalf("resume: %+v, %v", sum, err)
	}
}

func TestRunOptionErrors(t *testing.T) {
	_, err := Run(context.Background(), Options{})
	if err == nil || !containsAll(err.Error(), "no parameter sets", "no output directory", "Load and Analyze") {
		t.Fatalf("empty options: %v", err)
	}
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, false, false)
	runs, cs := fakeArchive(t), grid3x3(t)[:1]
	o := fakeOptions(runs, cs, t.TempDir())
	o.Progress = p
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); strings.Count(got, "\n") != 1 || strings.Contains(got, "\r") || !strings.HasPrefix(got, "18 runs × 1 config: 18 rows (insufficient_passes 4, windowable 14), verdicts (STEADY STATE 14, not found 4); 18 analysed, 0 skipped; 2 files") {
		t.Fatalf("non-terminal output: %q", got)
	}

	buf.Reset()
	p = NewProgress(&buf, true, false)
	p.start(4, 1)
	sum := Summary{Analysed: 1, ErrorRuns: 1, Rows: 3, Bytes: 1e6, RowsByStatus: map[string]int{StatusError: 2}}
	p.update(&sum)
	p.mu.Lock()
	p.started = p.started.Add(-2e9) // 2 s elapsed
	p.redraw(p.started.Add(2e9))
	p.mu.Unlock()
	p.finish(Summary{Runs: 4, Configs: 1})
	got := buf.String()
	// One run done, and it failed: error rows are counted as rows, not
	// runs.
	if !containsAll(got, "\r1/4 runs (1 failed)  3 rows (2 errors)  0.5 MB/s  ETA 6s", "4 runs × 1 config: 0 rows") {
		t.Fatalf("terminal output: %q", got)
	}

	buf.Reset()
	NewProgress(&buf, true, true).finish(Summary{})
	var nilP *Progress
	nilP.finish(Summary{})
	if buf.Len() != 0 {
		t.Fatalf("quiet progress wrote %q", buf.String())
	}
}
