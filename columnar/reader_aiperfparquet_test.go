package columnar

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/core"
)

// aiperfParquetFields is the schema the AIPerf Rust port writes
// (ai-dynamo/aiperf rust/runtime/src/export/per_record_parquet.rs @
// e21c44ed, build_schema): the metadata head, metric columns in catalog
// order (here five of them), the error tail, without trace columns.
func aiperfParquetFields() []arrow.Field {
	i64, str, f64 := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64
	return []arrow.Field{
		{Name: "session_num", Type: i64}, {Name: "x_request_id", Type: str}, {Name: "x_correlation_id", Type: str},
		{Name: "conversation_id", Type: str, Nullable: true}, {Name: "turn_index", Type: i64},
		{Name: "credit_issued_ns", Type: i64, Nullable: true}, {Name: "request_start_ns", Type: i64},
		{Name: "request_ack_ns", Type: i64, Nullable: true}, {Name: "request_end_ns", Type: i64},
		{Name: "worker_id", Type: str}, {Name: "global_dispatch_index", Type: i64, Nullable: true},
		{Name: "record_processor_id", Type: str}, {Name: "benchmark_phase", Type: str},
		{Name: "was_cancelled", Type: arrow.FixedWidthTypes.Boolean}, {Name: "cancellation_time_ns", Type: i64, Nullable: true},
		{Name: "request_latency", Type: f64, Nullable: true}, {Name: "time_to_first_token", Type: f64, Nullable: true},
		{Name: "output_sequence_length", Type: f64, Nullable: true}, {Name: "input_sequence_length", Type: f64, Nullable: true},
		{Name: "reasoning_token_count", Type: f64, Nullable: true},
		{Name: "error_code", Type: i64, Nullable: true}, {Name: "error_type", Type: str, Nullable: true},
		{Name: "error_message", Type: str, Nullable: true},
	}
}

// aiperfParquetMeta is build_metadata's key-value metadata.
var aiperfParquetMeta = map[string]string{
	"aiperf.schema_version": "1.0", "aiperf.version": "0.9.0",
	"aiperf.units": `{"input_sequence_length":"tokens","output_sequence_length":"tokens","reasoning_token_count":"tokens","request_latency":"ms","time_to_first_token":"ms"}`,
}

// aiperfParquetRow is one request: id, phase, start and end (ns), TTFT
// and latency (ms, 0 for null), output/input/reasoning tokens, cancelled,
// error code (0: none) and type.
type aiperfParquetRow struct {
	id, phase          string
	start, end         int64
	ttftMs, latMs      float64
	out, in, reasoning float64
	cancelled          bool
	errCode            int64
	errType            string
}

// aiperfParquetRows: a warmup request, then in completion order two
// successes (the second sent first), an HTTP 503 and a request cancelled
// after it was sent (AIPerf's 499).
var aiperfParquetRows = []aiperfParquetRow{
	{"w", "warmup", 500e9, 500.2e9, 10, 200, 5, 50, 0, false, 0, ""},
	{"b", "profiling", 2000e9, 2000.5e9, 12.5, 500, 40, 100, 7, false, 0, ""},
	{"a", "profiling", 1000e9, 1000.3e9, 20.25, 300, 30, 90, 0, false, 0, ""},
	{"c", "profiling", 3000e9, 3000.1e9, 0, 0, 0, 80, 0, false, 503, "ServiceUnavailable"},
	{"d", "profiling", 4000e9, 4000.2e9, 0, 0, 0, 70, 0, true, 499, "RequestCancellationError"},
}

// writeAIPerfParquet writes rows under fields and metadata md with
// parquetio's Writer; set, when not nil, overrides a cell: it gets the
// column's builder, the row and the column name and returns true when it
// appended the cell.
func writeAIPerfParquet(t *testing.T, path string, fields []arrow.Field, md map[string]string, rows []aiperfParquetRow,
	set func(b array.Builder, r int, col string) bool) string {
	t.Helper()
	var keys, vals []string
	for k, v := range md {
		keys, vals = append(keys, k), append(vals, v)
	}
	meta := arrow.NewMetadata(keys, vals)
	sc := arrow.NewSchema(fields, &meta)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	for r, row := range rows {
		for c, f := range fields {
			b := rb.Field(c)
			if set != nil && set(b, r, f.Name) {
				continue
			}
			appendAIPerfCell(b, f.Name, row)
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if err := parquetio.WriteRecord(file, arrowbatch.Batch(rec), nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// appendAIPerfCell appends row's value of column name as the Rust writer
// fills it (build_record_batch): a failed request's timing and output
// metrics null (its input length kept), null optional columns.
func appendAIPerfCell(b array.Builder, name string, row aiperfParquetRow) {
	failed := row.errCode != 0
	metric := func(v float64) {
		if failed && name != "input_sequence_length" || v == 0 && name != "reasoning_token_count" {
			b.AppendNull()
			return
		}
		b.(*array.Float64Builder).Append(v)
	}
	switch name {
	case "x_request_id":
		b.(*array.StringBuilder).Append(row.id)
	case "x_correlation_id":
		b.(*array.StringBuilder).Append("corr-" + row.id)
	case "worker_id":
		b.(*array.StringBuilder).Append("worker_0")
	case "record_processor_id":
		b.(*array.StringBuilder).Append("aiperf runner")
	case "benchmark_phase":
		b.(*array.StringBuilder).Append(row.phase)
	case "request_start_ns":
		b.(*array.Int64Builder).Append(row.start)
	case "request_end_ns":
		b.(*array.Int64Builder).Append(row.end)
	case "credit_issued_ns":
		b.(*array.Int64Builder).Append(row.start - 900)
	case "session_num", "turn_index":
		b.(*array.Int64Builder).Append(0)
	case "was_cancelled":
		b.(*array.BooleanBuilder).Append(row.cancelled)
	case "cancellation_time_ns":
		if row.cancelled {
			b.(*array.Int64Builder).Append(row.end)
		} else {
			b.AppendNull()
		}
	case "time_to_first_token":
		metric(row.ttftMs)
	case "request_latency":
		metric(row.latMs)
	case "output_sequence_length":
		metric(row.out)
	case "input_sequence_length":
		metric(row.in)
	case "reasoning_token_count":
		metric(row.reasoning)
	case "error_code":
		if failed {
			b.(*array.Int64Builder).Append(row.errCode)
		} else {
			b.AppendNull()
		}
	case "error_type", "error_message":
		if failed {
			b.(*array.StringBuilder).Append(row.errType)
		} else {
			b.AppendNull()
		}
	default:
		b.AppendNull()
	}
}

// TestAIPerfParquet: a profile_export.parquet of the Rust port's schema,
// written with parquetio's Writer, is detected by its content (under a
// name no pattern of ours knows) and reads to the values written: the
// warmup row left out, samples in issue order, TTFT and latency from the
// ms metrics, output, input and reasoning tokens, the 503 an HTTP failure
// and the cancellation AIPerf's 499; the version from aiperf.version.
func TestAIPerfParquet(t *testing.T) {
	dir := t.TempDir()
	path := writeAIPerfParquet(t, filepath.Join(dir, "records.bin"), aiperfParquetFields(), aiperfParquetMeta, aiperfParquetRows, nil)
	if f, err := DetectFile(path); f != contract.FormatAIPerfParquet || err != nil {
		t.Fatalf("DetectFile = %q, %v", f, err)
	}
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	if tab.Info.SourceFormat != "aiperf-parquet" || tab.Info.ToolVersion != "0.9.0" || !tab.Info.EpochClock ||
		tab.Summary.ProblemTotal() != 0 || tab.Summary.Events["warmup"] != 1 {
		t.Fatalf("info %+v, warmup %d, problems %s", tab.Info, tab.Summary.Events["warmup"], warningsOf(tab))
	}
	// second: reasoning tokens.
	checkSampleViews(t, tab, s, s.ReasoningTokens, []sampleView{
		{"a", 1000e9, 20_250_000, 300e6, 30, 0, 90, core.FailNone, 0},
		{"b", 2000e9, 12_500_000, 500e6, 40, 7, 100, core.FailNone, 0},
		{"c", 3000e9, 0, 0, -1, -1, 80, core.FailHTTP, 503},
		{"d", 4000e9, 0, 0, -1, -1, 70, core.FailCancelled, 499},
	})
}

// TestAIPerfParquetMalformed: a bad cell is one problem naming the file,
// the row (1-based, as the line) and the column; the other rows are read.
// A request_start_ns of another type, and a Parquet file whose footer is
// cut, are refused in one line naming the file.
func TestAIPerfParquetMalformed(t *testing.T) {
	nullable := aiperfParquetFields()
	for i := range nullable {
		nullable[i].Nullable = true
	}
	for _, tc := range []struct {
		name    string
		fields  []arrow.Field
		set     func(b array.Builder, r int, col string) bool
		want    string
		samples int
	}{
		{"latency NaN", aiperfParquetFields(), func(b array.Builder, r int, col string) bool {
			if r == 2 && col == "request_latency" {
				b.(*array.Float64Builder).Append(math.NaN())
				return true
			}
			return false
		}, `:3: field "request_latency": unexpected field type`, 4},
		{"start null", nullable, func(b array.Builder, r int, col string) bool {
			if r == 1 && col == "request_start_ns" {
				b.AppendNull()
				return true
			}
			return false
		}, `:2: field "metadata.request_start_ns": required field missing`, 3},
		{"error_code text", retype(aiperfParquetFields(), "error_code", arrow.BinaryTypes.String), func(b array.Builder, r int, col string) bool {
			if col == "error_code" {
				b.(*array.StringBuilder).Append("503")
				return true
			}
			return false
		}, `: column error_code (utf8, not int64): unexpected field type`, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeAIPerfParquet(t, filepath.Join(t.TempDir(), "profile_export.parquet"), tc.fields, aiperfParquetMeta, aiperfParquetRows, tc.set)
			tab, s := ingestPath(t, path)
			checkColumns(t, &s)
			if s.Len() != tc.samples || tab.Summary.ProblemTotal() != 1 || !strings.Contains(warningsOf(tab), path+tc.want) {
				t.Errorf("%d samples, problems %q, want %q", s.Len(), warningsOf(tab), path+tc.want)
			}
		})
	}
	start := retype(aiperfParquetFields(), "request_start_ns", arrow.PrimitiveTypes.Float64)
	path := writeAIPerfParquet(t, filepath.Join(t.TempDir(), "p.parquet"), start, aiperfParquetMeta, aiperfParquetRows,
		func(b array.Builder, r int, col string) bool {
			if col == "request_start_ns" {
				b.(*array.Float64Builder).Append(float64(aiperfParquetRows[r].start))
				return true
			}
			return false
		})
	if run, err := ResolveRun(context.Background(), path); err != nil {
		t.Fatal(err)
	} else if _, err := Ingest(context.Background(), run, contract.IngestOptions{}); err == nil ||
		!strings.Contains(err.Error(), path+`: AIPerf per-record Parquet column "request_start_ns" is float64`) {
		t.Errorf("float start: %v", err)
	}
	whole, err := os.ReadFile(writeAIPerfParquet(t, filepath.Join(t.TempDir(), "p.parquet"), aiperfParquetFields(), aiperfParquetMeta, aiperfParquetRows, nil))
	if err != nil {
		t.Fatal(err)
	}
	cut := writeTemp(t, t.TempDir(), "cut.parquet", string(whole[:len(whole)-20]))
	if _, err := DetectFile(cut); err == nil || !strings.Contains(err.Error(), cut+": unknown log format: a Parquet file whose footer cannot be read") {
		t.Errorf("cut file: %v", err)
	}
}

// TestAIPerfParquetNoUnits: without aiperf.units the durations are read in
// AIPerf's record unit, ms, and a warning names the file and says so.
func TestAIPerfParquetNoUnits(t *testing.T) {
	md := map[string]string{"aiperf.schema_version": "1.0"}
	dir := t.TempDir()
	path := writeAIPerfParquet(t, filepath.Join(dir, "profile_export.parquet"), aiperfParquetFields(), md, aiperfParquetRows, nil)
	if w := strings.Join(ResolveWarnings(t, dir), "\n"); !strings.Contains(w, path+": no aiperf.units metadata: durations read as ms") {
		t.Errorf("warnings %q", w)
	}
	if _, s := ingestPath(t, path); s.Len() != 4 || s.TTFTNs[0] != 20_250_000 || s.LatencyNs[1] != 500e6 {
		t.Errorf("%d samples, ttft %v latency %v", s.Len(), s.TTFTNs, s.LatencyNs)
	}
}

// retype is fields with column name of type t.
func retype(fields []arrow.Field, name string, t arrow.DataType) []arrow.Field {
	for i := range fields {
		if fields[i].Name == name {
			fields[i].Type = t
		}
	}
	return fields
}

// TestAIPerfParquetBesideCSV: a directory holding the Rust port's Parquet
// and its records CSV (no JSONL) is one run, read from the Parquet.
func TestAIPerfParquetBesideCSV(t *testing.T) {
	dir := t.TempDir()
	path := writeAIPerfParquet(t, filepath.Join(dir, "profile_export.parquet"), aiperfParquetFields(), aiperfParquetMeta, aiperfParquetRows, nil)
	writeTemp(t, dir, "profile_export_records.csv", "session_num,x_request_id,benchmark_phase,request_start_ns,request_end_ns,Request Latency (ms)\n0,a,profiling,1000000000000,1000300000000,300\n")
	run, err := ResolveRun(context.Background(), dir)
	if err != nil || run.EventsPath != path || run.Format != contract.FormatAIPerfParquet {
		t.Fatalf("ResolveRun = %+v, %v; want %s", run, err, path)
	}
}

// FuzzAIPerfParquetRow: any cells as the middle of three rows (phase,
// error type, start, TTFT, latency, output tokens, error code,
// cancelled): no panic, consistent columns, the two good rows read,
// problems named by row and column.
func FuzzAIPerfParquetRow(f *testing.F) {
	f.Add("profiling", "", int64(1500e9), 10.0, 200.0, 5.0, int64(0), false)
	f.Add("warmup", "X", int64(-1), -1.0, math.Inf(1), 1e300, int64(499), true)
	f.Add("", "", int64(0), math.NaN(), 0.0, 2.5, int64(1<<40), false)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, phase, errType string, start int64, ttft, lat, out float64, code int64, cancelled bool) {
		rows := []aiperfParquetRow{aiperfParquetRows[2], {"x", phase, start, start + 1, 0, 0, 0, 10, 0, cancelled, 0, errType}, aiperfParquetRows[1]}
		path := writeAIPerfParquet(t, filepath.Join(dir, "profile_export.parquet"), aiperfParquetFields(), aiperfParquetMeta, rows,
			func(b array.Builder, r int, col string) bool {
				if r != 1 {
					return false
				}
				switch col {
				case "time_to_first_token":
					b.(*array.Float64Builder).Append(ttft)
				case "request_latency":
					b.(*array.Float64Builder).Append(lat)
				case "output_sequence_length":
					b.(*array.Float64Builder).Append(out)
				case "error_code":
					b.(*array.Int64Builder).Append(code)
				default:
					return false
				}
				return true
			})
		run := &contract.Run{Dir: dir, EventsPath: path, Format: contract.FormatAIPerfParquet, Part: -1}
		var d contract.Decoded
		if _, err := (foreign.AIPerfParquetReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, &d.Samples)
		if d.Samples.Len() < 2 {
			t.Fatalf("%d samples: the good rows were lost", d.Samples.Len())
		}
		for _, p := range d.Summary.Problems {
			for _, e := range p.First {
				if e.Line < 1 || e.Line > 3 || e.Field == "" {
					t.Fatalf("problem %v not named by a row and column", e)
				}
			}
		}
	})
}
