package parquetio

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// DefaultBatchRows is the batch size of Reader.Each when none is given.
const DefaultBatchRows = 64 << 10

// ReaderAtSeeker is a Parquet file's bytes: read at offsets, its size
// found by seeking to the end (an *os.File, a *bytes.Reader).
type ReaderAtSeeker interface {
	io.ReaderAt
	io.Seeker
}

// Reader reads a flat Parquet file into column batches, column chunk by
// column chunk (chunk_reader.go). Its schema is the one pqarrow infers:
// a field per column, typed by columnType, nullable when the
// column is OPTIONAL, with the field and schema metadata of the stored
// ARROW:schema when the file has one that fits.
type Reader struct {
	name   string
	src    io.ReaderAt
	size   int64
	closer io.Closer // the file Open opened
	meta   *fileMeta
	leaves []schemaElement
	schema *batch.Schema
}

// Open opens the Parquet file at path.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, path)
	if err != nil {
		return nil, errors.Join(err, f.Close())
	}
	r.closer = f
	return r, nil
}

// NewReader reads the Parquet file in src, called name in errors. Close
// does not close src.
func NewReader(src ReaderAtSeeker, name string) (*Reader, error) {
	size, err := src.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := &Reader{name: name, src: src, size: size}
	if err := r.readFooter(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := r.readSchema(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}

// readFooter reads and checks the file's trailer and FileMetaData: the
// footer length against the file, then every row group's column chunks
// against the bytes before the footer.
func (r *Reader) readFooter() error {
	if r.size < 12 {
		return fmt.Errorf("not a Parquet file: %d bytes", r.size)
	}
	var tail [8]byte
	if _, err := r.src.ReadAt(tail[:], r.size-8); err != nil {
		return err
	}
	switch string(tail[4:]) {
	case magic:
	case "PARE":
		return fmt.Errorf("an encrypted Parquet footer: not read")
	default:
		return fmt.Errorf("not a Parquet file: it ends in %q, not %q", tail[4:], magic)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > r.size-12 {
		return fmt.Errorf("footer length %d in a file of %d bytes", n, r.size)
	}
	var head [4]byte
	if _, err := r.src.ReadAt(head[:], 0); err != nil {
		return err
	}
	if string(head[:]) != magic {
		return fmt.Errorf("not a Parquet file: it starts with %q", head[:])
	}
	footer := make([]byte, n)
	if _, err := r.src.ReadAt(footer, r.size-8-n); err != nil {
		return err
	}
	m, err := decodeFileMeta(footer)
	if err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	r.meta = m
	end := r.size - 8 - n // column chunks lie in [4, end)
	if m.numRows < 0 {
		return fmt.Errorf("footer: num_rows %d", m.numRows)
	}
	for g, rg := range m.rowGroups {
		if rg.numRows < 0 {
			return fmt.Errorf("row group %d: num_rows %d", g, rg.numRows)
		}
		for c, cc := range rg.columns {
			if err := checkChunk(cc, end); err != nil {
				return fmt.Errorf("row group %d, column %d: %w", g, c, err)
			}
		}
	}
	return nil
}

// checkChunk checks a column chunk's metadata: present, in this file,
// its bytes inside the file's data.
func checkChunk(cc columnChunk, end int64) error {
	if !cc.hasMeta {
		return fmt.Errorf("meta_data: missing")
	}
	if cc.filePath != "" {
		return fmt.Errorf("file_path: the chunk is in another file (%q): not read", cc.filePath)
	}
	m := cc.meta
	start := chunkStart(m)
	switch {
	case start < 4 || start > end:
		return fmt.Errorf("meta_data.data_page_offset: %d outside the file's data [4, %d)", start, end)
	case m.compressedSize < 0 || m.compressedSize > end-start:
		return fmt.Errorf("meta_data.total_compressed_size: %d bytes from offset %d, the data ends at %d", m.compressedSize, start, end)
	case m.numValues < 0:
		return fmt.Errorf("meta_data.num_values: %d", m.numValues)
	}
	return nil
}

// chunkStart is the offset of a chunk's first page: its dictionary page
// when it has one. Some writers leave dictionary_page_offset 0 for none
// (parquet-mr did), so only an offset before the data pages counts.
func chunkStart(m columnMeta) int64 {
	if m.hasDictOffset && m.dictPageOffset > 0 && m.dictPageOffset < m.dataPageOffset {
		return m.dictPageOffset
	}
	return m.dataPageOffset
}

// readSchema makes the batch schema of a flat file.
func (r *Reader) readSchema() error {
	els := r.meta.schema
	if len(els) == 0 {
		return fmt.Errorf("footer: schema: empty")
	}
	leaves := els[1:]
	if int(els[0].numChildren) != len(leaves) {
		return fmt.Errorf("nested Parquet schema (%d columns in %d fields): only flat files are read", len(leaves), els[0].numChildren)
	}
	var stored *storedSchema
	if v, ok := r.KeyValue(arrowSchemaKey); ok {
		// A stored schema that does not fit the columns is ignored, as
		// pqarrow ignores it.
		if s, err := decodeSchema(v); err == nil && len(s.fieldMeta) == len(leaves) {
			stored = s
		}
	}
	fields := make([]batch.Field, len(leaves))
	for i, e := range leaves {
		if !e.hasType || e.numChildren > 0 || e.repetition == repRepeated {
			return fmt.Errorf("column %q is repeated or nested: only flat files are read", e.name)
		}
		typ, ok := columnType(e)
		if !ok {
			return fmt.Errorf("column %q: unsupported Parquet type %s; steadysweep reads %s", e.name, e.describe(), supported)
		}
		fields[i] = batch.Field{Name: e.name, Type: typ, Nullable: e.repetition == repOptional}
		if stored != nil {
			fields[i].Metadata = stored.fieldMeta[i]
		}
	}
	for g, rg := range r.meta.rowGroups {
		if len(rg.columns) != len(leaves) {
			return fmt.Errorf("row group %d: columns: %d chunks for %d columns", g, len(rg.columns), len(leaves))
		}
		for c, cc := range rg.columns {
			if cc.meta.typ != leaves[c].typ {
				return fmt.Errorf("row group %d, column %q: meta_data.type: %s, the schema says %s", g, leaves[c].name, typeName(cc.meta.typ), typeName(leaves[c].typ))
			}
		}
	}
	var md *batch.Metadata
	if stored != nil {
		md = &stored.meta
	}
	r.leaves = leaves
	r.schema = batch.NewSchema(fields, md)
	return nil
}

// Schema is the file's schema.
func (r *Reader) Schema() *batch.Schema { return r.schema }

// NumRows is the number of rows in the file (its footer's num_rows).
func (r *Reader) NumRows() int64 { return r.meta.numRows }

// NumRowGroups is the number of row groups in the file.
func (r *Reader) NumRowGroups() int { return len(r.meta.rowGroups) }

// KeyValue is the file's key-value metadata entry key, if any.
func (r *Reader) KeyValue(key string) (string, bool) {
	for _, kv := range r.meta.kv {
		if kv.key == key {
			return kv.value, true
		}
	}
	return "", false
}

// ColumnIndex is the index of the column called name, −1 when none is.
func (r *Reader) ColumnIndex(name string) int {
	return r.schema.FieldIndex(name)
}

// Close closes the file (not a source given to NewReader).
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

// Each calls fn with every batch of at most batchRows rows (≤ 0:
// DefaultBatchRows) of the columns cols (nil: all, in file order), row
// group after row group; a batch never spans row groups. Each batch has
// columns of its own, never reused or reset, so it (and the strings
// batch.Column.StrView gives) may outlive the call. It stops at fn's
// first error and when ctx ends.
func (r *Reader) Each(ctx context.Context, cols []int, batchRows int, fn func(rec *batch.Batch) error) error {
	cols = colsOrAll(cols, r.schema.NumFields())
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	empty, err := r.batchOf(cols)
	if err != nil {
		return err
	}
	readers := make([]*chunkReader, len(cols))
	for g := range r.meta.rowGroups {
		if err := r.eachInGroup(ctx, g, cols, batchRows, empty.Schema(), readers, fn); err != nil {
			return err
		}
	}
	return nil
}

// batchOf is an empty batch of the columns cols, with the file's schema
// metadata.
func (r *Reader) batchOf(cols []int) (*batch.Batch, error) {
	fields := make([]batch.Field, len(cols))
	for i, c := range cols {
		if c < 0 || c >= r.schema.NumFields() {
			return nil, fmt.Errorf("%s: no column %d", r.name, c)
		}
		fields[i] = r.schema.Field(c)
	}
	md := r.schema.Metadata()
	return batch.New(batch.NewSchema(fields, &md)), nil
}

// eachInGroup is Each for row group g.
func (r *Reader) eachInGroup(ctx context.Context, g int, cols []int, batchRows int, sc *batch.Schema,
	readers []*chunkReader, fn func(rec *batch.Batch) error) error {
	rg := r.meta.rowGroups[g]
	for i, c := range cols {
		cr, err := r.openChunk(rg.columns[c], rg.numRows, r.leaves[c], sc.Field(i))
		if err != nil {
			return fmt.Errorf("%s: row group %d, column %q: %w", r.name, g, sc.Field(i).Name, err)
		}
		readers[i] = cr
	}
	for left := rg.numRows; left > 0; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(left, int64(batchRows))
		out := batch.New(sc)
		for i, cr := range readers {
			out.Column(i).Reserve(int(n))
			if err := cr.next(out.Column(i), int(n)); err != nil {
				return fmt.Errorf("%s: row group %d, column %q: %w", r.name, g, sc.Field(i).Name, err)
			}
		}
		if err := fn(out); err != nil {
			return err
		}
		left -= n
	}
	return nil
}

// openChunk reads a column chunk's bytes (checked against the file when
// the footer was read) for its reader.
func (r *Reader) openChunk(cc columnChunk, rows int64, leaf schemaElement, f batch.Field) (*chunkReader, error) {
	m := cc.meta
	buf := make([]byte, m.compressedSize)
	if _, err := r.src.ReadAt(buf, chunkStart(m)); err != nil {
		return nil, err
	}
	return newChunkReader(buf, rows, leaf, f, Codec(m.codec))
}

// ReadAll reads the columns cols (nil: all) of every row into one batch.
func (r *Reader) ReadAll(ctx context.Context, cols []int) (*batch.Batch, error) {
	var all *batch.Batch
	err := r.Each(ctx, cols, DefaultBatchRows, func(rec *batch.Batch) error {
		if all == nil {
			all = batch.New(rec.Schema())
		}
		for i, c := range rec.Columns() {
			all.Column(i).AppendColumn(c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if all == nil { // no rows: the empty columns
		return r.batchOf(colsOrAll(cols, r.schema.NumFields()))
	}
	return all, nil
}

// colsOrAll is cols, or every column index of n when cols is nil.
func colsOrAll(cols []int, n int) []int {
	if cols != nil {
		return cols
	}
	cols = make([]int, n)
	for i := range cols {
		cols[i] = i
	}
	return cols
}
