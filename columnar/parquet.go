package columnar

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
)

// NamedTable is a table with the run name written in ExportParquet's
// run column.
type NamedTable struct {
	Name  string
	Table *Table
}

// ParquetSchema is Schema with a leading "run" (utf8) column.
var ParquetSchema = arrow.NewSchema(append([]arrow.Field{{Name: "run", Type: arrow.BinaryTypes.String}}, Schema.Fields()...), nil)

// ExportParquet writes the tables to w as one zstd-compressed Parquet
// file, one row group per table, with ParquetSchema. It does not close w.
func ExportParquet(w io.Writer, tables []NamedTable) error {
	return exportParquet(w, tables, memory.DefaultAllocator)
}

func exportParquet(w io.Writer, tables []NamedTable, mem memory.Allocator) error {
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithAllocator(mem),
	)
	fw, err := pqarrow.NewFileWriter(ParquetSchema, struct{ io.Writer }{w}, props,
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
	out := array.NewRecordBatch(ParquetSchema, cols, int64(n))
	defer out.Release()
	return fw.Write(out)
}
