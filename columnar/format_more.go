package columnar

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

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
)

// moreFormats are the formats read since issue 31 (registerMore).
var moreFormats []Format

// registerMore adds a format read since issue 31 and its reader (each
// reader's file registers its own).
func registerMore(f Format, r Reader) {
	Formats = append(Formats, f)
	moreFormats = append(moreFormats, f)
	readers[f] = r
}

func init() {
	registerMore(FormatLMBench, lmbenchReader{})
	registerMore(FormatLLMPerf, llmperfReader{})
	foreignLogPatterns = append(foreignLogPatterns, "*.csv", "*.csv.gz", "*.csv.zst", "*.jsonl", "*.jsonl.gz", "*.jsonl.zst")
}

// recordsTokensMore reports whether one of this file's formats records
// the tool's own token counts (all of them do).
func recordsTokensMore(f Format) bool { return slices.Contains(moreFormats, f) }

// detectMore classifies a head that the first five formats' rules do not
// claim: a CSV whose header names a format's columns, or a JSON list
// whose first element's keys do. seen describes a recognised file that
// is not a per-request log ("" when nothing was recognised).
func detectMore(body []byte) (f Format, seen string) {
	switch {
	case len(body) == 0:
		return "", ""
	case body[0] == '[':
		return classifyList(body)
	}
	line, _, _ := bytes.Cut(body, []byte("\n"))
	return classifyCSV(csvHeader(line))
}

// csvHeader splits a CSV header line into its column names (quotes and
// spaces around a name dropped).
func csvHeader(line []byte) []string {
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

// classifyCSV picks the format of a CSV by its header.
func classifyCSV(cols []string) (Format, string) {
	has := func(k string) bool { return slices.Contains(cols, k) }
	if has("prompt_tokens") && has("generation_tokens") && has("ttft") && has("launch_time") && has("finish_time") {
		return FormatLMBench, ""
	}
	if has("request_start_ns") && has("request_end_ns") && has("benchmark_phase") {
		return FormatAIPerfCSV, "" // profile_export_records.csv (reader_aiperfcsv.go)
	}
	return "", ""
}

// classifyList picks the format of a JSON list by its first element's
// keys.
func classifyList(body []byte) (Format, string) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return "", ""
	}
	if !dec.More() {
		return "", "an empty JSON list"
	}
	rest := body[dec.InputOffset():]
	rest = bytes.TrimLeft(rest, " \t\r\n,")
	if len(rest) == 0 || rest[0] != '{' {
		return "", ""
	}
	keys, _ := topLevelKeys(rest)
	has := func(k string) bool { return slices.Contains(keys, k) }
	switch {
	case has("ttft_s") && (has("end_to_end_latency_s") || has("number_output_tokens")):
		return FormatLLMPerf, ""
	case has("start_time") && has("end_time") && (has("info") || has("scheduled_time")):
		return FormatInferencePerf, ""
	}
	return "", ""
}

// classifyMoreJSON picks, from a JSON object's top-level keys, one of
// the formats read since issue 31 ("" for none); it runs before the
// first five formats' rules, since an SGLang result also has ttfts.
func classifyMoreJSON(keys []string) Format {
	has := func(k string) bool { return slices.Contains(keys, k) }
	switch {
	case isSGLangResult(keys):
		return FormatSGLang
	case has("experiments") && !has("records") && !has("benchmarks"):
		return FormatGenAIPerf
	case has("traceEvents"):
		return FormatLoadGenTrace
	}
	return ""
}
