package columnar

import (
	"context"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
)

// genaiperfExport is a profile_export.json with the given requests
// (perf_analyzer's ProfileDataExporter layout).
func genaiperfExport(reqs ...string) string {
	return `{"service_kind": "openai", "endpoint": "v1/chat/completions", "experiments": [{"experiment": {"mode": "concurrency", "value": 4}, "requests": [` +
		strings.Join(reqs, ", ") + `], "window_boundaries": [1, 5, 6]}], "version": "0.0.8"}`
}

// TestGenAIPerfExport: ns timestamps read to the values written: issue =
// timestamp, first token = the first response timestamp, end = the
// last; a request without responses failed; concurrency from the
// experiment.
func TestGenAIPerfExport(t *testing.T) {
	path := writeTemp(t, t.TempDir(), "profile_export.json", genaiperfExport(
		`{"timestamp": 2000000000, "request_inputs": {"payload": "{}"}, "response_timestamps": [2250000000, 2500000000, 3000000000], "response_outputs": [{"response": "a"}, {"response": "b"}, {"response": "c"}]}`,
		`{"timestamp": 1000000000, "request_inputs": {"payload": "{}"}, "response_timestamps": [1125000000, 1500000000], "response_outputs": [{"response": "a"}, {"response": "b"}]}`,
		`{"timestamp": 1500000000, "request_inputs": {"payload": "{}"}, "response_timestamps": [], "response_outputs": []}`))
	if f, err := DetectFile(path); err != nil || f != contract.FormatGenAIPerf {
		t.Fatalf("detected %q %v", f, err)
	}
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	if tab.Info.Concurrency != 4 || tab.Info.LoadPattern != "concurrency" || !strings.Contains(tab.Info.ToolVersion, "0.0.8") {
		t.Errorf("info %+v", tab.Info)
	}
	if s.Len() != 3 || s.IssueNs[0] != 1e9 || s.TTFTNs[0] != 125e6 || s.LatencyNs[0] != 500e6 || !s.Failed[1] ||
		s.IssueNs[2] != 2e9 || s.TTFTNs[2] != 250e6 || s.LatencyNs[2] != 1e9 {
		t.Errorf("issue %v ttft %v latency %v failed %v", s.IssueNs, s.TTFTNs, s.LatencyNs, s.Failed)
	}
}

// TestGenAIPerfMalformed: a bad request is counted at its path and
// field; the others read.
func TestGenAIPerfMalformed(t *testing.T) {
	good := func(ts string) string {
		return `{"timestamp": ` + ts + `000, "response_timestamps": [` + ts + `500]}`
	}
	for _, tc := range []struct{ name, rec, want string }{
		{"timestamp a float", `{"timestamp": 1.5, "response_timestamps": []}`, `experiments[0].requests[1].timestamp: required field missing`},
		{"timestamp a string", `{"timestamp": "x", "response_timestamps": []}`, `experiments[0].requests[1].timestamp: unexpected field type`},
		{"response before send", `{"timestamp": 9000, "response_timestamps": [5]}`, `experiments[0].requests[1].response_timestamps[0]: unexpected field type`},
		{"not an object", `[]`, `experiments[0].requests[1]: JSON value is not an object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "profile_export.json", genaiperfExport(good("1"), tc.rec, good("2")))
			tab, s := ingestPath(t, path)
			checkColumns(t, &s)
			if s.Len() < 2 {
				t.Errorf("%d samples", s.Len())
			}
			if msg := warningsOf(tab); !strings.Contains(msg, tc.want) || tab.Summary.ProblemTotal() != 1 {
				t.Errorf("problems %q, want one %q", msg, tc.want)
			}
		})
	}
}

// FuzzGenAIPerfRequest: any request between two valid ones: no panic,
// every column one entry per sample.
func FuzzGenAIPerfRequest(f *testing.F) {
	for _, s := range []string{`{"timestamp": 5, "response_timestamps": [6]}`, `{}`, `{"timestamp": 1e300}`, `null`, `"]`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rec []byte) {
		body := genaiperfExport(`{"timestamp": 1, "response_timestamps": [2]}`, string(rec), `{"timestamp": 3, "response_timestamps": [4]}`)
		path := writeTemp(t, dir, "profile_export.json", body)
		run := &contract.Run{Dir: dir, EventsPath: path, Format: contract.FormatGenAIPerf, Part: -1}
		var d contract.Decoded
		if _, err := (foreign.GenAIPerfReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, &d.Samples)
		if d.Samples.Len() < 1 {
			t.Fatalf("the first request was lost")
		}
	})
}

// loadgenTrace is an mlperf_log_trace.json with the given events
// (loadgen/logging.h's header and footer).
func loadgenTrace(events ...string) string {
	return "{ \"traceEvents\": [\n" + strings.Join(events, ",\n") + ",\n{ \"name\": \"LastTrace\" }\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": {\n\"version\": \"MLPerf LoadGen v0.5a0\"\n}\n}\n"
}

// loadgenSample is a sample's begin and end events, ts in ns.
func loadgenSample(id, ts, issue, complete int64) string {
	return `{"name": "Sample", "cat": "default", "ph": "b", "id": ` + contract.Itoa(id) + `, "pid": 1, "tid": 2, "ts": ` + contract.Itoa(ts) +
		`, "args": { "sample_seq" : ` + contract.Itoa(id) + `, "query_seq" : ` + contract.Itoa(id) + `, "sample_idx" : 7, "issue_start_ns" : ` + contract.Itoa(issue) +
		`, "complete_ns" : ` + contract.Itoa(complete) + ` }},` + "\n" + `{ "name": "Sample", "cat": "default", "ph": "e", "id": ` + contract.Itoa(id) + `, "pid": 1, "tid": 2, "ts": ` + contract.Itoa(ts+complete) + ` }`
}

// TestLoadGenTrace: each Sample pair reads to the values written: issue
// = scheduled ts + issue_start_ns, completion = ts + complete_ns; other
// events are skipped; no TTFT; a sample with complete before issue is
// counted at its event.
func TestLoadGenTrace(t *testing.T) {
	path := writeTemp(t, t.TempDir(), "mlperf_log_trace.json", loadgenTrace(
		`{ "name": "IssueQuery", "ph": "X", "pid": 1, "tid": 2, "ts": 10, "dur": 5, "args": {  }}`,
		loadgenSample(1, 2_000_000, 1_000, 500_000_000),
		loadgenSample(0, 1_000_000, 2_000, 250_000_000),
		`{"name": "Sample", "cat": "default", "ph": "b", "id": 9, "pid": 1, "tid": 2, "ts": 5, "args": { "issue_start_ns" : 10, "complete_ns" : 5 }}`))
	if f, err := DetectFile(path); err != nil || f != contract.FormatLoadGenTrace {
		t.Fatalf("detected %q %v", f, err)
	}
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	if s.Len() != 2 || s.IssueNs[0] != 1_002_000 || s.CompleteNs[0] != 251_000_000 || s.IssueNs[1] != 2_001_000 ||
		s.CompleteNs[1] != 502_000_000 || s.HasFirstToken[0] || !strings.Contains(tab.Info.ToolVersion, "ts unit 1 ns") {
		t.Errorf("issue %v complete %v first %v version %q", s.IssueNs, s.CompleteNs, s.HasFirstToken, tab.Info.ToolVersion)
	}
	if msg := warningsOf(tab); !strings.Contains(msg, "traceEvents[5].args.complete_ns: unexpected field type") || tab.Summary.ProblemTotal() != 1 {
		t.Errorf("problems %q", msg)
	}
	// The same trace with ts in µs (Chrome's unit) reads the same times.
	us := strings.NewReplacer(`"ts": 2000000,`, `"ts": 2000,`, `"ts": 502000000 }`, `"ts": 502000 }`,
		`"ts": 1000000,`, `"ts": 1000,`, `"ts": 251000000 }`, `"ts": 251000 }`).Replace(loadgenTrace(loadgenSample(1, 2_000_000, 1_000, 500_000_000), loadgenSample(0, 1_000_000, 2_000, 250_000_000)))
	path = writeTemp(t, t.TempDir(), "mlperf_log_trace.json", us)
	_, s = ingestPath(t, path)
	if s.Len() != 2 || s.IssueNs[0] != 1_002_000 || s.CompleteNs[1] != 502_000_000 {
		t.Errorf("µs trace: issue %v complete %v", s.IssueNs, s.CompleteNs)
	}
}

// FuzzLoadGenEvent: any event between two valid samples: no panic,
// every column one entry per sample.
func FuzzLoadGenEvent(f *testing.F) {
	for _, s := range []string{loadgenSample(3, 5, 1, 2), `{}`, `{"name":"Sample","ph":"b"}`, `{"name":"Sample","ph":"e","id":1,"ts":-1e300}`, `"]`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, ev []byte) {
		path := writeTemp(t, dir, "mlperf_log_trace.json", loadgenTrace(loadgenSample(1, 1000, 1, 500), string(ev), loadgenSample(2, 2000, 1, 500)))
		run := &contract.Run{Dir: dir, EventsPath: path, Format: contract.FormatLoadGenTrace, Part: -1}
		var d contract.Decoded
		if _, err := (foreign.LoadGenReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, &d.Samples)
		if d.Samples.Len() < 1 {
			t.Fatalf("the first sample was lost")
		}
	})
}
