package columnar

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// infperfInfo writes the info of one record in layout v (4, 5 or 6 for
// inference-perf v0.4, v0.5, v0.6) with in/out tokens and token times.
func infperfInfo(v int, in, out int, times string) string {
	switch v {
	case 4:
		return `{"input_tokens": ` + contract.Itoa(int64(in)) + `, "output_tokens": ` + contract.Itoa(int64(out)) + `, "output_token_times": ` + times + `, "extra_info": {}, "lora_adapter": null}`
	case 5:
		return `{"input_tokens": ` + contract.Itoa(int64(in)) + `, "extra_info": {}, "lora_adapter": null, "response_info": {"response_chunks": [], "chunk_times": [], "output_tokens": ` +
			contract.Itoa(int64(out)) + `, "output_token_times": ` + times + `, "server_usage": null}}`
	}
	return `{"request_metrics": {"text": {"input_tokens": ` + contract.Itoa(int64(in)) + `}, "image": null}, "response_metrics": {"output_tokens": ` + contract.Itoa(int64(out)) +
		`, "response_chunks": [], "chunk_times": [], "output_token_times": ` + times + `, "server_usage": null}, "extra_info": {}, "lora_adapter": null, "labels": {}, "input_tokens": ` + contract.Itoa(int64(in)) + `}`
}

// infperfRec is one RequestLifecycleMetric.
func infperfRec(start, end string, info, errJSON string) string {
	return `{"stage_id": 0, "scheduled_time": ` + start + `, "start_time": ` + start + `, "end_time": ` + end + `, "request_data": "{}", "response_data": null, "info": ` +
		info + `, "error": ` + errJSON + `}`
}

// TestInferencePerfLayouts: each of the three info layouts reads to the
// values written into it: issue = start_time, first token =
// output_token_times[0], end = end_time (perf_counter s), tokens as
// written, an error record a failure, and the layout named.
func TestInferencePerfLayouts(t *testing.T) {
	for _, v := range []int{4, 5, 6} {
		dir := t.TempDir()
		body := "[" + infperfRec("100.5", "102.5", infperfInfo(v, 50, 3, "[100.75, 101.0, 102.5]"), "null") + ",\n" +
			infperfRec("100.25", "101.25", infperfInfo(v, 60, 2, "[100.5, 101.25]"), "null") + ",\n" +
			infperfRec("101.0", "101.125", infperfInfo(v, 70, 0, "[]"), `{"error_type": "ClientResponseError", "error_msg": "503, message='Service Unavailable'"}`) + "]"
		path := writeTemp(t, dir, "per_request_lifecycle_metrics.json", body)
		if f, err := DetectFile(path); err != nil || f != contract.FormatInferencePerf {
			t.Fatalf("v0.%d detected %q %v", v, f, err)
		}
		tab, s := ingestPath(t, path)
		checkColumns(t, &s)
		if !strings.Contains(tab.Info.ToolVersion, "v0."+contract.Itoa(int64(v))) || tab.Info.EpochClock || tab.Info.NoTimelineReason != "" {
			t.Errorf("v0.%d info %+v", v, tab.Info)
		}
		if s.Len() != 3 || s.IssueNs[0] != 100.25e9 || s.TTFTNs[0] != 250e6 || s.LatencyNs[0] != 1e9 || s.FullTokens[0] != 2 || s.InTokens[0] != 60 ||
			s.TTFTNs[1] != 250e6 || s.LatencyNs[1] != 2e9 || s.FullTokens[1] != 3 || !s.Failed[2] || s.FailureKind[2] != core.FailHTTP || s.FailCode[2] != 503 {
			t.Errorf("v0.%d issue %v ttft %v latency %v tokens %v kinds %v codes %v", v, s.IssueNs, s.TTFTNs, s.LatencyNs, s.FullTokens, s.FailureKind, s.FailCode)
		}
		if tab.Summary.ProblemTotal() != 0 {
			t.Errorf("v0.%d problems %s", v, warningsOf(tab))
		}
	}
}

// TestInferencePerfMalformed: a bad record is counted at its index and
// field, the others read.
func TestInferencePerfMalformed(t *testing.T) {
	good := func(s string) string { return infperfRec(s, s+".5", infperfInfo(4, 1, 1, "["+s+".25]"), "null") }
	for _, tc := range []struct {
		name, rec, want string
		samples         int
	}{
		{"not an object", `7`, `[1]: JSON value is not an object`, 2},
		{"start a string", infperfRec(`"x"`, "5", infperfInfo(4, 1, 1, "[]"), "null"), `[1].start_time: unexpected field type`, 2},
		{"no start", `{"end_time": 5, "info": {}, "error": null}`, `[1].start_time: required field missing`, 2},
		{"end before start", infperfRec("5", "4", infperfInfo(4, 1, 1, "[]"), "null"), `[1].end_time: unexpected field type`, 3},
		{"first token after end", infperfRec("5", "6", infperfInfo(4, 1, 1, "[7]"), "null"), `[1].output_token_times[0]: unexpected field type`, 3},
		{"tokens negative", infperfRec("5", "6", infperfInfo(6, 1, -2, "[]"), "null"), `[1].info.output_tokens: unexpected field type`, 3},
		{"info an array", `{"start_time": 5, "end_time": 6, "info": [], "error": null}`, `[1].info: unexpected field type`, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "per_request_lifecycle_metrics.json", "["+good("1")+","+tc.rec+","+good("2")+"]")
			checkOneProblem(t, path, tc.samples, tc.want)
		})
	}
}

// FuzzInferencePerfRecord: any element between two valid ones: no
// panic, every column one entry per sample, the first record read.
func FuzzInferencePerfRecord(f *testing.F) {
	for _, s := range []string{infperfRec("1", "2", infperfInfo(5, 1, 1, "[1.5]"), "null"), `{}`, `{"start_time":1e308}`, `null`, `{"info":{"response_metrics":7}}`, `"]`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rec []byte) {
		body := "[" + infperfRec("1", "2", infperfInfo(4, 1, 1, "[1.5]"), "null") + "," + string(rec) + "," + infperfRec("3", "4", infperfInfo(6, 1, 1, "[3.5]"), "null") + "]"
		d, err := readTemp(t, dir, "per_request_lifecycle_metrics.json", body, contract.FormatInferencePerf, contract.IngestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Samples.Len() < 1 {
			t.Fatalf("%d samples: the first record was lost", d.Samples.Len())
		}
	})
}
