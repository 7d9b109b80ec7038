// Package sinkstest makes, for tests, the part files an older steadysweep
// wrote: a sweep's output rewritten under an older rows/series schema
// version, so resume and the readers (calibrate, compare) can be checked
// against it.
package sinkstest

import (
	"bytes"
	"context"
	"os"
	"slices"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/sinks"
)

// ColumnsAddedAfter lists the rows and series columns added by the schema
// versions after version (sinks.SchemaVersion's history).
func ColumnsAddedAfter(version int32) []string {
	var cols []string
	if version < 2 {
		cols = append(cols, "n_failed", "failed_frac")
	}
	if version < 3 {
		cols = append(cols, "preset", "config_label", "model", "tokenizer_source", "load_pattern", "concurrency",
			"target_qps", "dataset_name", "dataset_size", "endpoint", "n_samples", "run_started_ns", "run_duration_s",
			"tpot_mean_ns")
	}
	if version < 4 {
		cols = append(cols, "stop_at_s", "stop_saved_frac", "stop_agrees", "stop_saved_s")
	}
	return cols
}

// Downgrade rewrites the part files of dir (OUT/rows or OUT/series) as a
// sweep of schema version wrote them: schema_version set to version and
// the columns later versions added left out (ColumnsAddedAfter).
func Downgrade(t testing.TB, dir string, version int32) {
	t.Helper()
	files, err := sinks.PartFiles(dir)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: %d part files, %v", dir, len(files), err)
	}
	drop := ColumnsAddedAfter(version)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out, err := downgraded(b, version, drop)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// downgraded is file rewritten as Downgrade says. It keeps what the
// readers go by, the columns (types, nullability, units) and their
// values; the file is one row group with the library's default
// properties (every column dictionary-encoded, uncompressed) and no
// schema metadata, so the readers also meet pages and files unlike the
// writer's own.
func downgraded(file []byte, version int32, drop []string) ([]byte, error) {
	r, err := parquetio.NewReader(bytes.NewReader(file), "part file")
	if err != nil {
		return nil, err
	}
	defer r.Close()
	tbl, err := r.ReadAll(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	var fields []batch.Field
	var cols []*batch.Column
	n := int(tbl.NumRows())
	for i, fd := range tbl.Schema().Fields() {
		if slices.Contains(drop, fd.Name) {
			continue
		}
		a := tbl.Column(i)
		if fd.Name == "schema_version" {
			a = batch.NewColumn(batch.Int32)
			for range n {
				a.AppendInt32(version)
			}
		}
		fields, cols = append(fields, fd), append(cols, a)
	}
	rec, err := batch.NewBatch(batch.NewSchema(fields, nil), cols)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := parquetio.WriteRecord(&buf, rec, nil); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
