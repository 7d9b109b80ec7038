package columnar

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// aiperf2026 is a record of AIPerf's 2026 generation (MetricRecordMetadata
// as a msgspec Struct with omit_defaults: was_cancelled and the null
// fields are left out; request_num, credit_issued_ns, credit_received_ns
// and clock_offset_ns added).
func aiperf2026(num, start, end int64, extra string) string {
	return `{"metadata":{"request_num":` + contract.Itoa(num) + `,"session_num":` + contract.Itoa(num) + `,"x_request_id":"r` + contract.Itoa(num) +
		`","credit_issued_ns":` + contract.Itoa(start-900) + `,"credit_received_ns":` + contract.Itoa(start-400) +
		`,"request_start_ns":` + contract.Itoa(start) + `,"request_ack_ns":` + contract.Itoa(start+1000) + `,"request_end_ns":` + contract.Itoa(end) +
		`,"worker_id":"worker_0","record_processor_id":"rp_0","benchmark_phase":"profiling","clock_offset_ns":-1234567` + extra + `},` +
		`"metrics":{"time_to_first_token":{"value":12.5,"unit":"ms"},"request_latency":{"value":` + contract.Itoa((end-start)/1e6) +
		`,"unit":"ms"},"output_sequence_length":{"value":40,"unit":"tokens"},"input_sequence_length":{"value":100,"unit":"tokens"}}}`
}

// TestAIPerf2026Records: the 2026 record generation reads to the values
// written into it: the issue time is request_start_ns (not the credit's
// issue or receipt, which precede the request), TTFT time_to_first_token,
// the end start + request_latency; clock_offset_ns (a worker-to-
// controller estimate) moves nothing; an omitted was_cancelled is false
// and a present one true makes a cancelled failure. A summary with an
// empty run_info still gives the model and load.
func TestAIPerf2026Records(t *testing.T) {
	dir := t.TempDir()
	body := aiperf2026(1, 2_000_000_000_000, 2_000_500_000_000, "") + "\n" +
		aiperf2026(0, 1_000_000_000_000, 1_000_300_000_000, "") + "\n" +
		aiperf2026(2, 3_000_000_000_000, 3_000_100_000_000, `,"was_cancelled":true,"cancellation_time_ns":3000100000000`) + "\n"
	writeTemp(t, dir, "profile_export.jsonl", body)
	writeTemp(t, dir, "profile_export_aiperf.json", `{"run_info":{},"input_config":{"endpoint":{"model_names":["Qwen/Qwen3-0.6B"],"streaming":true,"type":"chat"},"loadgen":{"concurrency":8}}}`)
	tab, s := ingestPath(t, dir)
	checkColumns(t, &s)
	if tab.Info.Model != "Qwen/Qwen3-0.6B" || tab.Info.Concurrency != 8 || tab.Info.SourceFormat != "aiperf" {
		t.Errorf("info %+v", tab.Info)
	}
	if s.Len() != 3 || s.IssueNs[0] != 1_000_000_000_000 || s.TTFTNs[0] != 12_500_000 || s.LatencyNs[0] != 300_000_000 ||
		s.FullTokens[0] != 40 || s.InTokens[0] != 100 || s.IssueNs[1] != 2_000_000_000_000 || s.Failed[0] || s.Failed[1] ||
		!s.Failed[2] || s.FailureKind[2] != core.FailCancelled {
		t.Errorf("columns: issue %v ttft %v latency %v failed %v kinds %v", s.IssueNs, s.TTFTNs, s.LatencyNs, s.Failed, s.FailureKind)
	}
	if tab.Summary.ProblemTotal() != 0 {
		t.Errorf("problems: %s", strings.Join(tab.Summary.Warnings(), "; "))
	}
}
