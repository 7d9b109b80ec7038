package sinks

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/core"
)

func testRow(i int) Row {
	p := core.DefaultParams()
	p.CovBounds = []float64{0.03, 0.05}
	p.Alpha = 0.01 * float64(i+1)
	nan := math.NaN()
	return Row{
		RunPath:    "/archive/run" + string(rune('a'+i)),
		RunRel:     "run" + string(rune('a'+i)),
		RunID:      "id" + string(rune('a'+i)),
		Provenance: Provenance{EventsPath: "/archive/events.jsonl", EventsSize: 1000 + int64(i), EventsMtimeNs: 1_700_000_000_000_000_000, EventsSHA256: "abc", ToolVersion: "v0", ToolCommit: "c0", Tokenizer: "words"},
		ConfigID:   ConfigID(p),
		Params:     p,
		Outcome: core.Outcome{
			Status: "windowable", Verdict: "STEADY STATE", Found: i%2 == 0,
			NSuperPasses: 20, WindowStartSP: 3, WindowEndSP: -1, WindowDurationS: 882.5,
			SteadyTPOTP50Ns: float64(i) * 1e6, SteadyTTFTP99Ns: nan, ChangePointSP: -1,
			DriftingUp: []string{"ttft_p50", "tpot_p90"},
		},
		AnalysisNs: 123, IngestNs: 456,
	}
}

// readTables reads every part file of dir into one table per file.
func readTables(t *testing.T, dir string, mem memory.Allocator) []arrow.Table {
	t.Helper()
	files, err := PartFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []arrow.Table
	for _, f := range files {
		r, err := parquetio.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.ReadAll(context.Background(), nil)
		r.Close()
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		rec := arrowbatch.Record(b, mem)
		out = append(out, array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec}))
		rec.Release()
	}
	return out
}

func TestRowWriterRoundTrip(t *testing.T) {
	mem := checkedMem(t)
	dir := filepath.Join(t.TempDir(), "rows")

	w := newWriter(t, NewRowWriter, WriterOptions{Dir: dir, Shard: "1of2", RowsPerGroup: 2, RowsPerFile: 5})
	var rows []Row
	for i := range 7 {
		rows = append(rows, testRow(i))
	}
	// The file rolls at the end of the Write that reaches RowsPerFile:
	// 4 rows stay open, 4+3 ≥ 5 publishes a 7-row file.
	if err := w.Write(rows[:4]); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rows[4:]); err != nil {
		t.Fatal(err)
	}
	if got := len(w.Files()); got != 1 {
		t.Fatalf("files after 7 rows with RowsPerFile 5: %d, want 1", got)
	}
	if err := w.Write(rows[:1]); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	want := []string{filepath.Join(dir, "part-1of2-000000.parquet"), filepath.Join(dir, "part-1of2-000001.parquet")}
	if !slices.Equal(w.Files(), want) {
		t.Fatalf("files: %q, want %q", w.Files(), want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("directory holds %d entries, want the 2 part files (no temporaries)", len(entries))
	}

	tables := readTables(t, dir, mem)
	defer func() {
		for _, tb := range tables {
			tb.Release()
		}
	}()
	if tables[0].NumRows() != 7 || tables[1].NumRows() != 1 {
		t.Fatalf("rows per file: %d, %d; want 7, 1", tables[0].NumRows(), tables[1].NumRows())
	}
	tb := tables[0]
	sc := arrowbatch.ArrowSchema(RowsSchema())
	if int(tb.NumCols()) != sc.NumFields() {
		t.Fatalf("columns: %d, want %d", tb.NumCols(), sc.NumFields())
	}
	for i, f := range sc.Fields() {
		got := tb.Schema().Field(i)
		if got.Name != f.Name || !arrow.TypeEqual(got.Type, f.Type) {
			t.Errorf("column %d: %s %s, want %s %s", i, got.Name, got.Type, f.Name, f.Type)
		}
	}
	// Rows came in order; chunk 0 holds the first row group (2 rows). The
	// cells are testRow's values, of the column's Go type; nil is a null.
	for _, c := range []struct {
		col  string
		row  int
		want any
	}{
		{"run_path", 1, "/archive/runb"},
		{"run_rel", 1, "runb"},
		{"alpha", 1, 0.02},
		{"cov_bounds", 0, "0.03,0.05"},
		{"window_sizes", 0, "4,6,8"},
		{"min_trend_n", 0, int64(4)},
		{"min_duration", 0, true},
		{"steady_ttft_p99_ns", 0, nil}, // NaN is written as null
		{"steady_tpot_p50_ns", 1, 1e6},
		{"window_end_sp", 0, nil}, // −1 (no end) is written as null
		{"window_start_sp", 0, int64(3)},
		{"drifting_up", 0, "ttft_p50,tpot_p90"},
		{"schema_version", 0, int32(SchemaVersion)},
		{"events_mtime_ns", 0, int64(1_700_000_000_000_000_000)},
		{"found", 1, false},
	} {
		idx := tb.Schema().FieldIndices(c.col)
		if len(idx) != 1 {
			t.Fatalf("no column %s", c.col)
		}
		if got := tb.Column(idx[0]).Data().Chunk(0).GetOneForMarshal(c.row); got != c.want {
			t.Errorf("%s[%d] = %v (%T), want %v (%T)", c.col, c.row, got, got, c.want, c.want)
		}
	}

	// Dictionary encoding only where asked for.
	pf, err := file.OpenParquetFile(want[0], false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	rg := pf.MetaData().RowGroup(0)
	dict := func(name string) bool {
		cc, err := rg.ColumnChunk(pf.MetaData().Schema.ColumnIndexByName(name))
		if err != nil {
			t.Fatal(err)
		}
		if cc.Compression().String() != "ZSTD" {
			t.Errorf("%s compressed with %s", name, cc.Compression())
		}
		return cc.HasDictionaryPage()
	}
	if !dict("status") || !dict("verdict") || !dict("method") {
		t.Errorf("status/verdict/method not dictionary-encoded")
	}
	if dict("run_id") || dict("steady_tps_system") {
		t.Errorf("run_id/steady_tps_system dictionary-encoded")
	}
	if pf.NumRowGroups() != 4 {
		t.Errorf("row groups in first file: %d, want 4 (2+2+2+1)", pf.NumRowGroups())
	}

	keys, err := ReadKeys(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 7 {
		t.Fatalf("keys: %d, want 7 distinct", len(keys))
	}
	if _, ok := keys[rows[3].Key()]; !ok {
		t.Fatalf("key of row 3 missing")
	}

	// A new writer continues the sequence.
	w2 := newWriter(t, NewRowWriter, WriterOptions{Dir: dir, Shard: "1of2"})
	writeAndClose(t, w2, rows[:1])
	if got := w2.Files(); len(got) != 1 || filepath.Base(got[0]) != "part-1of2-000002.parquet" {
		t.Fatalf("second writer files: %q", got)
	}
}

func TestRowWriterNoRowsNoFile(t *testing.T) {
	dir := t.TempDir()
	w := newWriter(t, NewSeriesWriter, WriterOptions{Dir: dir})
	writeAndClose(t, w, nil)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("empty writer left %d files", len(entries))
	}
}

func TestSeriesRoundTrip(t *testing.T) {
	mem := checkedMem(t)
	dir := t.TempDir()
	w := newWriter(t, NewSeriesWriter, WriterOptions{Dir: dir})
	in := []SeriesRow{
		{RunID: "r", SP: 0, SuperpassSize: 200, NIssued: 200, FirstIssueNs: 1, LastIssueNs: 99, TTFTP50Ns: 5, TPOTP50Ns: math.NaN(), OutTokens: 12345},
		{RunID: "r", SP: 1, SuperpassSize: 200, NIssued: 150, FirstIssueNs: 100, LastIssueNs: 199, TTFTP50Ns: 6, TPOTP50Ns: 7, OutTokens: 6},
	}
	writeAndClose(t, w, in)
	tables := readTables(t, dir, mem)
	defer tables[0].Release()
	tb := tables[0]
	if tb.NumRows() != 2 || int(tb.NumCols()) != SeriesSchema().NumFields() {
		t.Fatalf("series table %d×%d", tb.NumRows(), tb.NumCols())
	}
	get := func(name string) arrow.Array { return tb.Column(tb.Schema().FieldIndices(name)[0]).Data().Chunk(0) }
	if got := get("n_issued").(*array.Int64).Value(1); got != 150 {
		t.Errorf("n_issued[1] = %d", got)
	}
	if !get("tpot_p50_ns").IsNull(0) || get("tpot_p50_ns").(*array.Float64).Value(1) != 7 {
		t.Errorf("tpot_p50_ns: want [null 7]")
	}
	if got := get("out_tokens").(*array.Int64).Value(0); got != 12345 {
		t.Errorf("out_tokens[0] = %d", got)
	}
}

// Every core.Outcome and core.Params field has a column, and column names
// are unique, lowercase and carry the fixed names the notebooks use.
func TestRowsSchemaCoversOutcome(t *testing.T) {
	srcs := map[string]bool{}
	names := map[string]bool{}
	for _, c := range rowColumns() {
		srcs[c.src] = true
		if names[c.name] || c.name != strings.ToLower(c.name) {
			t.Errorf("column name %q duplicated or not lowercase", c.name)
		}
		names[c.name] = true
	}
	ot := reflect.TypeFor[core.Outcome]()
	for i := range ot.NumField() {
		if !srcs[ot.Field(i).Name] {
			t.Errorf("core.Outcome.%s has no column", ot.Field(i).Name)
		}
	}
	for _, n := range core.Names() {
		if !names[n] {
			t.Errorf("parameter %s has no column", n)
		}
	}
	for _, n := range []string{"run_path", "run_id", "config_id", "schema_version", "status", "partial", "verdict",
		"reason", "found", "window_start_sp", "window_end_sp", "window_duration_s", "steady_tpot_p50_ns",
		"steady_tpot_p90_ns", "steady_ttft_p50_ns", "steady_ttft_p99_ns", "steady_tps_per_user",
		"steady_tps_system", "total_tps_system", "analysis_ns", "ingest_ns"} {
		if !names[n] {
			t.Errorf("fixed column %s missing", n)
		}
	}
}

// MaxFileAge publishes a part file at the first Write after it expires,
// so a long sweep killed hard loses little.
func TestRowWriterMaxFileAge(t *testing.T) {
	mem := checkedMem(t)
	dir := t.TempDir()
	w := newWriter(t, NewRowWriter, WriterOptions{Dir: dir, RowsPerGroup: 2, MaxFileAge: time.Nanosecond})
	for i := range 3 {
		if err := w.Write([]Row{testRow(i), testRow(i + 1)}); err != nil {
			t.Fatal(err)
		}
		if got := len(w.Files()); got != i+1 {
			t.Fatalf("after write %d: %d published files", i+1, got)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tables := readTables(t, dir, mem)
	for _, tb := range tables {
		if tb.NumRows() != 2 {
			t.Errorf("file with %d rows, want 2", tb.NumRows())
		}
		tb.Release()
	}
	if len(tables) != 3 {
		t.Fatalf("%d files, want 3", len(tables))
	}
}

// A failed write leaves no temporary behind and the writer reports the
// error again instead of writing more.
func TestRowWriterFailureCleansUp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rows")
	w := newWriter(t, NewRowWriter, WriterOptions{Dir: dir, RowsPerGroup: 1})
	if err := os.RemoveAll(dir); err != nil { // the directory vanishes under the writer
		t.Fatal(err)
	}
	err := w.Write([]Row{testRow(0)})
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("write into a removed directory: %v", err)
	}
	if err2 := w.Write([]Row{testRow(1)}); err2 != err {
		t.Fatalf("second write: %v, want the sticky %v", err2, err)
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close after a failure: nil error")
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("writer recreated %s or left files: %v", dir, err)
	}
}

// The parameter columns hold the whole parameter set: rebuilding Params
// from them gives back the row's config_id.
func TestRowParamsRoundTrip(t *testing.T) {
	mem := checkedMem(t)
	dir := t.TempDir()
	w := newWriter(t, NewRowWriter, WriterOptions{Dir: dir})
	var rows []Row
	for i, base := range []core.Params{core.DefaultParams(), core.ReferenceParams()} {
		r := testRow(i)
		base.Profile, base.SuperpassSize, base.MinDuration = "poisson", 250, i == 0
		base.CovBounds, base.WindowSizes = []float64{0.03, 0.05}, []int{4, 6}
		base.TailCutEps = 0.125
		r.Params, r.ConfigID = base, ConfigID(base)
		rows = append(rows, r)
	}
	writeAndClose(t, w, rows)
	tables := readTables(t, dir, mem)
	defer tables[0].Release()
	tb := tables[0]
	col := func(name string) arrow.Array { return tb.Column(tb.Schema().FieldIndices(name)[0]).Data().Chunk(0) }
	for i := range rows {
		var p core.Params
		for _, name := range core.Names() {
			var v string
			switch a := col(name).(type) {
			case *array.String:
				v = a.Value(i)
			case *array.Int64:
				v = strconv.FormatInt(a.Value(i), 10)
			case *array.Float64:
				v = strconv.FormatFloat(a.Value(i), 'g', -1, 64)
			case *array.Boolean:
				v = strconv.FormatBool(a.Value(i))
			default:
				t.Fatalf("column %s has type %T", name, a)
			}
			if err := p.Set(name, v); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := ConfigID(p), col("config_id").(*array.String).Value(i); got != want {
			t.Errorf("row %d: params from columns have id %s, config_id %s\n%s", i, got, want, p.Canonical())
		}
	}
}
