package sweep

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// TestAfterRun: the hook is called once per loaded run, after every
// analysis of it and its series, with the run the analyses saw — never
// inside an analysis (so what it does is not in analysis_ns) — and not for
// a run that failed to load; a panic in it is logged and the rows stand.
func TestAfterRun(t *testing.T) {
	o, _ := fakeSweep(t)
	runs, cs := o.Runs, o.Configs
	var dbg bytes.Buffer
	o.Debug = &dbg
	var mu sync.Mutex
	analysed := map[*LoadedRun]int{}
	seriesDone := map[*LoadedRun]bool{}
	inAnalysis := map[*LoadedRun]bool{}
	after := map[string]int{}
	o.Load = func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		if ref.Rel == "offline_burst" {
			return nil, errors.New("bad log")
		}
		return fakeLoader(nil)(ctx, ref)
	}
	o.Analyze = func(run *LoadedRun, p core.Params) (*core.Result, error) {
		mu.Lock()
		inAnalysis[run] = true
		analysed[run]++
		mu.Unlock()
		defer func() { mu.Lock(); inAnalysis[run] = false; mu.Unlock() }()
		return fakeAnalyze(run, p)
	}
	o.Series = func(run *LoadedRun) ([]sinks.SeriesRow, error) {
		mu.Lock()
		seriesDone[run] = true
		mu.Unlock()
		return fakeSeries(run)
	}
	o.AfterRun = func(ref corpora.RunRef, run *LoadedRun, _ []Analysis) {
		mu.Lock()
		defer mu.Unlock()
		if inAnalysis[run] || analysed[run] != len(cs) || !seriesDone[run] {
			t.Errorf("%s: after run with analysis running %v, %d of %d analyses, series %v", ref.Rel, inAnalysis[run], analysed[run], len(cs), seriesDone[run])
		}
		after[ref.Rel]++
		if ref.Rel == "conc_failures" {
			panic("page writer exploded")
		}
	}
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		want := 1
		if r.Rel == "offline_burst" {
			want = 0
		}
		if after[r.Rel] != want {
			t.Errorf("%s: after run called %d times, want %d", r.Rel, after[r.Rel], want)
		}
	}
	if sum.Rows != len(runs)*len(cs) || sum.ErrorRuns != 1 {
		t.Errorf("rows %d, error runs %d: want %d rows, only the unreadable run in error", sum.Rows, sum.ErrorRuns, len(runs)*len(cs))
	}
	if !strings.Contains(dbg.String(), "after run: panic: page writer exploded") {
		t.Errorf("the hook's panic is not in the debug log: %q", dbg.String())
	}
}
