package main

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// readParquetRecords reads every row of the Parquet files as a map of
// column name to value (GetOneForMarshal: string, int64, float64, bool;
// nil for null), checking that reading leaks no Arrow memory.
func readParquetRecords(t testing.TB, files ...string) []map[string]any {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out []map[string]any
	sinkstest.EachRecord(t, files, mem, func(_ string, rec arrow.RecordBatch) {
		for i := range int(rec.NumRows()) {
			m := map[string]any{}
			for c, fd := range rec.Schema().Fields() {
				m[fd.Name] = rec.Column(c).GetOneForMarshal(i)
			}
			out = append(out, m)
		}
	})
	return out
}

// partFiles lists OUT/<table>'s part files.
func partFiles(t testing.TB, out, table string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, table, "part-*.parquet"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s/%s: %d part files, %v", out, table, len(files), err)
	}
	return files
}

// TestIngestKeyedLikeRows: ingest and sweep of the same archive (one run
// per reader format) agree on run_id and run_rel, and each run's sample
// count in the ingest file is its rows' n_samples.
func TestIngestKeyedLikeRows(t *testing.T) {
	root := filepath.Join("..", "..", "columnar", "testdata")
	out := t.TempDir()
	if stderr, err := sweepCLI(t, root, "-o", out, "--tokenizer", "words", "--no-cache", "-q"); err != nil {
		t.Fatalf("sweep: %v\n%s", err, stderr)
	}
	samples := filepath.Join(t.TempDir(), "samples.parquet")
	mustRun(t, "ingest", root, "-o", samples, "--tokenizer", "words", "--no-cache")
	rows := map[string]map[string]any{}
	for _, r := range readParquetRecords(t, partFiles(t, out, "rows")...) {
		rows[r["run_id"].(string)] = r
	}
	count := map[string]int64{}
	for _, s := range readParquetRecords(t, samples) {
		id := s["run_id"].(string)
		r, ok := rows[id]
		if !ok {
			t.Fatalf("ingest run_id %s (%s) has no rows", id, s["run_rel"])
		}
		if s["run_rel"] != r["run_rel"] {
			t.Fatalf("run %s: ingest run_rel %v, rows %v", id, s["run_rel"], r["run_rel"])
		}
		count[id]++
	}
	if len(count) != len(rows) || len(rows) < 5 {
		t.Fatalf("ingest has %d runs, rows %d (want the 5 fixtures at least)", len(count), len(rows))
	}
	for id, r := range rows {
		if n, ok := r["n_samples"].(int64); !ok || n != count[id] {
			t.Errorf("%s: n_samples %v, ingest has %d samples", r["run_rel"], r["n_samples"], count[id])
		}
	}
}
