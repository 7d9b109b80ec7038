package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/steadysweep/steadysweep/sinks"
)

// v2Columns are the columns schema version 2 added (to rows and series).
var v2Columns = []string{"preset", "config_label", "model", "tokenizer_source", "load_pattern", "concurrency",
	"target_qps", "dataset_name", "dataset_size", "endpoint", "n_samples", "n_failed", "failed_frac",
	"run_started_ns", "run_duration_s", "tpot_mean_ns"}

// rewriteAs rewrites the part files of dir as a sweep of the given
// schema version wrote them: schema_version set to version and, for
// version 1, without the columns version 2 added.
func rewriteAs(t *testing.T, dir string, version int32) {
	t.Helper()
	files, err := sinks.PartFiles(dir)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: %d part files, %v", dir, len(files), err)
	}
	mem := memory.DefaultAllocator
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(b), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
		if err != nil {
			t.Fatal(err)
		}
		var fields []arrow.Field
		var cols []arrow.Array
		n := int(tbl.NumRows())
		for i, fd := range tbl.Schema().Fields() {
			if version == 1 && slices.Contains(v2Columns, fd.Name) {
				continue
			}
			col := array.NewChunkedSlice(tbl.Column(i).Data(), 0, int64(n))
			a, err := array.Concatenate(col.Chunks(), mem)
			col.Release()
			if err != nil {
				t.Fatal(err)
			}
			if fd.Name == "schema_version" {
				ib := array.NewInt32Builder(mem)
				for range n {
					ib.Append(version)
				}
				a.Release()
				a = ib.NewArray()
				ib.Release()
			}
			fields, cols = append(fields, fd), append(cols, a)
		}
		tbl.Release()
		rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
		var buf bytes.Buffer
		fw, err := pqarrow.NewFileWriter(rec.Schema(), &buf, nil, pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		if err := fw.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		for _, a := range cols {
			a.Release()
		}
		if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// versionsOf counts the rows of each schema version in OUT/rows and the
// series keys of each in OUT/series.
func versionsOf(t *testing.T, out string) (rows, series map[int32]int) {
	t.Helper()
	st, err := sinks.ReadRowStates(context.Background(), filepath.Join(out, "rows"), nil)
	if err != nil {
		t.Fatal(err)
	}
	rows = map[int32]int{}
	for k := range st {
		rows[k.SchemaVersion]++
	}
	sk, err := sinks.ReadSeriesFiles(context.Background(), filepath.Join(out, "series"), nil)
	if err != nil {
		t.Fatal(err)
	}
	series = map[int32]int{}
	for k := range sk {
		series[k.SchemaVersion]++
	}
	return rows, series
}

// A resume over part files of schema version 1 says what it does and
// redoes this sweep's rows under version 2, removing their old rows and
// series; old rows outside the sweep (a config not swept now) are kept and
// counted, and redone by a later resume that sweeps them. A directory of
// a newer version is refused with its file named.
func TestResumeOverOlderSchema(t *testing.T) {
	runs, cs := fakeArchive(t), grid3x3(t)[:2]
	out := t.TempDir()
	o := fakeOptions(runs, cs, out, nil)
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	rewriteAs(t, filepath.Join(out, "rows"), 1)
	rewriteAs(t, filepath.Join(out, "series"), 1)
	if r, s := versionsOf(t, out); r[1] != 36 || s[1] != 18 {
		t.Fatalf("downgraded output: rows %v, series %v", r, s)
	}

	var log bytes.Buffer
	o.Configs, o.Resume, o.Progress = cs[:1], true, NewProgress(&log, false, false)
	sum, err := Run(context.Background(), o)
	if err != nil || sum.Upgraded != 18 || sum.UpgradeKept != 18 || sum.Analysed != 18 || sum.Rows != 18 {
		t.Fatalf("resume over v1, one config: %+v, %v", sum, err)
	}
	if msg := log.String(); !containsAll(msg, "older schema", "writes schema_version 2", "redoing 18 of them", "18 kept", "union_by_name") {
		t.Errorf("the resume does not say what it does: %q", msg)
	}
	if r, s := versionsOf(t, out); r[1] != 18 || r[2] != 18 || s[1] != 0 || s[2] != 18 {
		t.Fatalf("after the partial upgrade: rows %v, series %v; want 18 v1 rows kept, 18 v2, all series v2", r, s)
	}

	log.Reset()
	o.Configs = cs
	if sum, err := Run(context.Background(), o); err != nil || sum.Upgraded != 18 || sum.UpgradeKept != 0 || sum.Rows != 18 || sum.Skipped != 0 {
		t.Fatalf("resume over the rest: %+v, %v", sum, err)
	}
	if strings.Contains(log.String(), "kept") {
		t.Errorf("nothing was kept, yet: %q", log.String())
	}
	rows := readRows(t, filepath.Join(out, "rows"), memory.DefaultAllocator) // every file of the v2 schema again
	if got, want := pairs(t, rows), expectedPairs(runs, cs); !slices.Equal(got, want) {
		t.Fatalf("after the upgrade: %d rows, not runs × configs once each", len(rows))
	}
	if sum, err := Run(context.Background(), o); err != nil || sum.Rows != 0 || sum.Upgraded != 0 || sum.Skipped != 18 {
		t.Fatalf("a further resume: %+v, %v; want nothing redone", sum, err)
	}

	rewriteAs(t, filepath.Join(out, "rows"), sinks.SchemaVersion+1)
	_, err = Run(context.Background(), o)
	if err == nil || !containsAll(err.Error(), "newer than this steadysweep's", filepath.Join(out, "rows")) {
		t.Fatalf("resume over a newer schema: %v", err)
	}
}
