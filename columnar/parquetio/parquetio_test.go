package parquetio

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The oracle of these tests is pqarrow, the bridge this package replaces
// (a test dependency only: the binary does not link it). Files written
// here must be the bytes pqarrow writes from the same batches, and files
// pqarrow wrote must read back as pqarrow reads them.

// testSchema has every supported type, nullable and not, with field and
// schema metadata (the rows tables keep "unit" and the schema version
// there).
func testSchema() *arrow.Schema {
	unit := func(u string) arrow.Metadata { return arrow.NewMetadata([]string{"unit"}, []string{u}) }
	md := arrow.NewMetadata([]string{"steadysweep.schema_version", "other"}, []string{"3", "x"})
	return arrow.NewSchema([]arrow.Field{
		{Name: "run_id", Type: arrow.BinaryTypes.String},
		{Name: "status", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true, Metadata: unit("ns")},
		{Name: "n_req", Type: arrow.PrimitiveTypes.Int64},
		{Name: "version", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "turn", Type: arrow.PrimitiveTypes.Int32},
		{Name: "tpot", Type: arrow.PrimitiveTypes.Float64, Nullable: true, Metadata: unit("s")},
		{Name: "cov", Type: arrow.PrimitiveTypes.Float64},
		{Name: "found", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "failed", Type: arrow.FixedWidthTypes.Boolean},
	}, &md)
}

// testRecord is n rows of testSchema from seed: about one value in
// nullEvery of each nullable column null (none when nullEvery is 0),
// strings drawn from a few values (so dictionaries pay) and empty ones.
func testRecord(t testing.TB, n int, seed uint64, nullEvery int) arrow.RecordBatch {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	b := array.NewRecordBuilder(memory.DefaultAllocator, testSchema())
	defer b.Release()
	null := func() bool { return nullEvery > 0 && rng.IntN(nullEvery) == 0 }
	words := []string{"", "ok", "no-steady-state", "error", "ünïcødé", strings.Repeat("long", 40)}
	for i := range n {
		b.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("run-%d", rng.IntN(n/3+1)))
		if null() {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(words[rng.IntN(len(words))])
		}
		if null() {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Int64Builder).Append(rng.Int64() - rng.Int64())
		}
		b.Field(3).(*array.Int64Builder).Append(int64(i))
		if null() {
			b.Field(4).AppendNull()
		} else {
			b.Field(4).(*array.Int32Builder).Append(int32(rng.IntN(4)))
		}
		b.Field(5).(*array.Int32Builder).Append(rng.Int32())
		if null() {
			b.Field(6).AppendNull()
		} else {
			b.Field(6).(*array.Float64Builder).Append(rng.NormFloat64())
		}
		b.Field(7).(*array.Float64Builder).Append(rng.Float64())
		if null() {
			b.Field(8).AppendNull()
		} else {
			b.Field(8).(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
		}
		b.Field(9).(*array.BooleanBuilder).Append(rng.IntN(3) == 0)
	}
	return b.NewRecordBatch()
}

// propsCases are the writer properties the tables use: zstd with
// dictionaries for chosen columns and small row groups (rows, series),
// snappy with the defaults (calibration.parquet), the library's defaults
// (dictionary everywhere, uncompressed), and tiny pages (many pages per
// chunk, a dictionary that falls back to plain).
func propsCases() map[string]*parquet.WriterProperties {
	return map[string]*parquet.WriterProperties{
		"rows": parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd),
			parquet.WithDictionaryDefault(false), parquet.WithDictionaryFor("run_id", true),
			parquet.WithDictionaryFor("status", true), parquet.WithMaxRowGroupLength(1000),
			parquet.WithCreatedBy("steadysweep")),
		"calibration": parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy)),
		"defaults":    parquet.NewWriterProperties(),
		"tiny pages": parquet.NewWriterProperties(parquet.WithDataPageSize(512), parquet.WithDictionaryPageSizeLimit(256),
			parquet.WithMaxRowGroupLength(700), parquet.WithBatchSize(100)),
	}
}

// batchWriter is what Writer and pqarrow.FileWriter have in common.
type batchWriter interface {
	Write(arrow.RecordBatch) error
	WriteBuffered(arrow.RecordBatch) error
	Close() error
}

// writeOurs and writePqarrow write the batches (buffered: WriteBuffered,
// else Write) with this package and with pqarrow.
func writeOurs(t *testing.T, props *parquet.WriterProperties, buffered bool, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, recs[0].Schema(), props)
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, w, buffered, recs)
	return buf.Bytes()
}

func writePqarrow(t *testing.T, props *parquet.WriterProperties, arrProps pqarrow.ArrowWriterProperties, buffered bool, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(recs[0].Schema(), &buf, props, arrProps)
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, w, buffered, recs)
	return buf.Bytes()
}

func writeAll(t *testing.T, w batchWriter, buffered bool, recs []arrow.RecordBatch) {
	t.Helper()
	for _, rec := range recs {
		write := w.Write
		if buffered {
			write = w.WriteBuffered
		}
		if err := write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameFile fails unless ours is the file theirs is: the same bytes up to
// the footer (every page, header and statistic) and the same footer once
// each column chunk's page-encoding counts are put in one order (pqarrow
// writes them in map order: two of its own runs differ there).
func sameFile(t *testing.T, ours, theirs []byte) {
	t.Helper()
	fo, ft := footerStart(t, ours), footerStart(t, theirs)
	if !bytes.Equal(ours[:fo], theirs[:ft]) {
		t.Fatalf("pages differ: %d bytes before the footer, pqarrow writes %d different ones", fo, ft)
	}
	if a, b := normalFooter(t, ours), normalFooter(t, theirs); !bytes.Equal(a, b) {
		t.Fatalf("footers differ:\n%q\n%q", a, b)
	}
}

// footerStart is the offset of the Parquet footer: its length is the
// 4 bytes before the closing magic.
func footerStart(t *testing.T, b []byte) int {
	t.Helper()
	if len(b) < 12 || string(b[len(b)-4:]) != "PAR1" {
		t.Fatal("not a Parquet file")
	}
	return len(b) - 8 - int(binary.LittleEndian.Uint32(b[len(b)-8:]))
}

func normalFooter(t *testing.T, b []byte) []byte {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	md := pf.MetaData()
	for _, rg := range md.RowGroups {
		for _, c := range rg.Columns {
			s := c.MetaData.EncodingStats
			sort.Slice(s, func(i, j int) bool {
				return s[i].PageType < s[j].PageType || s[i].PageType == s[j].PageType && s[i].Encoding < s[j].Encoding
			})
		}
	}
	out, err := md.Serialize(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWritesWhatPqarrowWrites: for every property set, Write and
// WriteBuffered, dense and sparse batches, one and several, the file is
// the one pqarrow.FileWriter (WithStoreSchema) writes (sameFile).
func TestWritesWhatPqarrowWrites(t *testing.T) {
	store := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())
	for name, props := range propsCases() {
		for _, buffered := range []bool{false, true} {
			for _, shape := range []struct {
				name           string
				rows           []int
				nullEvery      int
				sliceFrom, cut int
			}{
				{"dense", []int{2500}, 0, 0, 0},
				{"nulls", []int{2500}, 5, 0, 0},
				{"all null", []int{300}, 1, 0, 0},
				{"batches", []int{10, 999, 1, 1500, 700}, 3, 0, 0},
				{"slice", []int{3000}, 4, 17, 1234},
				{"empty", []int{0}, 0, 0, 0},
			} {
				t.Run(fmt.Sprintf("%s/buffered=%v/%s", name, buffered, shape.name), func(t *testing.T) {
					var recs []arrow.RecordBatch
					for i, n := range shape.rows {
						rec := testRecord(t, n, uint64(i+1), shape.nullEvery)
						if shape.cut > 0 { // a slice: non-zero offsets into the Arrow buffers
							s := rec.NewSlice(int64(shape.sliceFrom), int64(shape.cut))
							rec.Release()
							rec = s
						}
						defer rec.Release()
						recs = append(recs, rec)
					}
					sameFile(t, writeOurs(t, props, buffered, recs...), writePqarrow(t, props, store, buffered, recs...))
				})
			}
		}
	}
}

// readPqarrow reads a whole file with pqarrow into one record batch,
// without the "PARQUET:field_id" of -1 pqarrow adds to every field (our
// files have no field ids and our readers do not invent them).
func readPqarrow(t *testing.T, b []byte) arrow.RecordBatch {
	t.Helper()
	mem := memory.DefaultAllocator
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(b), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	cols := make([]arrow.Array, tbl.NumCols())
	for i := range cols {
		a, err := array.Concatenate(tbl.Column(i).Data().Chunks(), mem)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release()
		cols[i] = a
	}
	fields := tbl.Schema().Fields()
	for i, f := range fields {
		if k := f.Metadata.FindKey("PARQUET:field_id"); k >= 0 && f.Metadata.Values()[k] == "-1" {
			var keys, vals []string
			for j, key := range f.Metadata.Keys() {
				if j != k {
					keys, vals = append(keys, key), append(vals, f.Metadata.Values()[j])
				}
			}
			fields[i].Metadata = arrow.NewMetadata(keys, vals)
		}
	}
	// ReadTable's schema has no schema metadata; the file reader's
	// Schema (what rows_drop rewrote files with) has.
	pf, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	md := sc.Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, tbl.NumRows())
}

// equalBatches reports how got differs from want: schema (names, types,
// nullability, field and schema metadata) and every value.
func equalBatches(t *testing.T, got, want arrow.RecordBatch) {
	t.Helper()
	if !got.Schema().Equal(want.Schema()) || !got.Schema().Metadata().Equal(want.Schema().Metadata()) {
		t.Fatalf("schema\n%s\nwant\n%s", got.Schema(), want.Schema())
	}
	for i, f := range want.Schema().Fields() {
		if !got.Schema().Field(i).Metadata.Equal(f.Metadata) {
			t.Errorf("field %s metadata %v, want %v", f.Name, got.Schema().Field(i).Metadata, f.Metadata)
		}
	}
	if !array.RecordEqual(got, want) {
		t.Fatalf("values differ:\n%v\nwant\n%v", got, want)
	}
}

// TestReadsWhatPqarrowReads: files pqarrow wrote (with and without the
// stored schema; plain, dictionary and fallen-back pages; one and many
// row groups) read as pqarrow reads them, whatever the batch size.
func TestReadsWhatPqarrowReads(t *testing.T) {
	for name, props := range propsCases() {
		for _, arrProps := range map[string]pqarrow.ArrowWriterProperties{
			"stored schema": pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()),
			"no schema":     pqarrow.DefaultWriterProps(),
		} {
			rec := testRecord(t, 3000, 9, 4)
			defer rec.Release()
			b := writePqarrow(t, props, arrProps, false, rec)
			want := readPqarrow(t, b)
			defer want.Release()
			for _, batch := range []int{0, 1, 333, 1 << 20} {
				t.Run(fmt.Sprintf("%s/%v/batch=%d", name, arrProps, batch), func(t *testing.T) {
					r, err := NewReader(bytes.NewReader(b), "test.parquet", nil)
					if err != nil {
						t.Fatal(err)
					}
					defer r.Close()
					var parts []arrow.RecordBatch
					err = r.Each(context.Background(), nil, batch, func(rec arrow.RecordBatch) error {
						if batch > 0 && rec.NumRows() > int64(batch) {
							t.Errorf("batch of %d rows, asked for %d", rec.NumRows(), batch)
						}
						rec.Retain()
						parts = append(parts, rec)
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					got := concat(t, parts)
					defer got.Release()
					equalBatches(t, got, want)
					all, err := r.ReadAll(context.Background(), nil)
					if err != nil {
						t.Fatal(err)
					}
					defer all.Release()
					equalBatches(t, all, want)
				})
			}
		}
	}
}

func concat(t *testing.T, parts []arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	rec, err := concatBatches(parts, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestRoundTrip: our files read back as written, column subsets
// included, and pqarrow reads them identically (metadata included).
func TestRoundTrip(t *testing.T) {
	rec := testRecord(t, 2000, 3, 3)
	defer rec.Release()
	props := propsCases()["rows"]
	b := writeOurs(t, props, false, rec)
	r, err := NewReader(bytes.NewReader(b), "round.parquet", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.NumRowGroups() != 2 || r.NumRows() != 2000 {
		t.Errorf("%d row groups of %d rows, want 2 of 2000 (row groups of 1000)", r.NumRowGroups(), r.NumRows())
	}
	if v, ok := r.KeyValue("steadysweep.schema_version"); !ok || v != "3" {
		t.Errorf("schema version metadata %q %v", v, ok)
	}
	got, err := r.ReadAll(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	equalBatches(t, got, rec)
	theirs := readPqarrow(t, b)
	defer theirs.Release()
	equalBatches(t, theirs, rec)

	cols := []int{r.ColumnIndex("tpot"), r.ColumnIndex("run_id")}
	sub, err := r.ReadAll(context.Background(), cols)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Release()
	if sub.NumCols() != 2 || sub.ColumnName(0) != "tpot" || sub.ColumnName(1) != "run_id" ||
		!array.Equal(sub.Column(0), rec.Column(6)) || !array.Equal(sub.Column(1), rec.Column(0)) {
		t.Errorf("columns tpot, run_id read as %v", sub)
	}
	if sub.Schema().Field(0).Metadata.FindKey("unit") < 0 {
		t.Error("unit lost from the tpot field")
	}
	if r.ColumnIndex("nope") != -1 {
		t.Error("a missing column has an index")
	}

	empty := testRecord(t, 0, 1, 0)
	defer empty.Release()
	e, err := NewReader(bytes.NewReader(writeOurs(t, props, false, empty)), "empty.parquet", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	none, err := e.ReadAll(context.Background(), []int{0})
	if err != nil {
		t.Fatal(err)
	}
	defer none.Release()
	if none.NumRows() != 0 || none.NumCols() != 1 || none.ColumnName(0) != "run_id" {
		t.Errorf("an empty file reads as %v", none)
	}
}

// TestNoLeaks: what the writer and the reader allocate through the
// allocator is released (a sweep writes and resumes thousands of files).
func TestNoLeaks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := testRecord(t, 3000, 5, 4)
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithAllocator(mem), parquet.WithMaxRowGroupLength(1000),
		parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryFor("run_id", true))
	var buf bytes.Buffer
	w, err := NewWriter(&buf, rec.Schema(), props)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(w.Write(rec), w.WriteBuffered(rec), w.Close()); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(buf.Bytes()), "leak.parquet", mem)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, err := r.ReadAll(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	all.Release()
	stop := errors.New("stop")
	if err := r.Each(context.Background(), []int{1, 4}, 100, func(arrow.RecordBatch) error { return stop }); !errors.Is(err, stop) {
		t.Fatal(err)
	}
}

// TestEachStops: fn's error and a cancelled context end Each.
func TestEachStops(t *testing.T) {
	rec := testRecord(t, 500, 1, 0)
	defer rec.Release()
	b := writeOurs(t, propsCases()["tiny pages"], false, rec)
	r, err := NewReader(bytes.NewReader(b), "x.parquet", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stop := fmt.Errorf("stop")
	calls := 0
	if err := r.Each(context.Background(), nil, 10, func(arrow.RecordBatch) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("Each returned %v after %d calls, want stop after 1", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Each(ctx, nil, 10, func(arrow.RecordBatch) error { return nil }); err != context.Canceled {
		t.Errorf("Each on a cancelled context: %v", err)
	}
}

// TestUnsupported: a column of another type is refused by name, on
// writing and on reading (a file another tool wrote).
func TestUnsupported(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}, {Name: "ratio", Type: arrow.PrimitiveTypes.Float32, Nullable: true}}, nil)
	if _, err := NewWriter(&bytes.Buffer{}, sc, nil); err == nil || !strings.Contains(err.Error(), `column "ratio"`) {
		t.Errorf("writer of a float32 column: %v", err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).Append(1)
	b.Field(1).(*array.Float32Builder).Append(0.5)
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "other.parquet")
	if err := os.WriteFile(path, writePqarrow(t, nil, pqarrow.DefaultWriterProps(), false, rec), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, nil)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `column "ratio"`) || !strings.Contains(err.Error(), "FLOAT") {
		t.Errorf("reading a FLOAT column: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.parquet"), nil); err == nil {
		t.Error("a missing file opened")
	}
	if _, err := NewReader(bytes.NewReader([]byte("PAR1 not parquet")), "junk", nil); err == nil || !strings.Contains(err.Error(), "junk") {
		t.Errorf("junk: %v", err)
	}
}

// TestWriterRefusesMismatches: a batch of another schema, or a null in a
// column that is not nullable, is an error, not a corrupt file.
func TestWriterRefusesMismatches(t *testing.T) {
	rec := testRecord(t, 10, 1, 0)
	defer rec.Release()
	w, err := NewWriter(&bytes.Buffer{}, arrow.NewSchema(rec.Schema().Fields()[:3], nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err == nil {
		t.Error("a batch of 10 columns written to a file of 3")
	}
	sc := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).AppendNull()
	nulls := b.NewRecordBatch()
	defer nulls.Release()
	w, err = NewWriter(&bytes.Buffer{}, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(nulls); err == nil || !strings.Contains(err.Error(), `column "a"`) {
		t.Errorf("a null in a required column: %v", err)
	}
}

// TestDoesNotCloseTheSink: the io.Writer is the caller's (an atomic file
// commits or aborts it after Close).
func TestDoesNotCloseTheSink(t *testing.T) {
	rec := testRecord(t, 10, 1, 0)
	defer rec.Release()
	s := &closeCounter{}
	w, err := NewWriter(s, rec.Schema(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if s.closed != 0 {
		t.Error("the sink was closed")
	}
	if _, err := file.NewParquetReader(bytes.NewReader(s.Bytes())); err != nil {
		t.Errorf("not a Parquet file: %v", err)
	}
}

type closeCounter struct {
	bytes.Buffer
	closed int
}

func (c *closeCounter) Close() error { c.closed++; return nil }
