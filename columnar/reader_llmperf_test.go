package columnar

import (
	"strconv"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// llmperfGood is a successful LLMPerf record (keys of
// src/llmperf/common_metrics.py).
func llmperfGood(ttft, e2e string, out int) string {
	return `{"error_code": null, "error_msg": "", "inter_token_latency_s": 0.04, "ttft_s": ` + ttft + `, "end_to_end_latency_s": ` + e2e +
		`, "request_output_throughput_token_per_s": 20.0, "number_total_tokens": 700, "number_output_tokens": ` + strconv.Itoa(out) + `, "number_input_tokens": 550}`
}

// TestLLMPerfRead: the values written into a file: TTFT and latency per
// request with no timeline (status reason set, every issue time 0),
// error_code → failure (an HTTP code names http, -100 is an error),
// tokens as written; model, version and concurrency from the summary.
func TestLLMPerfRead(t *testing.T) {
	dir := t.TempDir()
	body := "[" + llmperfGood("0.25", "5.5", 7) + ",\n" +
		`{"error_code": -100, "error_msg": "Output too few tokens 3", "ttft_s": 0.5, "end_to_end_latency_s": 4.0, "number_output_tokens": 3, "number_input_tokens": 550},` + "\n" +
		`{"error_code": 429, "error_msg": "Too Many Requests", "ttft_s": 0, "end_to_end_latency_s": 0, "number_output_tokens": 0, "number_input_tokens": 550},` + "\n" +
		llmperfGood("0.125", "6.0", 9) + "]"
	writeTemp(t, dir, "m_550_150_individual_responses.json", body)
	writeTemp(t, dir, "m_550_150_summary.json", `{"version": "2023-08-31", "model": "meta.llama2-70b-chat-v1", "num_concurrent_requests": 5}`)
	tab, s := ingestPath(t, dir)
	checkColumns(t, &s)
	info := tab.Info
	if info.SourceFormat != "llmperf" || info.Model != "meta.llama2-70b-chat-v1" || info.Concurrency != 5 ||
		info.ToolVersion != "LLMPerf 2023-08-31" || !strings.Contains(info.NoTimelineReason, "no start or end times") {
		t.Errorf("info %+v", info)
	}
	if s.Len() != 4 || s.TTFTNs[0] != 250e6 || s.LatencyNs[0] != 5.5e9 || s.FullTokens[0] != 7 || s.InTokens[0] != 550 ||
		s.FailureKind[1] != core.FailError || s.FailureKind[2] != core.FailHTTP || s.FailCode[2] != 429 ||
		s.HasFirstToken[1] || s.TTFTNs[3] != 125e6 || s.FullTokens[3] != 9 || s.IssueNs[3] != 0 {
		t.Errorf("columns: ttft %v latency %v tokens %v kinds %v codes %v", s.TTFTNs, s.LatencyNs, s.FullTokens, s.FailureKind, s.FailCode)
	}
	if tab.Summary.Failed != 2 || tab.Summary.Completed != 2 {
		t.Errorf("summary %+v", tab.Summary)
	}
}

// TestLLMPerfMalformed: a bad record is counted at its index and field,
// and the others read.
func TestLLMPerfMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, rec string
		want      string
		samples   int
	}{
		{"not an object", `[1, 2]`, `[1]: JSON value is not an object`, 2},
		{"ttft a string", `{"error_code": null, "ttft_s": "fast", "end_to_end_latency_s": 2}`, `[1].ttft_s: unexpected field type`, 3},
		{"tokens fractional", `{"error_code": null, "ttft_s": 1, "end_to_end_latency_s": 2, "number_output_tokens": 2.5}`, `[1].number_output_tokens: unexpected field type`, 3},
		{"no latency", `{"error_code": null, "ttft_s": 1}`, `[1].end_to_end_latency_s: required field missing`, 3},
		{"error code an object", `{"error_code": {}, "ttft_s": 1, "end_to_end_latency_s": 2}`, `[1].error_code: unexpected field type`, 3},
		{"bad number", `{"error_code": null, "ttft_s": 1e, "end_to_end_latency_s": 2}`, `[1]: not valid JSON`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "x_individual_responses.json", "["+llmperfGood("0.25", "5.5", 7)+","+tc.rec+","+llmperfGood("0.5", "6", 8)+"]")
			checkOneProblem(t, path, tc.samples, tc.want)
		})
	}
	// A list cut short: the records before the cut are read, the run is
	// partial.
	path := writeTemp(t, t.TempDir(), "x_individual_responses.json", "["+llmperfGood("0.25", "5.5", 7)+","+llmperfGood("0.5", "6", 8)[:30])
	tab, s := ingestPath(t, path)
	if s.Len() != 1 || !tab.Info.Partial || !strings.Contains(warningsOf(tab), "[1]") {
		t.Errorf("cut: %d samples, partial %v, %q", s.Len(), tab.Info.Partial, warningsOf(tab))
	}
}

// FuzzLLMPerfRecord: any element between two valid ones: no panic, every
// column one entry per sample, the valid records read unless the element
// breaks the list's syntax.
func FuzzLLMPerfRecord(f *testing.F) {
	for _, s := range []string{llmperfGood("1", "2", 3), `{}`, `{"error_code":"x"}`, `null`, `{"ttft_s":1e308,"end_to_end_latency_s":-1}`, `"]`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rec []byte) {
		body := "[" + llmperfGood("0.25", "5.5", 7) + "," + string(rec) + "," + llmperfGood("0.5", "6", 8) + "]"
		d, err := readTemp(t, dir, "x_individual_responses.json", body, contract.FormatLLMPerf, contract.IngestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Samples.Len() < 1 {
			t.Fatalf("%d samples: the first record was lost", d.Samples.Len())
		}
	})
}
