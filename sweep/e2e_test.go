package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// realSweep sweeps runs × the 3×3 grid with the columnar loader and the
// core analyzer, checks the rows on disk and that every outcome equals
// core.Analyze's (the rollup sharing changes nothing).
func realSweep(t *testing.T, runs []corpora.RunRef) {
	mem := checkedMem(t)
	cs := grid3x3(t)
	peers, err := Grid{}.Configs([]string{"reference,total,fixed-pct,mser5"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs = append(cs, peers...)
	out := t.TempDir()
	load := DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}, Cache: &columnar.Cache{Dir: t.TempDir()}})
	o := Options{Runs: runs, Configs: cs, Out: out, Load: load, Analyze: DefaultAnalyzer, Series: DefaultSeries,
		ToolVersion: "test"}
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want := len(runs) * len(cs)
	if sum.Rows != want || sum.Analysed != len(runs) {
		t.Fatalf("summary %+v, want %d rows", sum, want)
	}
	rows := readRows(t, filepath.Join(out, "rows"), mem)
	if got := pairs(t, rows); !slices.Equal(got, expectedPairs(runs, cs)) {
		t.Fatalf("rows on disk (%d) are not runs × configs (%d)", len(got), want)
	}
	for _, r := range rows {
		if r.status == StatusError {
			t.Errorf("run %s config %s: error row: %s", r.runPath, r.configID, r.reason)
		}
	}
	if sum.SeriesRows == 0 {
		t.Errorf("no series rows")
	}

	// DefaultAnalyzer (shared rollups) ≡ core.Analyze, outcome by outcome.
	for _, ref := range runs {
		lr, err := load(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range cs {
			res, err1 := DefaultAnalyzer(lr, p)
			cr := core.NewRun(lr.Samples, lr.Info)
			r, err2 := cr.Analyze(p)
			if err2 == nil {
				err2 = EarliestStop(cr, p, r)
			}
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("%s %s: errors differ: %v vs %v", ref.Rel, sinks.ConfigID(p), err1, err2)
			}
			if err2 != nil {
				continue
			}
			if g, w := fmt.Sprintf("%+v", OutcomeOf(res)), fmt.Sprintf("%+v", OutcomeOf(r)); g != w {
				t.Errorf("%s %s: DefaultAnalyzer\n%s\ncore.Analyze\n%s", ref.Rel, sinks.ConfigID(p), g, w)
			}
		}
	}

	// Resume over real rows: nothing new.
	o.Resume = true
	sum2, err := Run(context.Background(), o)
	if err != nil || sum2.Rows != 0 || sum2.Skipped != len(runs) {
		t.Fatalf("resume: %+v, %v", sum2, err)
	}
}

// TestRealSweepTestdata always runs: one small run in both layouts
// (./events.jsonl.gz and ./client/events.jsonl.gz).
func TestRealSweepTestdata(t *testing.T) {
	runs, errs := corpora.Discover([]string{filepath.Join("testdata", "runs")}, nil, nil)
	if len(errs) > 0 || len(runs) != 2 {
		t.Fatalf("testdata: %d runs, %v", len(runs), errs)
	}
	realSweep(t, runs)
}

// TestRealSweepParity sweeps the 18 shared parity runs.
func TestRealSweepParity(t *testing.T) {
	realSweep(t, parityRuns(t))
}

// parityRuns discovers the 18 shared parity runs, or skips (not
// available, or short mode).
func parityRuns(t *testing.T) []corpora.RunRef {
	t.Helper()
	root := filepath.Join(repoRoot(t), "..", "shared", "parity", "runs")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared parity runs not available: %v", err)
	}
	if testing.Short() {
		t.Skip("short mode")
	}
	runs, errs := corpora.Discover([]string{root}, nil, nil)
	if len(errs) > 0 || len(runs) != 18 {
		t.Fatalf("parity: %d runs, %v", len(runs), errs)
	}
	return runs
}
