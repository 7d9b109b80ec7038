package parquetio

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// Writer writes flat Arrow record batches to one Parquet file through
// arrow-go's column chunk writers, as pqarrow's FileWriter with
// WithStoreSchema writes them: the same Parquet schema (parquetNode), the
// same key-value metadata (the Arrow schema's metadata, then
// ARROW:schema), the same page-level calls (spaced writes from the Arrow
// validity bitmap, byte arrays from the Arrow offsets), so the files read
// the same in every Parquet reader and pqarrow's readers.
type Writer struct {
	fw      *file.Writer
	schema  *arrow.Schema
	maxRows int64
	defs    []int16 // definition levels, reused across columns
	bools   []bool

	// buffered is the open row group of WriteBuffered (nil when none) and
	// bufferedRows the rows it holds.
	buffered     file.BufferedRowGroupWriter
	bufferedRows int64
}

// NewWriter starts a Parquet file of schema sc on w with props (nil: the
// library's defaults); the row-group size is props.MaxRowGroupLength. Only
// flat schemas of bool, int32, int64, float64 and utf8 fields are
// supported. w is never closed: Close finishes the file and leaves w to
// the caller (an atomic file commits it).
func NewWriter(w io.Writer, sc *arrow.Schema, props *parquet.WriterProperties) (*Writer, error) {
	if props == nil {
		props = parquet.NewWriterProperties()
	}
	root, err := parquetSchema(sc, props)
	if err != nil {
		return nil, err
	}
	meta := make(metadata.KeyValueMetadata, 0, sc.Metadata().Len()+1)
	md := sc.Metadata()
	for i, k := range md.Keys() {
		if err := meta.Append(k, md.Values()[i]); err != nil {
			return nil, err
		}
	}
	stored, err := encodeSchema(sc, props.Allocator())
	if err != nil {
		return nil, err
	}
	if err := meta.Append(arrowSchemaKey, stored); err != nil {
		return nil, err
	}
	// struct{ io.Writer } hides a Close of w: file.Writer closes an
	// io.Closer sink.
	fw, err := file.NewParquetWriterWithError(struct{ io.Writer }{w}, root, file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, err
	}
	return &Writer{fw: fw, schema: sc, maxRows: props.MaxRowGroupLength()}, nil
}

// Write writes rec as row groups of its own: one, or several of at most
// the row-group size when rec is longer (pqarrow's FileWriter.Write).
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if err := w.check(rec); err != nil {
		return err
	}
	if err := w.closeBuffered(); err != nil {
		return err
	}
	n := rec.NumRows()
	for off := int64(0); off == 0 || off < n; off += w.maxRows {
		size := min(w.maxRows, n-off)
		rg, err := w.fw.AppendRowGroupChecked()
		if err != nil {
			return err
		}
		for c := range int(rec.NumCols()) {
			cw, err := rg.NextColumn()
			if err != nil {
				return err
			}
			if err := w.writeRange(cw, rec.Column(c), off, size); err != nil {
				return err
			}
		}
		if err := rg.Close(); err != nil {
			return err
		}
	}
	return nil
}

// WriteBuffered appends rec to the open row group, starting another each
// time it reaches the row-group size (pqarrow's WriteBuffered): many
// small batches make full row groups.
func (w *Writer) WriteBuffered(rec arrow.RecordBatch) error {
	if err := w.check(rec); err != nil {
		return err
	}
	n := rec.NumRows()
	for off := int64(0); off == 0 || off < n; {
		if w.buffered == nil || w.bufferedRows >= w.maxRows {
			rg, err := w.fw.AppendBufferedRowGroupChecked()
			if err != nil {
				return err
			}
			w.buffered, w.bufferedRows = rg, 0
		}
		size := min(w.maxRows-w.bufferedRows, n-off)
		for c := range int(rec.NumCols()) {
			cw, err := w.buffered.Column(c)
			if err != nil {
				return err
			}
			if err := w.writeRange(cw, rec.Column(c), off, size); err != nil {
				return err
			}
		}
		w.bufferedRows += size
		if off += size; n == 0 {
			break
		}
	}
	return nil
}

// closeBuffered finishes the open WriteBuffered row group, if any.
func (w *Writer) closeBuffered() error {
	if w.buffered == nil {
		return nil
	}
	rg := w.buffered
	w.buffered = nil
	return rg.Close()
}

// Close finishes the open row group and writes the footer. It does not
// close the io.Writer. After an error the file is incomplete: discard it.
func (w *Writer) Close() error {
	return errors.Join(w.closeBuffered(), w.fw.Close())
}

// check refuses a batch whose fields differ from the file's.
func (w *Writer) check(rec arrow.RecordBatch) error {
	got := rec.Schema()
	if got.NumFields() != w.schema.NumFields() {
		return fmt.Errorf("record batch of %d columns for a file of %d", got.NumFields(), w.schema.NumFields())
	}
	for i, f := range got.Fields() {
		if want := w.schema.Field(i); f.Name != want.Name || f.Nullable != want.Nullable || !arrow.TypeEqual(f.Type, want.Type) {
			return fmt.Errorf("record batch column %d is %s, the file's is %s", i, f, want)
		}
	}
	return nil
}

// writeRange writes rows [off, off+size) of a to the column chunk.
func (w *Writer) writeRange(cw file.ColumnChunkWriter, a arrow.Array, off, size int64) error {
	if size == 0 {
		return nil
	}
	if off > 0 || size < int64(a.Len()) {
		a = array.NewSlice(a, off, off+size)
		defer a.Release()
	}
	if err := w.writeColumn(cw, a); err != nil {
		return fmt.Errorf("column %q: %w", cw.Descr().Name(), err)
	}
	return nil
}

// writeColumn writes a to the column chunk as pqarrow's writeDenseArrow
// does for these types: definition levels for a nullable column, the
// Arrow values as they are (with the validity bitmap when there are
// nulls), booleans from the bitmap, strings from the offsets.
func (w *Writer) writeColumn(cw file.ColumnChunkWriter, a arrow.Array) (err error) {
	n := a.Len()
	var defs []int16
	if cw.Descr().MaxDefinitionLevel() > 0 {
		if cap(w.defs) < n {
			w.defs = make([]int16, n)
		}
		defs = w.defs[:n]
		for i := range defs {
			defs[i] = 0
			if a.IsValid(i) {
				defs[i] = 1
			}
		}
	} else if a.NullN() > 0 {
		return fmt.Errorf("%d nulls in a column that is not nullable", a.NullN())
	}
	dense := a.NullN() == 0
	valid, validOff := a.NullBitmapBytes(), int64(a.Data().Offset())
	mismatch := func() error { return fmt.Errorf("an Arrow %s array for a Parquet %s column", a.DataType(), cw.Type()) }
	switch wr := cw.(type) {
	case *file.BooleanColumnChunkWriter:
		b, ok := a.(*array.Boolean)
		if !ok {
			return mismatch()
		}
		if dense {
			_, err = wr.WriteBitmapBatch(b.Data().Buffers()[1].Bytes(), validOff, n, defs, nil)
			break
		}
		if cap(w.bools) < n {
			w.bools = make([]bool, n)
		}
		vals := w.bools[:n]
		for i := range vals {
			vals[i] = b.Value(i)
		}
		_, err = wr.WriteBatchSpacedWithError(vals, defs, nil, valid, validOff)
	case *file.Int32ColumnChunkWriter:
		x, ok := a.(*array.Int32)
		if !ok {
			return mismatch()
		}
		err = writeFixed(wr, x.Int32Values(), defs, dense, valid, validOff)
	case *file.Int64ColumnChunkWriter:
		x, ok := a.(*array.Int64)
		if !ok {
			return mismatch()
		}
		err = writeFixed(wr, x.Int64Values(), defs, dense, valid, validOff)
	case *file.Float64ColumnChunkWriter:
		x, ok := a.(*array.Float64)
		if !ok {
			return mismatch()
		}
		err = writeFixed(wr, x.Float64Values(), defs, dense, valid, validOff)
	case *file.ByteArrayColumnChunkWriter:
		x, ok := a.(*array.String)
		if !ok {
			return mismatch()
		}
		return writeStrings(wr, x, defs, dense)
	default:
		return mismatch()
	}
	return err
}

// fixedWriter is a column chunk writer of fixed-width values T (the
// Int32, Int64 and Float64 ones).
type fixedWriter[T any] interface {
	WriteBatch(values []T, defLevels, repLevels []int16) (int64, error)
	WriteBatchSpacedWithError(values []T, defLevels, repLevels []int16, validBits []byte, validBitsOffset int64) (int64, error)
}

// writeFixed writes the values of a fixed-width column: as they are
// without nulls, spaced by the validity bitmap with them.
func writeFixed[T any](wr fixedWriter[T], vals []T, defs []int16, dense bool, valid []byte, validOff int64) (err error) {
	if dense {
		_, err = wr.WriteBatch(vals, defs, nil)
	} else {
		_, err = wr.WriteBatchSpacedWithError(vals, defs, nil, valid, validOff)
	}
	return err
}

// writeStrings writes a string column from the Arrow value buffer and
// offsets (without a copy when the encoder takes Arrow offsets, as the
// plain and dictionary encoders do).
func writeStrings(wr *file.ByteArrayColumnChunkWriter, x *array.String, defs []int16, dense bool) (err error) {
	var data []byte
	if buf := x.Data().Buffers()[2]; buf != nil {
		data = buf.Bytes()
	}
	offsets := x.ValueOffsets()
	valid, validOff := x.NullBitmapBytes(), int64(x.Data().Offset())
	if wr.SupportsArrowOffsets() {
		if dense {
			_, err = wr.WriteBatchArrow(data, offsets, defs, nil)
		} else {
			_, err = wr.WriteBatchSpacedArrow(data, offsets, defs, nil, valid, validOff)
		}
		return err
	}
	vals := make([]parquet.ByteArray, x.Len())
	for i := range vals {
		vals[i] = parquet.ByteArray(data[offsets[i]:offsets[i+1]])
	}
	if dense {
		_, err = wr.WriteBatch(vals, defs, nil)
	} else {
		_, err = wr.WriteBatchSpacedWithError(vals, defs, nil, valid, validOff)
	}
	return err
}
