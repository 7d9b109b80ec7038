package parquetio

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// DefaultBatchRows is the batch size of Reader.Each when none is given.
const DefaultBatchRows = 64 << 10

// Reader reads a flat Parquet file into Arrow record batches through
// arrow-go's typed column chunk readers (which decode plain and
// dictionary pages alike). Its schema is the one pqarrow infers: a field
// per column, typed by arrowType, nullable when the column is OPTIONAL,
// with the field and schema metadata of the stored ARROW:schema when the
// file has one that fits.
type Reader struct {
	name   string
	pf     *file.Reader
	schema *arrow.Schema
	mem    memory.Allocator
}

// Open opens the Parquet file at path (mem nil: the default allocator).
func Open(path string, mem memory.Allocator) (*Reader, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	pf, err := file.OpenParquetFile(path, false, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r, err := newReader(pf, path, mem)
	if err != nil {
		return nil, errors.Join(err, pf.Close())
	}
	return r, nil
}

// NewReader reads the Parquet file in src, called name in errors. Close
// does not close src.
func NewReader(src parquet.ReaderAtSeeker, name string, mem memory.Allocator) (*Reader, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	pf, err := file.NewParquetReader(src, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return newReader(pf, name, mem)
}

func newReader(pf *file.Reader, name string, mem memory.Allocator) (*Reader, error) {
	sc := pf.MetaData().Schema
	root := sc.Root()
	if sc.NumColumns() != root.NumFields() {
		return nil, fmt.Errorf("%s: nested Parquet schema (%d columns in %d fields): only flat files are read", name, sc.NumColumns(), root.NumFields())
	}
	kv := pf.MetaData().KeyValueMetadata()
	var stored *arrow.Schema
	if v := kv.FindValue(arrowSchemaKey); v != nil {
		// A stored schema that does not fit the columns is ignored, as
		// pqarrow ignores it.
		if s, err := decodeSchema(*v, mem); err == nil && s.NumFields() == sc.NumColumns() {
			stored = s
		}
	}
	fields := make([]arrow.Field, sc.NumColumns())
	for i := range fields {
		col := sc.Column(i)
		if col.MaxRepetitionLevel() > 0 || col.MaxDefinitionLevel() > 1 {
			return nil, fmt.Errorf("%s: column %q is repeated or nested: only flat files are read", name, col.Name())
		}
		typ, ok := arrowType(col)
		if !ok {
			return nil, fmt.Errorf("%s: column %q: unsupported Parquet type %s (logical %s); steadysweep reads %s",
				name, col.Name(), col.PhysicalType(), col.LogicalType(), supported)
		}
		fields[i] = arrow.Field{Name: col.Name(), Type: typ, Nullable: col.MaxDefinitionLevel() > 0}
		if stored != nil && stored.Field(i).HasMetadata() {
			fields[i].Metadata = stored.Field(i).Metadata
		}
	}
	var md *arrow.Metadata
	if stored != nil {
		m := stored.Metadata()
		md = &m
	}
	return &Reader{name: name, pf: pf, schema: arrow.NewSchema(fields, md), mem: mem}, nil
}

// Schema is the file's Arrow schema.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// NumRows is the number of rows in the file.
func (r *Reader) NumRows() int64 { return r.pf.NumRows() }

// NumRowGroups is the number of row groups in the file.
func (r *Reader) NumRowGroups() int { return r.pf.NumRowGroups() }

// KeyValue is the file's key-value metadata entry key, if any.
func (r *Reader) KeyValue(key string) (string, bool) {
	v := r.pf.MetaData().KeyValueMetadata().FindValue(key)
	if v == nil {
		return "", false
	}
	return *v, true
}

// ColumnIndex is the index of the column called name, −1 when none is.
func (r *Reader) ColumnIndex(name string) int {
	if idx := r.schema.FieldIndices(name); len(idx) > 0 {
		return idx[0]
	}
	return -1
}

// Close closes the file (not a source given to NewReader).
func (r *Reader) Close() error { return r.pf.Close() }

// Each calls fn with every batch of at most batchRows rows (≤ 0:
// DefaultBatchRows) of the columns cols (nil: all, in file order), row
// group after row group; a batch never spans row groups. The batch is
// valid during the call. It stops at fn's first error and when ctx ends.
func (r *Reader) Each(ctx context.Context, cols []int, batchRows int, fn func(rec arrow.RecordBatch) error) error {
	if cols == nil {
		cols = make([]int, r.schema.NumFields())
		for i := range cols {
			cols[i] = i
		}
	}
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		if c < 0 || c >= r.schema.NumFields() {
			return fmt.Errorf("%s: no column %d", r.name, c)
		}
		fields[i] = r.schema.Field(c)
	}
	md := r.schema.Metadata()
	sc := arrow.NewSchema(fields, &md)
	readers := make([]*columnReader, len(cols))
	for g := range r.pf.NumRowGroups() {
		if err := r.eachInGroup(ctx, g, cols, batchRows, sc, readers, fn); err != nil {
			return err
		}
	}
	return nil
}

// eachInGroup is Each for row group g; it closes the column chunk readers
// (which hold the current page and its buffers) before it returns.
func (r *Reader) eachInGroup(ctx context.Context, g int, cols []int, batchRows int, sc *arrow.Schema,
	readers []*columnReader, fn func(rec arrow.RecordBatch) error) (err error) {
	rg := r.pf.RowGroup(g)
	clear(readers)
	defer func() {
		for _, cr := range readers {
			if cr == nil {
				continue
			}
			if cerr := cr.cr.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("%s: %w", r.name, cerr)
			}
		}
	}()
	for i, c := range cols {
		cr, err := rg.Column(c)
		if err != nil {
			return fmt.Errorf("%s: row group %d, column %q: %w", r.name, g, sc.Field(i).Name, err)
		}
		readers[i] = &columnReader{cr: cr, field: sc.Field(i)}
	}
	for left := rg.NumRows(); left > 0; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(left, int64(batchRows))
		arrs := make([]arrow.Array, 0, len(cols))
		release := func() {
			for _, a := range arrs {
				a.Release()
			}
		}
		for i, cr := range readers {
			a, err := cr.read(n, r.mem)
			if err != nil {
				release()
				return fmt.Errorf("%s: row group %d, column %q: %w", r.name, g, sc.Field(i).Name, err)
			}
			arrs = append(arrs, a)
		}
		rec := array.NewRecordBatch(sc, arrs, n)
		err := fn(rec)
		rec.Release()
		release()
		if err != nil {
			return err
		}
		left -= n
	}
	return nil
}

// ReadAll reads the columns cols (nil: all) of every row into one record
// batch, which the caller releases.
func (r *Reader) ReadAll(ctx context.Context, cols []int) (arrow.RecordBatch, error) {
	var parts []arrow.RecordBatch
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	err := r.Each(ctx, cols, DefaultBatchRows, func(rec arrow.RecordBatch) error {
		rec.Retain()
		parts = append(parts, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch len(parts) {
	case 0: // no rows: the empty columns
		return r.empty(cols), nil
	case 1:
		parts[0].Retain()
		return parts[0], nil
	}
	rec, err := concatBatches(parts, r.mem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	return rec, nil
}

// concatBatches is the batches' rows in one batch (of the first's schema).
func concatBatches(parts []arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	var n int64
	for _, p := range parts {
		n += p.NumRows()
	}
	out := make([]arrow.Array, parts[0].NumCols())
	defer func() {
		for _, a := range out {
			if a != nil {
				a.Release()
			}
		}
	}()
	chunks := make([]arrow.Array, len(parts))
	for c := range out {
		for i, p := range parts {
			chunks[i] = p.Column(c)
		}
		a, err := array.Concatenate(chunks, mem)
		if err != nil {
			return nil, err
		}
		out[c] = a
	}
	return array.NewRecordBatch(parts[0].Schema(), out, n), nil
}

// empty is a record batch of no rows of the columns cols (nil: all).
func (r *Reader) empty(cols []int) arrow.RecordBatch {
	fields := r.schema.Fields()
	if cols != nil {
		fields = make([]arrow.Field, len(cols))
		for i, c := range cols {
			fields[i] = r.schema.Field(c)
		}
	}
	md := r.schema.Metadata()
	b := array.NewRecordBuilder(r.mem, arrow.NewSchema(fields, &md))
	defer b.Release()
	return b.NewRecordBatch()
}

// columnReader reads one column chunk into Arrow arrays, a batch at a
// time. Its buffers are reused across batches.
type columnReader struct {
	cr    file.ColumnChunkReader
	field arrow.Field
	defs  []int16
	i32   []int32
	i64   []int64
	f64   []float64
	bools []bool
	bytes []parquet.ByteArray
}

// read reads the next n rows. Values are appended right after each
// ReadBatchInPage, while the page that byte arrays point into is current.
func (c *columnReader) read(n int64, mem memory.Allocator) (arrow.Array, error) {
	b := array.NewBuilder(mem, c.field.Type)
	defer b.Release()
	b.Reserve(int(n))
	var defs []int16
	if c.field.Nullable {
		c.defs = grow(c.defs, n)
		defs = c.defs
	}
	for got := int64(0); got < n; {
		want := n - got
		var (
			levels int64
			err    error
		)
		switch cr := c.cr.(type) {
		case *file.BooleanColumnChunkReader:
			levels, err = readInPage(b.(*array.BooleanBuilder), &c.bools, want, defs, cr.ReadBatchInPage)
		case *file.Int32ColumnChunkReader:
			levels, err = readInPage(b.(*array.Int32Builder), &c.i32, want, defs, cr.ReadBatchInPage)
		case *file.Int64ColumnChunkReader:
			levels, err = readInPage(b.(*array.Int64Builder), &c.i64, want, defs, cr.ReadBatchInPage)
		case *file.Float64ColumnChunkReader:
			levels, err = readInPage(b.(*array.Float64Builder), &c.f64, want, defs, cr.ReadBatchInPage)
		case *file.ByteArrayColumnChunkReader:
			levels, err = readInPage(byteArrayBuilder{b.(*array.StringBuilder)}, &c.bytes, want, defs, cr.ReadBatchInPage)
		default:
			return nil, fmt.Errorf("unsupported column reader %T", c.cr)
		}
		if err != nil {
			return nil, err
		}
		if levels == 0 {
			return nil, fmt.Errorf("column chunk ended after %d of %d rows", got, n)
		}
		got += levels
	}
	return b.NewArray(), nil
}

// readInPage reads up to want rows of the current page with read (a
// typed reader's ReadBatchInPage, values into *buf, grown as needed) and
// appends them to b; it returns the rows read.
func readInPage[T any, B builder[T]](b B, buf *[]T, want int64, defs []int16,
	read func(batch int64, values []T, defs, reps []int16) (int64, int, error)) (int64, error) {
	*buf = grow(*buf, want)
	levels, vals, err := read(want, *buf, defs, nil)
	if err == nil {
		appendLevels(b, (*buf)[:vals], defs, levels)
	}
	return levels, err
}

// builder is what appendLevels needs of an Arrow builder.
type builder[T any] interface {
	Append(T)
	AppendNull()
}

// byteArrayBuilder appends Parquet byte arrays (which point into the
// page) to a string builder, copying them.
type byteArrayBuilder struct{ sb *array.StringBuilder }

func (b byteArrayBuilder) Append(v parquet.ByteArray) { b.sb.BinaryBuilder.Append(v) }
func (b byteArrayBuilder) AppendNull()                { b.sb.AppendNull() }

// appendLevels appends levels rows: vals in order where the definition
// level says present, nulls elsewhere (defs nil: a required column, every
// row present).
func appendLevels[T any, B builder[T]](b B, vals []T, defs []int16, levels int64) {
	if defs == nil {
		for _, v := range vals {
			b.Append(v)
		}
		return
	}
	k := 0
	for _, d := range defs[:levels] {
		if d > 0 {
			b.Append(vals[k])
			k++
		} else {
			b.AppendNull()
		}
	}
}

// grow returns s with length at least n (its contents are scratch).
func grow[T any](s []T, n int64) []T {
	if int64(cap(s)) < n {
		return make([]T, n)
	}
	return s[:n]
}
