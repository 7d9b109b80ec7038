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

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

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

func downgraded(file []byte, version int32, drop []string) ([]byte, error) {
	mem := memory.DefaultAllocator
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(file), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	var fields []arrow.Field
	var cols []arrow.Array
	defer func() {
		for _, a := range cols {
			a.Release()
		}
	}()
	n := tbl.NumRows()
	for i, fd := range tbl.Schema().Fields() {
		if slices.Contains(drop, fd.Name) {
			continue
		}
		var a arrow.Array
		if fd.Name == "schema_version" {
			ib := array.NewInt32Builder(mem)
			for range n {
				ib.Append(version)
			}
			a = ib.NewArray()
			ib.Release()
		} else if a, err = array.Concatenate(tbl.Column(i).Data().Chunks(), mem); err != nil {
			return nil, err
		}
		fields, cols = append(fields, fd), append(cols, a)
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
	defer rec.Release()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(rec.Schema(), &buf, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, err
	}
	if err := fw.Write(rec); err != nil {
		return nil, err
	}
	if err := fw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
