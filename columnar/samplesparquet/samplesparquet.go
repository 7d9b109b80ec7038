// Package samplesparquet exports ingested runs' per-sample columns
// (columnar.Schema with a leading run column) to Parquet. It is apart from
// columnar so that reading runs does not link the Parquet writer and what
// it pulls in (arrow/compute, Arrow Flight, gRPC): only commands that
// export import it.
package samplesparquet

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/steadysweep/steadysweep/columnar"
)

// NamedTable is a table with the run name written in Write's run column.
type NamedTable struct {
	Name  string
	Table *columnar.Table
}

// Schema is columnar.Schema with a leading "run" (utf8) column.
var Schema = arrow.NewSchema(append([]arrow.Field{{Name: "run", Type: arrow.BinaryTypes.String}}, columnar.Schema.Fields()...), nil)

// Write writes the tables to w as one zstd-compressed Parquet file, one
// row group per table, with Schema. It does not close w.
func Write(w io.Writer, tables []NamedTable) error {
	return write(w, tables, memory.DefaultAllocator)
}

func write(w io.Writer, tables []NamedTable, mem memory.Allocator) error {
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithAllocator(mem),
	)
	fw, err := pqarrow.NewFileWriter(Schema, struct{ io.Writer }{w}, props,
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)))
	if err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	for _, nt := range tables {
		if err := writeNamed(fw, nt, mem); err != nil {
			return errors.Join(fmt.Errorf("parquet %s: %w", nt.Name, err), fw.Close())
		}
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("parquet close: %w", err)
	}
	return nil
}

func writeNamed(fw *pqarrow.FileWriter, nt NamedTable, mem memory.Allocator) error {
	rec := nt.Table.Record
	n := int(rec.NumRows())
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.Reserve(n)
	sb.ReserveData(n * len(nt.Name))
	for i := 0; i < n; i++ {
		sb.Append(nt.Name)
	}
	runCol := sb.NewArray()
	defer runCol.Release()
	cols := make([]arrow.Array, 0, rec.NumCols()+1)
	cols = append(cols, runCol)
	cols = append(cols, rec.Columns()...)
	out := array.NewRecordBatch(Schema, cols, int64(n))
	defer out.Release()
	return fw.Write(out)
}
