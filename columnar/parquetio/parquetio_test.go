package parquetio

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
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

// optionCase is a writer setting as this package's Options and as
// arrow-go's properties (the oracle writes with the latter).
type optionCase struct {
	ours   Options
	theirs []parquet.WriterProperty
}

// optionCases are the settings the tables use: zstd with dictionaries
// for chosen columns and small row groups (rows, series), snappy
// (calibration.parquet), the zero settings, tiny pages (many pages per
// chunk, a dictionary that falls back to PLAIN), version-2 pages, and
// each codec with dictionaries on and off.
func optionCases() map[string]optionCase {
	cases := map[string]optionCase{
		"rows": {Options{Compression: Zstd, Dictionary: []string{"run_id", "status"}, MaxRowGroupRows: 1000, CreatedBy: "steadysweep"},
			[]parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryDefault(false),
				parquet.WithDictionaryFor("run_id", true), parquet.WithDictionaryFor("status", true),
				parquet.WithMaxRowGroupLength(1000), parquet.WithCreatedBy("steadysweep")}},
		"calibration": {Options{Compression: Snappy},
			[]parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDictionaryDefault(false)}},
		"zero": {Options{}, []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}},
		"tiny pages": {Options{PageBytes: 512, PageRows: 100, DictionaryPageBytes: 256, MaxRowGroupRows: 700, DictionaryAll: true},
			[]parquet.WriterProperty{parquet.WithDataPageSize(512), parquet.WithDictionaryPageSizeLimit(256),
				parquet.WithMaxRowGroupLength(700), parquet.WithBatchSize(100)}},
	}
	for _, codec := range []struct {
		ours   Codec
		theirs compress.Compression
	}{{Uncompressed, compress.Codecs.Uncompressed}, {Snappy, compress.Codecs.Snappy}, {Gzip, compress.Codecs.Gzip}, {Zstd, compress.Codecs.Zstd}} {
		for _, v2 := range []bool{false, true} {
			for _, dict := range []bool{false, true} {
				version := parquet.DataPageV1
				if v2 {
					version = parquet.DataPageV2
				}
				cases[fmt.Sprintf("%s/v2=%v/dict=%v", codec.ours, v2, dict)] = optionCase{
					Options{Compression: codec.ours, DataPageV2: v2, DictionaryAll: dict, MaxRowGroupRows: 1500},
					[]parquet.WriterProperty{parquet.WithCompression(codec.theirs), parquet.WithDataPageVersion(version),
						parquet.WithDictionaryDefault(dict), parquet.WithMaxRowGroupLength(1500)},
				}
			}
		}
	}
	return cases
}

// batchWriter is what Writer and pqarrow.FileWriter have in common, the
// former through ourWriter.
type batchWriter interface {
	Write(arrow.RecordBatch) error
	WriteBuffered(arrow.RecordBatch) error
	Close() error
}

// ourWriter writes Arrow batches with Writer, copied into batches.
type ourWriter struct{ w *Writer }

func (o ourWriter) Write(rec arrow.RecordBatch) error { return o.w.Write(arrowbatch.Batch(rec)) }
func (o ourWriter) WriteBuffered(rec arrow.RecordBatch) error {
	return o.w.WriteBuffered(arrowbatch.Batch(rec))
}
func (o ourWriter) Close() error { return o.w.Close() }

// writeOurs and writePqarrow write the batches (buffered: WriteBuffered,
// else Write) with this package and with pqarrow.
func writeOurs(t testing.TB, opts *Options, buffered bool, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, arrowbatch.Schema(recs[0].Schema()), opts)
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, ourWriter{w}, buffered, recs)
	return buf.Bytes()
}

func writePqarrow(t *testing.T, props []parquet.WriterProperty, arrProps pqarrow.ArrowWriterProperties, buffered bool, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(recs[0].Schema(), &buf, parquet.NewWriterProperties(props...), arrProps)
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, w, buffered, recs)
	return buf.Bytes()
}

func writeAll(t testing.TB, w batchWriter, buffered bool, recs []arrow.RecordBatch) {
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

// shapes are the batches a test writes: dense, with nulls, all null,
// several of odd sizes, a slice (non-zero offsets into the Arrow
// buffers), none.
var shapes = []struct {
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
}

// TestArrowGoReadsOurs: for every setting, Write and WriteBuffered, every
// shape, pqarrow reads our file as the batches written (values, types,
// nullability, field and schema metadata), our reader too, and arrow-go's
// column statistics are the null count, minimum and maximum of each row
// group's values, computed here from the batches.
func TestArrowGoReadsOurs(t *testing.T) {
	for name, oc := range optionCases() {
		for _, buffered := range []bool{false, true} {
			for _, shape := range shapes {
				t.Run(fmt.Sprintf("%s/buffered=%v/%s", name, buffered, shape.name), func(t *testing.T) {
					var recs []arrow.RecordBatch
					for i, n := range shape.rows {
						rec := testRecord(t, n, uint64(i+1), shape.nullEvery)
						if shape.cut > 0 {
							s := rec.NewSlice(int64(shape.sliceFrom), int64(shape.cut))
							rec.Release()
							rec = s
						}
						defer rec.Release()
						recs = append(recs, rec)
					}
					b := writeOurs(t, &oc.ours, buffered, recs...)
					all := concat(t, retained(recs))
					defer all.Release()
					theirs := readPqarrow(t, b)
					defer theirs.Release()
					equalBatches(t, theirs, all)
					r, err := NewReader(bytes.NewReader(b), "ours.parquet")
					if err != nil {
						t.Fatal(err)
					}
					got := readAllArrow(t, r, nil)
					defer got.Release()
					equalBatches(t, got, all)
					checkStatistics(t, b, all)
				})
			}
		}
	}
}

// retained is recs, each retained once more (concat releases its parts).
func retained(recs []arrow.RecordBatch) []arrow.RecordBatch {
	for _, r := range recs {
		r.Retain()
	}
	return slices.Clone(recs)
}

// checkStatistics compares arrow-go's reading of each column chunk's
// statistics with the null count and bounds of the rows it holds.
func checkStatistics(t *testing.T, b []byte, all arrow.RecordBatch) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	off := int64(0)
	for g := range pf.NumRowGroups() {
		rg := pf.MetaData().RowGroup(g)
		n := rg.NumRows()
		for c := range int(all.NumCols()) {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			st, err := cc.Statistics()
			if err != nil || st == nil {
				t.Fatalf("row group %d column %d: no statistics (%v)", g, c, err)
			}
			col := array.NewSlice(all.Column(c), off, off+n)
			want := fmt.Sprint(int64(col.NullN()), col.NullN() < col.Len(), bounds(col))
			got := fmt.Sprint(st.NullCount(), st.HasMinMax(), statBounds(st))
			col.Release()
			if got != want {
				t.Errorf("row group %d column %s: statistics %s, the rows say %s", g, all.ColumnName(c), got, want)
			}
		}
		off += n
	}
}

// bounds is "min max" of a column's non-null values in its Parquet order.
func bounds(a arrow.Array) string {
	var lo, hi any
	less := func(x, y any) bool {
		switch x := x.(type) {
		case bool:
			return !x && y.(bool)
		case int32:
			return x < y.(int32)
		case int64:
			return x < y.(int64)
		case float64:
			return x < y.(float64)
		case string:
			return x < y.(string)
		}
		return false
	}
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		var v any
		switch x := a.(type) {
		case *array.Boolean:
			v = x.Value(i)
		case *array.Int32:
			v = x.Value(i)
		case *array.Int64:
			v = x.Value(i)
		case *array.Float64:
			v = x.Value(i)
		case *array.String:
			v = x.Value(i)
		}
		if lo == nil || less(v, lo) {
			lo = v
		}
		if hi == nil || less(hi, v) {
			hi = v
		}
	}
	if lo == nil {
		return "none"
	}
	return fmt.Sprint(lo, " ", hi)
}

func statBounds(st metadata.TypedStatistics) string {
	if !st.HasMinMax() {
		return "none"
	}
	switch s := st.(type) {
	case *metadata.BooleanStatistics:
		return fmt.Sprint(s.Min(), " ", s.Max())
	case *metadata.Int32Statistics:
		return fmt.Sprint(s.Min(), " ", s.Max())
	case *metadata.Int64Statistics:
		return fmt.Sprint(s.Min(), " ", s.Max())
	case *metadata.Float64Statistics:
		return fmt.Sprint(s.Min(), " ", s.Max())
	case *metadata.ByteArrayStatistics:
		return fmt.Sprint(string(s.Min()), " ", string(s.Max()))
	}
	return fmt.Sprintf("%T", st)
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

// encodingCases are arrow-go writer settings of the encodings other
// writers use and we never write: DELTA_BINARY_PACKED integers,
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY strings, BYTE_STREAM_SPLIT
// doubles and integers, RLE booleans (version-2 pages), with and without
// compression.
func encodingCases() map[string][]parquet.WriterProperty {
	delta := []parquet.WriterProperty{parquet.WithDictionaryDefault(false),
		parquet.WithEncodingFor("n", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("n_req", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("version", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("turn", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("run_id", parquet.Encodings.DeltaByteArray),
		parquet.WithEncodingFor("status", parquet.Encodings.DeltaLengthByteArray),
		parquet.WithEncodingFor("tpot", parquet.Encodings.ByteStreamSplit),
		parquet.WithEncodingFor("cov", parquet.Encodings.ByteStreamSplit),
		parquet.WithEncodingFor("found", parquet.Encodings.RLE),
		parquet.WithEncodingFor("failed", parquet.Encodings.RLE),
		parquet.WithMaxRowGroupLength(1100), parquet.WithDataPageSize(4096)}
	return map[string][]parquet.WriterProperty{
		"delta v1":      delta,
		"delta v2 zstd": append(slices.Clone(delta), parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithCompression(compress.Codecs.Zstd)),
		"delta v2 gzip": append(slices.Clone(delta), parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithCompression(compress.Codecs.Gzip)),
	}
}

// TestReadsWhatPqarrowReads: files pqarrow wrote (with and without the
// stored schema; every codec, version-1 and -2 pages, plain, dictionary,
// fallen-back and delta pages; one and many row groups) read as pqarrow
// reads them, whatever the batch size.
func TestReadsWhatPqarrowReads(t *testing.T) {
	cases := encodingCases()
	for name, oc := range optionCases() {
		cases[name] = oc.theirs
	}
	for name, props := range cases {
		for _, arrProps := range map[string]pqarrow.ArrowWriterProperties{
			"stored schema": pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()),
			"no schema":     pqarrow.DefaultWriterProps(),
		} {
			rec := testRecord(t, 3000, 9, 4)
			defer rec.Release()
			b := writePqarrow(t, props, arrProps, false, rec)
			if strings.HasPrefix(name, "delta") {
				checkEncodings(t, b, "DELTA_BYTE_ARRAY", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BINARY_PACKED", "DELTA_BINARY_PACKED",
					"DELTA_BINARY_PACKED", "DELTA_BINARY_PACKED", "BYTE_STREAM_SPLIT", "BYTE_STREAM_SPLIT", "RLE", "RLE")
			}
			want := readPqarrow(t, b)
			defer want.Release()
			for _, size := range []int{0, 1, 333, 1 << 20} {
				t.Run(fmt.Sprintf("%s/%v/batch=%d", name, arrProps, size), func(t *testing.T) {
					r := openBytes(t, b, "test.parquet")
					var parts []arrow.RecordBatch
					err := r.Each(context.Background(), nil, size, func(rec *batch.Batch) error {
						if size > 0 && rec.NumRows() > int64(size) {
							t.Errorf("batch of %d rows, asked for %d", rec.NumRows(), size)
						}
						parts = append(parts, arrowbatch.Record(rec, nil))
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					got := concat(t, parts)
					defer got.Release()
					equalBatches(t, got, want)
					all := readAllArrow(t, r, nil)
					defer all.Release()
					equalBatches(t, all, want)
				})
			}
		}
	}
}

// checkEncodings fails unless the first row group's column chunks list
// want[c] first among their encodings (as arrow-go reads them): the
// oracle wrote the encodings the test means to read.
func checkEncodings(t *testing.T, b []byte, want ...string) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	rg := pf.MetaData().RowGroup(0)
	for c, w := range want {
		cc, err := rg.ColumnChunk(c)
		if err != nil {
			t.Fatal(err)
		}
		if enc := cc.Encodings(); len(enc) == 0 || enc[0].String() != w {
			t.Errorf("column %d written in %v, want %s", c, enc, w)
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
	var n int64
	for _, p := range parts {
		n += p.NumRows()
	}
	cols := make([]arrow.Array, parts[0].NumCols())
	chunks := make([]arrow.Array, len(parts))
	for c := range cols {
		for i, p := range parts {
			chunks[i] = p.Column(c)
		}
		a, err := array.Concatenate(chunks, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release()
		cols[c] = a
	}
	return array.NewRecordBatch(parts[0].Schema(), cols, n)
}

// readAllArrow is r.ReadAll(cols) as an Arrow record batch, which the
// caller releases.
func readAllArrow(t testing.TB, r *Reader, cols []int) arrow.RecordBatch {
	t.Helper()
	got, err := r.ReadAll(context.Background(), cols)
	if err != nil {
		t.Fatal(err)
	}
	return arrowbatch.Record(got, nil)
}

// TestRoundTrip: our files read back as written, column subsets
// included, and pqarrow reads them identically (metadata included).
func TestRoundTrip(t *testing.T) {
	rec := testRecord(t, 2000, 3, 3)
	defer rec.Release()
	props := optionCases()["rows"].ours
	b := writeOurs(t, &props, false, rec)
	r := openBytes(t, b, "round.parquet")
	if r.NumRowGroups() != 2 || r.NumRows() != 2000 {
		t.Errorf("%d row groups of %d rows, want 2 of 2000 (row groups of 1000)", r.NumRowGroups(), r.NumRows())
	}
	if v, ok := r.KeyValue("steadysweep.schema_version"); !ok || v != "3" {
		t.Errorf("schema version metadata %q %v", v, ok)
	}
	got := readAllArrow(t, r, nil)
	defer got.Release()
	equalBatches(t, got, rec)
	theirs := readPqarrow(t, b)
	defer theirs.Release()
	equalBatches(t, theirs, rec)

	cols := []int{r.ColumnIndex("tpot"), r.ColumnIndex("run_id")}
	sub := readAllArrow(t, r, cols)
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
	e, err := NewReader(bytes.NewReader(writeOurs(t, &props, false, empty)), "empty.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	none := readAllArrow(t, e, []int{0})
	defer none.Release()
	if none.NumRows() != 0 || none.NumCols() != 1 || none.ColumnName(0) != "run_id" {
		t.Errorf("an empty file reads as %v", none)
	}
}

// TestEachStops: fn's error and a cancelled context end Each.
func TestEachStops(t *testing.T) {
	rec := testRecord(t, 500, 1, 0)
	defer rec.Release()
	tiny := optionCases()["tiny pages"].ours
	b := writeOurs(t, &tiny, false, rec)
	r := openBytes(t, b, "x.parquet")
	stop := fmt.Errorf("stop")
	calls := 0
	if err := r.Each(context.Background(), nil, 10, func(*batch.Batch) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("Each returned %v after %d calls, want stop after 1", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Each(ctx, nil, 10, func(*batch.Batch) error { return nil }); err != context.Canceled {
		t.Errorf("Each on a cancelled context: %v", err)
	}
}

// TestUnsupported: a column of another type is refused by name on
// reading (a file another tool wrote); batch has no other type to write.
func TestUnsupported(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}, {Name: "ratio", Type: arrow.PrimitiveTypes.Float32, Nullable: true}}, nil)
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
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `column "ratio"`) || !strings.Contains(err.Error(), "FLOAT") {
		t.Errorf("reading a FLOAT column: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.parquet")); err == nil {
		t.Error("a missing file opened")
	}
	if _, err := NewReader(bytes.NewReader([]byte("PAR1 not parquet")), "junk"); err == nil || !strings.Contains(err.Error(), "junk") {
		t.Errorf("junk: %v", err)
	}
}

// TestWriterRefusesMismatches: a batch of another schema, or a null in a
// column that is not nullable, is an error, not a corrupt file.
func TestWriterRefusesMismatches(t *testing.T) {
	rec := testRecord(t, 10, 1, 0)
	defer rec.Release()
	w, err := NewWriter(&bytes.Buffer{}, arrowbatch.Schema(arrow.NewSchema(rec.Schema().Fields()[:3], nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(arrowbatch.Batch(rec)); err == nil {
		t.Error("a batch of 10 columns written to a file of 3")
	}
	sc := batch.NewSchema([]batch.Field{{Name: "a", Type: batch.Int64}}, nil)
	nulls := batch.New(sc)
	nulls.Column(0).AppendNull()
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
	w, err := NewWriter(s, arrowbatch.Schema(rec.Schema()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(arrowbatch.Batch(rec)); err != nil {
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

// openBytes opens the file b (named name in messages), failing the test
// on an error; the reader is closed when the test ends.
func openBytes(t testing.TB, b []byte, name string) *Reader {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
