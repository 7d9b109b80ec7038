package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// parityNames are the names of the 18 shared parity runs; the fake
// archives reuse them so shard splits match the real corpus.
var parityNames = []string{"agentic_tools", "conc_clean_ramp", "conc_drift_down_maxdur", "conc_drift_up",
	"conc_dup_malformed", "conc_failures", "conc_hairball_tail", "conc_insufficient_passes", "conc_long_ramp",
	"conc_noisy_highcov", "conc_partial_dataset", "conc_ramp_only", "conc_reasoning_precision",
	"conc_staircase_late", "conc_truncated", "conc_warmup_overlap_short", "offline_burst", "poisson_steady"}

// fakeArchive writes one tiny events.jsonl per parity name and
// discovers them.
func fakeArchive(t testing.TB) []corpora.RunRef {
	t.Helper()
	dir := t.TempDir()
	for i, n := range parityNames {
		p := filepath.Join(dir, n, "events.jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf(`{"event_type":"session.started","n":%d}`+"\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs, errs := corpora.Discover([]string{dir}, nil, nil)
	if len(errs) > 0 || len(runs) != len(parityNames) {
		t.Fatalf("fake archive: %d runs, %v", len(runs), errs)
	}
	return runs
}

// checkedMem is an allocator that fails the test when any of its memory
// is still held as the test ends (after the cleanups registered later,
// which run first): every Arrow buffer a test's sweep or reader made was
// released.
func checkedMem(t testing.TB) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// fakeSweep is the Options of a sweep of the fake archive over the 3×3
// grid into a fresh directory (fakeOptions), with its checked allocator.
func fakeSweep(t testing.TB) (Options, *memory.CheckedAllocator) {
	t.Helper()
	mem := checkedMem(t)
	return fakeOptions(fakeArchive(t), grid3x3(t), t.TempDir()), mem
}

// fakeSamples makes n samples with issue times 1 ms apart.
func fakeSamples(n int) *core.Samples {
	s := &core.Samples{}
	for i := range n {
		ns := int64(i) * 1_000_000
		s.IssueNs = append(s.IssueNs, ns)
		s.LastIssueNs = append(s.LastIssueNs, ns)
		s.TTFTNs = append(s.TTFTNs, 5_000_000+int64(i%7)*1000)
		s.OutTokens = append(s.OutTokens, 10)
	}
	return s
}

// fakeLoader returns samples whose count depends on the run name.
func fakeLoader(calls *atomic.Int64) Loader {
	return func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		if calls != nil {
			calls.Add(1)
		}
		return &LoadedRun{Samples: fakeSamples(100 + 10*len(ref.Rel)), Info: core.RunInfo{DatasetSize: 50, Model: ref.Rel}, Tokenizer: "fake"}, nil
	}
}

// fakeAnalyze derives a result from the run size and the parameters: a
// windowable one, or insufficient_passes over 300 samples.
func fakeAnalyze(run *LoadedRun, p core.Params) (*core.Result, error) {
	n := run.Samples.Len()
	r := &core.Result{Params: p, NSuperPasses: (n + 49) / 50,
		Steady:     core.SteadyState{Found: true, TPS: &core.TPS{System: float64(n) / p.TrendRelDriftMin}},
		Assessment: &core.Assessment{Status: core.StatusWindowable, Verdict: core.VerdictSteadyState, Window: core.SPRange{Lo: core.NoSPIndex, Hi: core.NoSPIndex}}}
	if n > 300 {
		r.Steady.Found = false
		r.Assessment.Status, r.Assessment.Verdict = core.StatusInsufficientPasses, core.VerdictNotFound
	}
	return r, nil
}

func fakeSeries(run *LoadedRun) ([]sinks.SeriesRow, error) {
	n := run.Samples.Len()
	var rows []sinks.SeriesRow
	for k := 0; k*50 < n; k++ {
		rows = append(rows, sinks.SeriesRow{SP: k, SuperpassSize: 50, NIssued: min(50, n-k*50), FirstIssueNs: int64(k) * 50e6})
	}
	return rows, nil
}

// grid3x3 is the 3×3 grid of the tests.
func grid3x3(t testing.TB) []core.Params {
	t.Helper()
	return gridConfigs(t, "alpha: [0.01, 0.05, 0.1]\ntrend_rel_drift_min: [0.02, 0.05, 0.1]", 9)
}

// gridConfigs parses the grid file text and returns its configs, failing
// the test unless there are exactly want of them.
func gridConfigs(t testing.TB, grid string, want int) []core.Params {
	t.Helper()
	g, err := ParseGrid([]byte(grid))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := g.Configs(nil, nil)
	if err != nil || len(cs) != want {
		t.Fatalf("grid: %d configs, %v", len(cs), err)
	}
	return cs
}

// row is the part of a written row the tests compare.
type row struct{ runID, configID, status, reason, runPath, sourceFormat string }

// readRows reads every published part file of dir.
func readRows(t testing.TB, dir string, mem memory.Allocator) []row {
	t.Helper()
	var out []row
	eachRecord(t, dir, mem, func(f string, rec arrow.RecordBatch) {
		if !schemaNamesEqual(rec.Schema(), arrowbatch.ArrowSchema(sinks.RowsSchema())) {
			t.Fatalf("%s: schema differs from RowsSchema", f)
		}
		col := func(name string) *array.String {
			return rec.Column(rec.Schema().FieldIndices(name)[0]).(*array.String)
		}
		id, cfg, st, rs, rp := col("run_id"), col("config_id"), col("status"), col("reason"), col("run_path")
		sf := rec.Column(rec.Schema().FieldIndices("source_format")[0])
		for i := range int(rec.NumRows()) {
			out = append(out, row{id.Value(i), cfg.Value(i), st.Value(i), rs.Value(i), rp.Value(i), stringAt(sf, i)})
		}
	})
	return out
}

// eachRecord reads every published part file of dir with arrow-go and
// calls fn for each record batch (valid during the call).
func eachRecord(t testing.TB, dir string, mem memory.Allocator, fn func(file string, rec arrow.RecordBatch)) {
	t.Helper()
	files, err := sinks.PartFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	sinkstest.EachRecord(t, files, mem, fn)
}

func schemaNamesEqual(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		if a.Field(i).Name != b.Field(i).Name || !arrow.TypeEqual(a.Field(i).Type, b.Field(i).Type) {
			return false
		}
	}
	return true
}

// pairs returns the sorted "run_id/config_id" keys of rows, failing on
// duplicates.
func pairs(t testing.TB, rows []row) []string {
	t.Helper()
	var ks []string
	for _, r := range rows {
		ks = append(ks, r.runID+"/"+r.configID)
	}
	slices.Sort(ks)
	if c := slices.Compact(slices.Clone(ks)); len(c) != len(ks) {
		t.Fatalf("%d duplicate rows", len(ks)-len(c))
	}
	return ks
}

// expectedPairs is runs × configs as pair keys.
func expectedPairs(runs []corpora.RunRef, cs []core.Params) []string {
	var ks []string
	for _, r := range runs {
		for _, c := range cs {
			ks = append(ks, r.RunID()+"/"+sinks.ConfigID(c))
		}
	}
	slices.Sort(ks)
	return ks
}

// repoRoot returns the directory holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	return sharedtest.RepoRoot(t)
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// stringAt reads a string or dictionary-encoded string column.
func stringAt(a arrow.Array, i int) string {
	switch c := a.(type) {
	case *array.String:
		return c.Value(i)
	case *array.Dictionary:
		return c.Dictionary().(*array.String).Value(c.GetValueIndex(i))
	}
	return ""
}
