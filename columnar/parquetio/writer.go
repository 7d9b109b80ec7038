package parquetio

import (
	"errors"
	"fmt"
	"io"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// Writer writes column batches to one Parquet file: "PAR1",
// row groups of column chunks (chunk_writer.go), the footer with the
// schema's metadata and the Arrow schema itself under
// ARROW:schema (as pqarrow's WithStoreSchema writes it), so DuckDB,
// Polars, pyarrow and pqarrow read the same types and metadata.
type Writer struct {
	w      io.Writer
	pos    int64
	schema *batch.Schema
	leaves []schemaElement
	opts   Options
	meta   fileMeta
	err    error // sticky: after a failed write the file is garbage

	// open is the open row group's chunks (nil when none is open) and
	// openRows its rows.
	open     []*chunkWriter
	openRows int64
}

// NewWriter starts a Parquet file of schema sc on w with opts (nil: the
// zero Options). Only flat schemas of bool, int32, int64, float64 and
// utf8 fields are supported (all batch has). w is never closed: Close finishes the file
// and leaves w to the caller (an atomic file commits it).
func NewWriter(w io.Writer, sc *batch.Schema, opts *Options) (*Writer, error) {
	o := opts.withDefaults()
	elems, err := fileSchema(sc)
	if err != nil {
		return nil, err
	}
	md := sc.Metadata()
	kv := make([]keyValue, 0, md.Len()+1)
	for i, k := range md.Keys() {
		kv = append(kv, keyValue{k, md.Values()[i]})
	}
	kv = append(kv, keyValue{arrowSchemaKey, encodeSchema(sc)})
	fw := &Writer{w: w, schema: sc, leaves: elems[1:], opts: o,
		meta: fileMeta{version: 2, schema: elems, kv: kv, createdBy: o.CreatedBy}}
	if err := fw.out([]byte(magic)); err != nil {
		return nil, err
	}
	return fw, nil
}

// out writes b to the sink, counting the file offset.
func (w *Writer) out(b []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.w.Write(b)
	w.pos += int64(n)
	if err != nil {
		w.err = err
	}
	return err
}

// Write writes rec as row groups of its own: one, or several of at most
// the row-group size when rec is longer (pqarrow's FileWriter.Write); an
// empty rec makes an empty row group, as pqarrow's does.
func (w *Writer) Write(rec *batch.Batch) error {
	if err := w.check(rec); err != nil {
		return err
	}
	if err := w.closeGroup(); err != nil {
		return err
	}
	n := rec.NumRows()
	for off := int64(0); off == 0 || off < n; off += w.opts.MaxRowGroupRows {
		size := min(w.opts.MaxRowGroupRows, n-off)
		if err := w.add(rec, off, size); err != nil {
			return err
		}
		if err := w.closeGroup(); err != nil {
			return err
		}
	}
	return nil
}

// WriteBuffered appends rec to the open row group, starting another each
// time it reaches the row-group size (pqarrow's WriteBuffered): many
// small batches make full row groups.
func (w *Writer) WriteBuffered(rec *batch.Batch) error {
	return w.WriteBufferedRows(rec, 0, rec.NumRows())
}

// WriteBufferedRows is WriteBuffered of rows [from, to) of rec (what
// pqarrow's WriteBuffered did with a slice of rec), without a copy.
func (w *Writer) WriteBufferedRows(rec *batch.Batch, from, to int64) error {
	if err := w.check(rec); err != nil {
		return err
	}
	if from < 0 || to < from || to > rec.NumRows() {
		return fmt.Errorf("rows [%d, %d) of a batch of %d", from, to, rec.NumRows())
	}
	for off, first := from, true; first || off < to; first = false {
		if w.openRows >= w.opts.MaxRowGroupRows {
			if err := w.closeGroup(); err != nil {
				return err
			}
		}
		size := min(w.opts.MaxRowGroupRows-w.openRows, to-off)
		if err := w.add(rec, off, size); err != nil {
			return err
		}
		if off += size; to == from {
			break
		}
	}
	return nil
}

// add appends rows [off, off+size) of rec to the open row group,
// opening one if none is.
func (w *Writer) add(rec *batch.Batch, off, size int64) error {
	if w.err != nil {
		return w.err
	}
	if w.open == nil {
		w.open = make([]*chunkWriter, len(w.leaves))
		for i, f := range w.schema.Fields() {
			w.open[i] = newChunkWriter(f, w.leaves[i], &w.opts)
		}
	}
	for i, c := range w.open {
		if err := c.add(rec.Column(i), int(off), int(size)); err != nil {
			w.err = fmt.Errorf("column %q: %w", c.name, err)
			return w.err
		}
	}
	w.openRows += size
	return nil
}

// closeGroup writes the open row group's chunks, if one is open.
func (w *Writer) closeGroup() error {
	if w.open == nil {
		return w.err
	}
	cols := w.open
	w.open = nil
	g := rowGroup{numRows: w.openRows, fileOffset: w.pos, ordinal: int16(len(w.meta.rowGroups))}
	w.openRows = 0
	for _, c := range cols {
		cc, err := c.finish(w.pos, w.out)
		if err != nil {
			w.err = errors.Join(w.err, fmt.Errorf("column %q: %w", c.name, err))
			return w.err
		}
		g.columns = append(g.columns, cc)
		g.totalByteSize += cc.meta.uncompressedSize
		g.totalCompressedSize += cc.meta.compressedSize
	}
	w.meta.rowGroups = append(w.meta.rowGroups, g)
	w.meta.numRows += g.numRows
	return nil
}

// WriteRecord writes rec as one whole Parquet file on w with opts (nil:
// the zero Options): NewWriter, one Write, Close. w is left open, as Close
// leaves it; after an error the file is incomplete.
func WriteRecord(w io.Writer, rec *batch.Batch, opts *Options) error {
	fw, err := NewWriter(w, rec.Schema(), opts)
	if err != nil {
		return err
	}
	return errors.Join(fw.Write(rec), fw.Close())
}

// Close finishes the open row group and writes the footer. It does not
// close the io.Writer. After an error the file is incomplete: discard it.
func (w *Writer) Close() error {
	if err := w.closeGroup(); err != nil {
		return err
	}
	footer := encodeFileMeta(nil, &w.meta)
	if err := w.out(footer); err != nil {
		return err
	}
	return w.out(footerTrailer(len(footer)))
}

// check refuses a batch whose fields differ from the file's.
func (w *Writer) check(rec *batch.Batch) error {
	got := rec.Schema()
	if got.NumFields() != w.schema.NumFields() {
		return fmt.Errorf("record batch of %d columns for a file of %d", got.NumFields(), w.schema.NumFields())
	}
	for i, f := range got.Fields() {
		if want := w.schema.Field(i); f.Name != want.Name || f.Nullable != want.Nullable || f.Type != want.Type {
			return fmt.Errorf("record batch column %d is %s, the file's is %s", i, f, want)
		}
		if n := rec.Column(i).Len(); int64(n) != rec.NumRows() {
			return fmt.Errorf("record batch column %q has %d rows, the batch %d", f.Name, n, rec.NumRows())
		}
	}
	return nil
}
