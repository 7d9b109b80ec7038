package columnar

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/core"
)

// aiperfCSVHeader is the header RecordExportCSVProcessor writes
// (ai-dynamo/aiperf src/aiperf/post_processors/record_export_csv_processor.py
// @ 2d76a5e5: _METADATA_COLUMNS, then "tag (unit)" per metric).
const aiperfCSVHeader = "request_num,session_num,x_request_id,x_correlation_id,conversation_id,turn_index,benchmark_phase,worker_id," +
	"record_processor_id,credit_issued_ns,request_start_ns,request_ack_ns,request_end_ns,was_cancelled,cancellation_time_ns," +
	"error_code,error_message,time_to_first_token (ms),request_latency (ms),input_sequence_length (tokens),output_sequence_length (tokens)"

// aiperfCSVRows are five records: a warmup row, two successes, an HTTP
// 500 whose message holds a comma (quoted by Python's csv module) and a
// cancellation, in the order requests finished.
var aiperfCSVRows = []string{
	`0,0,w0,c0,,0,warmup,worker_0,rp_0,999000000000,999000000000,,999500000000,False,,,,100,500,100,20`,
	`1,1,r1,c1,,0,profiling,worker_0,rp_0,1000000000000,1000000000000,,1001000000000,False,,,,125.5,1000,100,20`,
	`2,2,r2,c2,,0,profiling,worker_0,rp_0,1000250000000,1000250000000,,1001500000000,False,,,,130.25,1250,101,21`,
	`3,3,r3,c3,,0,profiling,worker_0,rp_0,1000500000000,1000500000000,,1000600000000,False,,500,"Internal Server Error, upstream",,,100,`,
	`4,4,r4,c4,,0,profiling,worker_0,rp_0,1000750000000,1000750000000,,1000900000000,True,1000900000000,499,Request was cancelled,,,100,`,
}

func aiperfCSV(rows ...string) string {
	return aiperfCSVHeader + "\r\n" + strings.Join(rows, "\r\n") + "\r\n"
}

// aiperfJSONLOf is the profile_export.jsonl record of the same request
// (the JSONL reader's input), for comparing the two readers.
func aiperfJSONLOf(phase string, start, end int64, ttftMs, latMs float64, in, out int, errCode int, errMsg string, cancelled bool) string {
	metrics := fmt.Sprintf(`{"input_sequence_length": {"value": %d, "unit": "tokens"}`, in)
	if latMs > 0 {
		metrics += fmt.Sprintf(`, "time_to_first_token": {"value": %v, "unit": "ms"}, "request_latency": {"value": %v, "unit": "ms"}, "output_sequence_length": {"value": %d, "unit": "tokens"}`, ttftMs, latMs, out)
	}
	errJSON := "null"
	if errCode != 0 {
		errJSON = fmt.Sprintf(`{"code": %d, "type": "", "message": %q}`, errCode, errMsg)
	}
	return fmt.Sprintf(`{"metadata": {"benchmark_phase": %q, "request_start_ns": %d, "request_end_ns": %d, "was_cancelled": %v}, "metrics": %s}, "error": %s}`,
		phase, start, end, cancelled, metrics, errJSON)
}

// TestAIPerfCSV: the records CSV is detected by its header, its warmup
// row left out, and its rows read to the values written: issue times
// (epoch ns), TTFT and latency (ms), tokens, the HTTP 500 and the
// cancellation — the same samples the JSONL reader gives for the same
// records written as profile_export.jsonl.
func TestAIPerfCSV(t *testing.T) {
	dir := t.TempDir()
	path := writeTemp(t, dir, "csv/profile_export_records.csv", aiperfCSV(aiperfCSVRows...))
	if f, err := DetectFile(path); err != nil || f != FormatAIPerfCSV {
		t.Fatalf("detected %q (%v)", f, err)
	}
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	if s.Len() != 4 || tab.Summary.ProblemTotal() != 0 || tab.Summary.Events["warmup"] != 1 || !tab.Info.EpochClock {
		t.Fatalf("%d samples, warmup %d, epoch %v, problems %s", s.Len(), tab.Summary.Events["warmup"], tab.Info.EpochClock, warningsOf(tab))
	}
	type view struct {
		issue, ttft, latency, out, in int64
		kind                          core.FailureKind
		code                          int32
	}
	want := []view{
		{1000e9, 125.5e6, 1000e6, 20, 100, core.FailNone, 0},
		{1000.25e9, 130.25e6, 1250e6, 21, 101, core.FailNone, 0},
		{1000.5e9, 0, 0, -1, 100, core.FailHTTP, 500},
		{1000.75e9, 0, 0, -1, 100, core.FailCancelled, 499},
	}
	for i, w := range want {
		got := view{s.IssueNs[i], s.TTFTNs[i], s.LatencyNs[i], s.FullTokens[i], s.InTokens[i], s.FailureKind[i], s.FailCode[i]}
		if got.kind != core.FailNone {
			got.out = -1 // a failed sample's tokens are not counted
		}
		if got != w {
			t.Errorf("sample %d: %+v, want %+v", i, got, w)
		}
	}
	jsonl := strings.Join([]string{
		aiperfJSONLOf("warmup", 999e9, 999.5e9, 100, 500, 100, 20, 0, "", false),
		aiperfJSONLOf("profiling", 1000e9, 1001e9, 125.5, 1000, 100, 20, 0, "", false),
		aiperfJSONLOf("profiling", 1000.25e9, 1001.5e9, 130.25, 1250, 101, 21, 0, "", false),
		aiperfJSONLOf("profiling", 1000.5e9, 1000.6e9, 0, 0, 100, 0, 500, "Internal Server Error, upstream", false),
		aiperfJSONLOf("profiling", 1000.75e9, 1000.9e9, 0, 0, 100, 0, 499, "Request was cancelled", true),
	}, "\n") + "\n"
	_, j := ingestPath(t, writeTemp(t, dir, "jsonl/profile_export.jsonl", jsonl))
	if j.Len() != s.Len() {
		t.Fatalf("JSONL %d samples, CSV %d", j.Len(), s.Len())
	}
	for i := range j.Len() {
		if j.IssueNs[i] != s.IssueNs[i] || j.TTFTNs[i] != s.TTFTNs[i] || j.LatencyNs[i] != s.LatencyNs[i] ||
			j.FailureKind[i] != s.FailureKind[i] || j.FailCode[i] != s.FailCode[i] || j.InTokens[i] != s.InTokens[i] {
			t.Errorf("sample %d: JSONL and CSV differ", i)
		}
	}
}

// TestAIPerfCSVRustLayout: the Rust port's header (display names,
// error_type, true/false) reads to the same values.
func TestAIPerfCSVRustLayout(t *testing.T) {
	header := "session_num,x_request_id,benchmark_phase,request_start_ns,request_end_ns,was_cancelled,Time to First Token (ms)," +
		"Request Latency (ms),Output Sequence Length (tokens),error_code,error_type,error_message"
	body := header + "\n" +
		"7,r7,profiling,1000000000000,1001000000000,false,125.5,1000,20,,,\n" +
		"3,r3,profiling,1000500000000,1000600000000,true,,,,499,RequestCancellationError,cancelled\n"
	tab, s := ingestPath(t, writeTemp(t, t.TempDir(), "profile_export_records.csv", body))
	if tab.Info.SourceFormat != string(FormatAIPerfCSV) || s.Len() != 2 || tab.Summary.ProblemTotal() != 0 {
		t.Fatalf("format %q, %d samples, problems %s", tab.Info.SourceFormat, s.Len(), warningsOf(tab))
	}
	if s.IssueNs[0] != 1000e9 || s.TTFTNs[0] != 125.5e6 || s.LatencyNs[0] != 1000e6 || s.FullTokens[0] != 20 ||
		s.FailureKind[1] != core.FailCancelled || s.FailCode[1] != 499 {
		t.Errorf("issue %v ttft %v latency %v out %v kinds %v codes %v", s.IssueNs, s.TTFTNs, s.LatencyNs, s.FullTokens, s.FailureKind, s.FailCode)
	}
}

// TestAIPerfCSVBesideJSONL: a run directory holding both record files is
// one run, read from profile_export.jsonl (the CSV holds the same
// records).
func TestAIPerfCSVBesideJSONL(t *testing.T) {
	dir := t.TempDir()
	writeTemp(t, dir, "profile_export_records.csv", aiperfCSV(aiperfCSVRows[1]))
	writeTemp(t, dir, "profile_export.jsonl", aiperfJSONLOf("profiling", 1000e9, 1001e9, 125.5, 1000, 100, 20, 0, "", false)+"\n")
	run, err := ResolveRun(context.Background(), dir)
	if err != nil || filepath.Base(run.EventsPath) != "profile_export.jsonl" || run.Format != FormatAIPerf {
		t.Fatalf("run %+v, err %v", run, err)
	}
}

// TestAIPerfCSVMalformed: a bad cell is one problem naming the file, the
// row's line and the column; the row is kept when it still has an issue
// time. A header without request_start_ns is refused naming the column.
func TestAIPerfCSVMalformed(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"ttft a word", ",,,125.5,1000,", ",,,fast,1000,", `:3: field "time_to_first_token (ms)": unexpected field type`},
		{"start not a number", "rp_0,1000000000000,1000000000000,", "rp_0,1000000000000,1e12x,", `:3: field "request_start_ns": unexpected field type`},
		{"cancelled neither", ",False,,,,125.5", ",maybe,,,,125.5", `:3: field "was_cancelled": unexpected field type`},
		{"short row", ",,,125.5,1000,100,20", ",,,125.5,1000", `:3: field "row (19 fields, header 21)": required field missing`},
		{"bad quoting", ",,,125.5,1000,100,20", `,,"x"y,125.5,1000,100,20`, `:3: field "row (CSV quoting)": unexpected field type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(aiperfCSVRows[1], tc.from) {
				t.Fatalf("%q not in the row", tc.from)
			}
			rows := append([]string(nil), aiperfCSVRows...)
			rows[1] = strings.Replace(rows[1], tc.from, tc.to, 1)
			path := writeTemp(t, t.TempDir(), "profile_export_records.csv", aiperfCSV(rows...))
			tab, s := ingestPath(t, path)
			checkColumns(t, &s)
			if s.Len() < 3 || !strings.Contains(warningsOf(tab), path+tc.want) || tab.Summary.ProblemTotal() != 1 {
				t.Errorf("%d samples, problems %q, want %q", s.Len(), warningsOf(tab), path+tc.want)
			}
		})
	}
	path := writeTemp(t, t.TempDir(), "r.csv", strings.Replace(aiperfCSV(aiperfCSVRows...), "request_start_ns,", "start,", 1))
	run := &contract.Run{Dir: filepath.Dir(path), EventsPath: path, Format: contract.FormatAIPerfCSV, Part: -1}
	var d contract.Decoded
	if _, err := (foreign.AIPerfCSVReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err == nil ||
		!strings.Contains(err.Error(), path+`:1: AIPerf records CSV header lacks column "request_start_ns"`) {
		t.Errorf("err = %v", err)
	}
}

// FuzzAIPerfCSVRow: any bytes as a data row: no panic, consistent
// columns, problems named by line.
func FuzzAIPerfCSVRow(f *testing.F) {
	for _, r := range aiperfCSVRows {
		f.Add([]byte(r))
	}
	f.Add([]byte(`"unterminated,1,2`))
	f.Add([]byte(strings.Repeat(",", 40)))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, row []byte) {
		path := writeTemp(t, dir, "r.csv", aiperfCSV(aiperfCSVRows[1], string(row), aiperfCSVRows[2]))
		run := &contract.Run{Dir: dir, EventsPath: path, Format: contract.FormatAIPerfCSV, Part: -1}
		var d contract.Decoded
		if _, err := (foreign.AIPerfCSVReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, &d.Samples)
		for _, p := range d.Summary.Problems {
			for _, e := range p.First {
				if e.Line == 0 {
					t.Fatalf("problem %v not named by its line", e)
				}
			}
		}
	})
}
