package contract

import (
	"bytes"
	"io"
	"slices"
	"strings"
)

// FormatGenAIPerf is genai-perf's profile_export.json (perf_analyzer's
// profile export): experiments[].requests[] with ns timestamps.
const FormatGenAIPerf Format = "genai-perf"

// FormatSGLang is SGLang's `bench_serving --output-details` result
// (python/sglang/bench_serving.py): one JSON object a line, appended per
// run, with the per-request arrays ttfts, itls, input_lens, output_lens,
// errors and no start times.
const FormatSGLang Format = "sglang"

// Format names a per-request log format: one Reader each.
type Format string

// The formats steadysweep reads.
const (
	// FormatEndpoints is the MLCommons endpoints events.jsonl written
	// since PR #282 (April 2026): dotted event types, PromptData and
	// TextModelOutput payloads (event-log spec §1).
	FormatEndpoints Format = "endpoints"
	// FormatEndpointsLegacy is the events.jsonl of endpoints runs before
	// #282: alphabetically sorted keys approx_datetime_str, event_type,
	// sample_uuid, timestamp_ns, value; dot-less event types (§1.9).
	FormatEndpointsLegacy Format = "endpoints-legacy"
	// FormatAIPerf is NVIDIA AIPerf's profile_export*.jsonl: one record per
	// request, {metadata, metrics, error}.
	FormatAIPerf Format = "aiperf"
	// FormatGuideLLM is a GuideLLM benchmarks report (JSON, or YAML up to
	// maxYAMLReport): benchmarks[].requests.{successful,errored,incomplete}.
	FormatGuideLLM Format = "guidellm"
	// FormatVLLM is a `vllm bench serve --save-result --save-detailed`
	// result: one JSON object of per-request arrays (ttfts, itls, …).
	FormatVLLM Format = "vllm"
)

// Formats lists every format, in the order detection reports them: the
// first five, then (from firstMoreFormat) those read since issue 31. A
// literal, which the linker lays out, not an append run at start-up.
var Formats = []Format{FormatEndpoints, FormatEndpointsLegacy, FormatAIPerf, FormatGuideLLM, FormatVLLM,
	FormatLMBench, FormatLLMPerf, FormatGenAIPerf, FormatInferencePerf, FormatLoadGenTrace, FormatSGLang, FormatAIPerfCSV, FormatAIPerfParquet}

// RecordsTokens reports whether the format's logs carry the tool's own
// token counts, so that no tokenizer is needed (or used) to read them.
func (f Format) RecordsTokens() bool {
	switch f {
	case FormatAIPerf, FormatGuideLLM, FormatVLLM:
		return true
	}
	return recordsTokensMore(f)
}

// HasDatasetPass reports whether the format's runs iterate a dataset in
// passes (so the dataset size is the natural super-pass size); the
// others get DefaultSuperpassSize.
func (f Format) HasDatasetPass() bool {
	return f == FormatEndpoints || f == FormatEndpointsLegacy
}

// SniffSize is how much of a file (after decompression) detection reads.
const SniffSize = 256 << 10

// ReadHead returns up to n decompressed bytes from the start of path. A
// read error ends the head without failing: what was read decides, and
// the reader reports the damage where it meets it.
func ReadHead(path string, n int) ([]byte, error) {
	rc, err := openEventsSized(path, nil, headBufSize)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	// One buffer of the head's size (the file's, when it is plain and
	// shorter), filled in place: io.ReadAll's doublings touched twice
	// the pages of a short head.
	size := n
	if _, compressed := rc.Reader.(*BoundedReader); !compressed && rc.Size > 0 {
		size = int(min(int64(n), rc.Size))
	}
	head := make([]byte, size)
	k, _ := io.ReadFull(rc, head)
	if k == size && size < n { // the file grew since its size was taken
		rest, _ := io.ReadAll(io.LimitReader(rc, int64(n-size)))
		return append(head, rest...), nil
	}
	return head[:k], nil
}

// FormatInferencePerf is kubernetes-sigs/inference-perf's
// per_request_lifecycle_metrics.json: a JSON list of
// RequestLifecycleMetric (inference_perf/apis/base.py).
const FormatInferencePerf Format = "inference-perf"

// The formats read since issue 31, each by its own reader_*.go. They are
// detected by content only (detectMore), as the first five are.
const (
	// FormatLMBench is LMCache LMBenchmark's per-request CSV (the
	// multi-round QA client's summary DataFrame): prompt_tokens,
	// generation_tokens, ttft, generation_time[, user_id, question_id],
	// launch_time, finish_time.
	FormatLMBench Format = "lmbench"
	// FormatLLMPerf is LLMPerf's *_individual_responses.json: a JSON list
	// of per-request dicts (ttft_s, end_to_end_latency_s, …) without
	// timestamps.
	FormatLLMPerf Format = "llmperf"
	// FormatAIPerfCSV is AIPerf's opt-in per-record CSV,
	// profile_export_records.csv (csv among --export-level records'
	// formats; the Rust port writes the same file, its own header names).
	FormatAIPerfCSV Format = "aiperf-csv"
	// FormatAIPerfParquet is the AIPerf Rust port's per-record Parquet,
	// profile_export.parquet (parquet among artifacts.records): one row
	// per request, the records CSV's columns typed.
	FormatAIPerfParquet Format = "aiperf-parquet"
)

// firstMoreFormat is the index in Formats of the first format read since
// issue 31.
const firstMoreFormat = 5

// recordsTokensMore reports whether one of this file's formats records
// the tool's own token counts (all of them do).
func recordsTokensMore(f Format) bool { return slices.Contains(Formats[firstMoreFormat:], f) }

// CSVHeader splits a CSV header line into its column names (quotes and
// spaces around a name dropped).
func CSVHeader(line []byte) []string {
	line = bytes.TrimRight(line, "\r")
	if !bytes.Contains(line, []byte(",")) {
		return nil
	}
	var cols []string
	for _, c := range strings.Split(string(line), ",") {
		cols = append(cols, strings.Trim(strings.TrimSpace(c), `"`))
	}
	return cols
}

// FormatLoadGenTrace is MLPerf LoadGen's mlperf_log_trace.json: a Chrome
// trace whose "Sample" events time each sample.
const FormatLoadGenTrace Format = "loadgen-trace"

// ResultsFormat reports whether f's files hold one result object a line,
// several when appended (vLLM --append-result, SGLang always appends).
func ResultsFormat(f Format) bool {
	return f == FormatVLLM || f == FormatSGLang
}
