// Package samplesparquet exports ingested runs' per-sample columns
// (columnar.Schema with leading run_id and run_rel columns) to Parquet. It is apart from
// columnar so that reading runs does not link the Parquet writer and what
// it pulls in (arrow-go's parquet packages and arrow/compute's kernels):
// only commands that export import it.
package samplesparquet

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// NamedTable is a table with the run's identity written in Write's
// leading columns: RunID and RunRel as a sweep's rows hold them
// (corpora.RunRef), so samples join the rows on run_id.
type NamedTable struct {
	RunID, RunRel string
	Table         *columnar.Table
}

// Schema is columnar.Schema with leading "run_id" and "run_rel" (utf8)
// columns.
var Schema = arrow.NewSchema(append([]arrow.Field{
	{Name: "run_id", Type: arrow.BinaryTypes.String},
	{Name: "run_rel", Type: arrow.BinaryTypes.String},
}, arrowFields()...), nil)

// Write writes the tables to w as one zstd-compressed Parquet file, one
// row group per table, with Schema. It does not close w.
func Write(w io.Writer, tables []NamedTable) error {
	return write(w, tables, memory.DefaultAllocator)
}

func write(w io.Writer, tables []NamedTable, mem memory.Allocator) error {
	props := &parquetio.Options{Compression: parquetio.Zstd, Mem: mem}
	fw, err := parquetio.NewWriter(w, Schema, props)
	if err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	for _, nt := range tables {
		if err := writeNamed(fw, nt, mem); err != nil {
			return errors.Join(fmt.Errorf("parquet %s: %w", nt.RunRel, err), fw.Close())
		}
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("parquet close: %w", err)
	}
	return nil
}

func writeNamed(fw *parquetio.Writer, nt NamedTable, mem memory.Allocator) error {
	n := nt.Table.Rows
	cols := make([]arrow.Array, 0, len(columnar.Schema)+2)
	cols = append(cols, constantColumn(nt.RunID, n, mem), constantColumn(nt.RunRel, n, mem))
	cols = append(cols, arrowColumns(nt.Table, mem)...)
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	out := array.NewRecordBatch(Schema, cols, int64(n))
	defer out.Release()
	return fw.Write(out)
}

// constantColumn is a string column holding s n times.
func constantColumn(s string, n int, mem memory.Allocator) arrow.Array {
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.Reserve(n)
	sb.ReserveData(n * len(s))
	for range n {
		sb.Append(s)
	}
	return sb.NewArray()
}
