package sweep

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestCancelStopsAnalysis: a sweep cancelled while a run is being
// analysed ends that analysis at the core's next poll (LoadedRun.Stop →
// core.Run.Stop is the sweep's context), and the run is abandoned, not an
// error row: a --resume redoes it. The analyzer cancels the sweep, then
// analyses for real; before the hook was wired the analysis ran to its end
// and the row was written as if nothing happened.
func TestCancelStopsAnalysis(t *testing.T) {
	mem := checkedMem(t)
	runs, out := fakeArchive(t)[:1], t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var analyses atomic.Int64
	var analyzeErr atomic.Value
	o := fakeOptions(runs, []core.Params{core.DefaultParams()}, out)
	o.Analyze = func(run *LoadedRun, p core.Params) (*core.Result, error) {
		analyses.Add(1)
		cancel() // SIGTERM arrives mid-analysis
		res, err := DefaultAnalyzer(run, p)
		if err != nil {
			analyzeErr.Store(err)
		}
		return res, err
	}
	o.Series = nil
	sum, err := Run(ctx, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if analyses.Load() != 1 {
		t.Fatalf("%d analyses, want 1", analyses.Load())
	}
	if e, _ := analyzeErr.Load().(error); !errors.Is(e, context.Canceled) {
		t.Errorf("the analysis after the cancel returned %v, want context.Canceled from the Stop hook", e)
	}
	if sum.Abandoned != 1 || sum.Rows != 0 {
		t.Errorf("summary %+v: want the run abandoned, no rows", sum)
	}
	if rows := readRows(t, filepath.Join(out, "rows"), mem); len(rows) != 0 {
		t.Errorf("%d rows written for a cancelled analysis", len(rows))
	}

	// Resumed, the run is analysed in full.
	o.Analyze, o.Resume = DefaultAnalyzer, true
	if sum, err = Run(context.Background(), o); err != nil || sum.Rows != 1 {
		t.Fatalf("resume: %+v, %v", sum, err)
	}
}
