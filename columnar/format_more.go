package columnar

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// detectMore classifies a head that the first five formats' rules do not
// claim: a CSV whose header names a format's columns, or a JSON list
// whose first element's keys do. seen describes a recognised file that
// is not a per-request log ("" when nothing was recognised).
func detectMore(body []byte) (f contract.Format, seen string) {
	switch {
	case len(body) == 0:
		return "", ""
	case body[0] == '[':
		return classifyList(body)
	}
	line, _, _ := bytes.Cut(body, []byte("\n"))
	return classifyCSV(contract.CSVHeader(line))
}

// classifyCSV picks the format of a CSV by its header.
func classifyCSV(cols []string) (contract.Format, string) {
	has := func(k string) bool { return slices.Contains(cols, k) }
	if has("prompt_tokens") && has("generation_tokens") && has("ttft") && has("launch_time") && has("finish_time") {
		return contract.FormatLMBench, ""
	}
	if has("request_start_ns") && has("request_end_ns") && has("benchmark_phase") {
		return contract.FormatAIPerfCSV, "" // profile_export_records.csv (foreign/reader_aiperfcsv.go)
	}
	return "", ""
}

// classifyList picks the format of a JSON list by its first element's
// keys.
func classifyList(body []byte) (contract.Format, string) {
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
		return contract.FormatLLMPerf, ""
	case has("start_time") && has("end_time") && (has("info") || has("scheduled_time")):
		return contract.FormatInferencePerf, ""
	}
	return "", ""
}

// classifyMoreJSON picks, from a JSON object's top-level keys, one of
// the formats read since issue 31 ("" for none); it runs before the
// first five formats' rules, since an SGLang result also has ttfts.
func classifyMoreJSON(keys []string) contract.Format {
	has := func(k string) bool { return slices.Contains(keys, k) }
	switch {
	case foreign.IsSGLangResult(keys):
		return contract.FormatSGLang
	case has("experiments") && !has("records") && !has("benchmarks"):
		return contract.FormatGenAIPerf
	case has("traceEvents"):
		return contract.FormatLoadGenTrace
	}
	return ""
}

// isParquet reports a head that starts with the Parquet magic, "PAR1".
func isParquet(head []byte) bool { return bytes.HasPrefix(head, []byte("PAR1")) }

// detectParquet classifies a Parquet file by its schema (in the footer,
// read through parquetio): AIPerf's per-record export has the
// foreign.AIPerfParquetRequired columns. Another Parquet file (our own
// rows, a cache entry) is an UnknownFormatError naming its columns.
func detectParquet(path string) (contract.Format, error) {
	r, err := parquetio.Open(path)
	if err != nil {
		return "", &UnknownFormatError{File: path, Seen: "a Parquet file whose footer cannot be read (" + err.Error() + ")"}
	}
	defer r.Close()
	names := make([]string, r.Schema().NumFields())
	for i, f := range r.Schema().Fields() {
		names[i] = f.Name
	}
	for _, c := range foreign.AIPerfParquetRequired {
		if r.ColumnIndex(c) < 0 {
			return "", &UnknownFormatError{File: path, Seen: "a Parquet file with columns " + keyList(names)}
		}
	}
	return contract.FormatAIPerfParquet, nil
}
