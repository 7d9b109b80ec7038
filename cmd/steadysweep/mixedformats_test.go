package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// mixedArchive writes one small generated log of every format read since
// issue 31 (each version's layout) under dir, n requests each, and
// returns the run ids discovery should yield, relative to dir's name.
func mixedArchive(t *testing.T, dir string, n int) []string {
	t.Helper()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	each := func(f func(i int) string, sep string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = f(i)
		}
		return strings.Join(parts, sep)
	}
	start := func(i int) float64 { return 1000 + 0.5*float64(i) }
	write("lmbench1/a.csv", "prompt_tokens,generation_tokens,ttft,generation_time,launch_time,finish_time\n"+each(func(i int) string {
		return fmt.Sprintf("100,20,0.125,1.5,%v,%v", start(i), start(i)+1.625)
	}, "\n")+"\n")
	write("lmbench2/b.csv", "prompt_tokens,generation_tokens,ttft,generation_time,user_id,question_id,launch_time,finish_time\n"+each(func(i int) string {
		return fmt.Sprintf("100.0,20.0,0.125,1.5,%d,%d,%v,%v", i%7, i/7+1, start(i), start(i)+1.625)
	}, "\n")+"\n")
	write("llmperf/m_individual_responses.json", "["+each(func(i int) string {
		return `{"error_code": null, "error_msg": "", "ttft_s": 0.25, "end_to_end_latency_s": 2.5, "number_input_tokens": 550, "number_output_tokens": 20}`
	}, ",\n")+"]")
	arrays := func(f func(i int) string) string { return "[" + each(f, ", ") + "]" }
	sglang := `{"backend": "sglang", "dataset_name": "random", "request_rate": 2.0, "max_concurrency": 4, "sharegpt_output_len": null, "random_range_ratio": 0.0, ` +
		`"completed": 1, "ttfts": ` + arrays(func(int) string { return "0.125" }) + `, "itls": ` + arrays(func(int) string { return "[0.0625, 0.0625]" }) +
		`, "input_lens": ` + arrays(func(int) string { return "10" }) + `, "output_lens": ` + arrays(func(int) string { return "3" }) +
		`, "errors": ` + arrays(func(int) string { return `""` }) + "}"
	write("sglang/sglang_1107_random.jsonl", sglang+"\n"+sglang+"\n")
	vllm := `{"date": "20260102-030405", "backend": "openai", "model_id": "m", "num_prompts": 4, "request_rate": 2.0, "burstiness": 1.0, "max_concurrency": null, ` +
		`"latencies": ` + arrays(func(int) string { return "0.75" }) + `, "queue_times": ` + arrays(func(int) string { return "0.0" }) + "}"
	write("vllm-plain/openai-2qps-m-20260102-030405.json", vllm)
	write("vllm-appended/openai-2qps-m.json", vllm+"\n"+vllm)
	// vllm-bench (vLLM's Rust benchmark): compact, keys sorted, start_times
	// from the benchmark's start, its own steady_state window.
	write("rustbench/openai-infqps-concurrency4-m-20260102-030405.json", `{"backend":"openai","completed":`+fmt.Sprint(n)+`,"date":"20260102-030405",`+
		`"errors":`+arrays(func(int) string { return `""` })+`,"failed":0,"input_lens":`+arrays(func(int) string { return "10" })+
		`,"itls":`+arrays(func(int) string { return "[0.5,0.5,0.5]" })+`,"latencies":`+arrays(func(int) string { return "1.625" })+
		`,"max_concurrency":4,"model_id":"m","num_prompts":`+fmt.Sprint(n)+`,"output_lens":`+arrays(func(int) string { return "4" })+
		`,"request_rate":"inf","start_times":`+arrays(func(i int) string { return fmt.Sprint(start(i) - 1000) })+
		`,"steady_state":{"window":{"end_s":10.0,"start_s":2.0}},"ttfts":`+arrays(func(int) string { return "0.125" })+"}")
	infInfo := []string{
		`{"input_tokens": 10, "output_tokens": 3, "output_token_times": [%[1]v, %[2]v]}`,
		`{"input_tokens": 10, "response_info": {"output_tokens": 3, "output_token_times": [%[1]v, %[2]v]}}`,
		`{"request_metrics": {"text": {"input_tokens": 10}}, "response_metrics": {"output_tokens": 3, "output_token_times": [%[1]v, %[2]v]}, "input_tokens": 10}`,
	}
	for v, layout := range infInfo {
		write(fmt.Sprintf("inference-perf-v0.%d/per_request_lifecycle_metrics.json", v+4), "["+each(func(i int) string {
			s := start(i)
			return fmt.Sprintf(`{"stage_id": 0, "scheduled_time": %v, "start_time": %v, "end_time": %v, "request_data": "{}", "info": %s, "error": null}`,
				s, s, s+1, fmt.Sprintf(layout, s+0.125, s+1))
		}, ",\n")+"]")
	}
	write("genai-perf/profile_export.json", `{"experiments": [{"experiment": {"mode": "concurrency", "value": 2}, "requests": [`+each(func(i int) string {
		s := int64(start(i) * 1e9)
		return fmt.Sprintf(`{"timestamp": %d, "response_timestamps": [%d, %d]}`, s, s+125e6, s+1e9)
	}, ", ")+`]}], "version": "0.0.8"}`)
	write("loadgen/mlperf_log_trace.json", "{ \"traceEvents\": [\n"+each(func(i int) string {
		ts := int64(start(i) * 1e9)
		return fmt.Sprintf(`{"name": "Sample", "cat": "default", "ph": "b", "id": %d, "pid": 1, "tid": 1, "ts": %d, "args": { "sample_seq" : %d, "issue_start_ns" : 1000, "complete_ns" : 900000000 }},`+"\n"+
			`{ "name": "Sample", "cat": "default", "ph": "e", "id": %d, "pid": 1, "tid": 1, "ts": %d },`, i, ts, i, i, ts+9e8)
	}, "\n")+"\n{ \"name\": \"LastTrace\" }\n],\n\"displayTimeUnit\": \"ns\"\n}\n")
	write("aiperf2026/profile_export.jsonl", each(func(i int) string {
		s := int64(start(i) * 1e9)
		return fmt.Sprintf(`{"metadata": {"request_num": %d, "session_num": %d, "credit_issued_ns": %d, "credit_received_ns": %d, "request_start_ns": %d, "request_end_ns": %d, `+
			`"worker_id": "w", "record_processor_id": "rp", "benchmark_phase": "profiling", "clock_offset_ns": 12}, "metrics": {"time_to_first_token": {"value": 125.0, "unit": "ms"}, `+
			`"request_latency": {"value": 1000.0, "unit": "ms"}, "output_sequence_length": {"value": 20, "unit": "tokens"}}}`, i, i, s-10, s-5, s, s+1e9)
	}, "\n")+"\n")
	// AIPerf's opt-in records CSV (Python layout), alone in its directory.
	write("aiperfcsv/profile_export_records.csv", "request_num,session_num,x_request_id,benchmark_phase,request_start_ns,request_end_ns,was_cancelled,"+
		"error_code,error_message,time_to_first_token (ms),request_latency (ms),output_sequence_length (tokens)\n"+each(func(i int) string {
		s := int64(start(i) * 1e9)
		return fmt.Sprintf("%d,%d,r%d,profiling,%d,%d,False,,,125,1000,20", i, i, i, s, s+1e9)
	}, "\n")+"\n")
	// AIPerf's own steady-state window beside the 2026 records: requests 5
	// to 30 (profile_export_aiperf_steady_state.json, window_metadata).
	write("aiperf2026/profile_export_aiperf_steady_state.json", fmt.Sprintf(`{"window_metadata": {"detection_method": "cusum", `+
		`"ramp_up_end_ns": %v, "ramp_down_start_ns": %v}, "metrics": {}}`, start(5)*1e9, start(30)*1e9))
	// The AIPerf Rust port's per-record Parquet, alone in its directory.
	writeAIPerfParquetRows(t, filepath.Join(dir, "aiperfparquet", "profile_export.parquet"), n, func(i int) int64 { return int64(start(i) * 1e9) })
	ids := []string{"lmbench1/a.csv", "lmbench2/b.csv", "llmperf/m_individual_responses.json",
		"sglang/sglang_1107_random.jsonl#0", "sglang/sglang_1107_random.jsonl#1", "vllm-plain/openai-2qps-m-20260102-030405.json",
		"vllm-appended/openai-2qps-m.json#0", "vllm-appended/openai-2qps-m.json#1",
		"inference-perf-v0.4/per_request_lifecycle_metrics.json", "inference-perf-v0.5/per_request_lifecycle_metrics.json",
		"inference-perf-v0.6/per_request_lifecycle_metrics.json", "genai-perf/profile_export.json", "loadgen/mlperf_log_trace.json", "aiperf2026", "aiperfcsv", "aiperfparquet",
		"rustbench/openai-infqps-concurrency4-m-20260102-030405.json"}
	for i := range ids {
		ids[i] = filepath.Join(filepath.Base(dir), ids[i])
	}
	sort.Strings(ids)
	return ids
}

// TestSweepMixedFormats: a sweep over an archive holding every format and
// version read since issue 31 gives one row per run (each appended
// vLLM/SGLang result and each file its own run), none of them `error`;
// the formats without start times are no_timeline with their reason;
// vllm-bench's own window is in its row.
func TestSweepMixedFormats(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mixed")
	want := mixedArchive(t, dir, 40)
	rows := sweepRowsOf(t, dir)
	var got []string
	for _, r := range rows {
		id, _ := r["run_rel"].(string)
		got = append(got, id)
		status, _ := r["status"].(string)
		if status == "error" || status == "" {
			t.Errorf("%s: status %q, reason %v", id, status, r["reason"])
		}
		noTimeline := strings.Contains(id, "llmperf") || strings.Contains(id, "sglang") || strings.Contains(id, "vllm")
		if noTimeline != (status == "no_timeline") {
			t.Errorf("%s: status %q", id, status)
		}
		// vllm-bench's steady_state window, on the run's clock: its first
		// start is 0 s, the window [2 s, 10 s] after it; AIPerf's window,
		// [1002.5 s, 1015 s] as written.
		s, e := r["peer_window_start_ns"], r["peer_window_end_ns"]
		switch {
		case strings.Contains(id, "rustbench"):
			if s != int64(2e9) || e != int64(10e9) {
				t.Errorf("%s: peer window [%v, %v]", id, s, e)
			}
		case strings.HasSuffix(id, "aiperf2026"):
			if s != int64(1002.5e9) || e != int64(1015e9) {
				t.Errorf("%s: peer window [%v, %v]", id, s, e)
			}
		case s != nil:
			t.Errorf("%s: peer window [%v, %v]", id, s, e)
		}
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("runs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// writeAIPerfParquetRows writes n requests as the AIPerf Rust port's
// profile_export.parquet (the columns its reader uses, of
// rust/runtime/src/export/per_record_parquet.rs' schema), request i
// issued at start(i) ns, TTFT 125 ms, latency 1000 ms, 20 output tokens.
func writeAIPerfParquetRows(t *testing.T, path string, n int, start func(i int) int64) {
	t.Helper()
	md := arrow.NewMetadata([]string{"aiperf.schema_version", "aiperf.units"},
		[]string{"1.0", `{"output_sequence_length":"tokens","request_latency":"ms","time_to_first_token":"ms"}`})
	f64 := arrow.PrimitiveTypes.Float64
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "x_request_id", Type: arrow.BinaryTypes.String}, {Name: "request_start_ns", Type: arrow.PrimitiveTypes.Int64},
		{Name: "request_end_ns", Type: arrow.PrimitiveTypes.Int64}, {Name: "benchmark_phase", Type: arrow.BinaryTypes.String},
		{Name: "was_cancelled", Type: arrow.FixedWidthTypes.Boolean}, {Name: "request_latency", Type: f64, Nullable: true},
		{Name: "time_to_first_token", Type: f64, Nullable: true}, {Name: "output_sequence_length", Type: f64, Nullable: true},
	}, &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.StringBuilder).Append(fmt.Sprint("r", i))
		b.Field(1).(*array.Int64Builder).Append(start(i))
		b.Field(2).(*array.Int64Builder).Append(start(i) + 1e9)
		b.Field(3).(*array.StringBuilder).Append("profiling")
		b.Field(4).(*array.BooleanBuilder).Append(false)
		b.Field(5).(*array.Float64Builder).Append(1000)
		b.Field(6).(*array.Float64Builder).Append(125)
		b.Field(7).(*array.Float64Builder).Append(20)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := parquetio.WriteRecord(f, arrowbatch.Batch(rec), nil); err != nil {
		t.Fatal(err)
	}
}
