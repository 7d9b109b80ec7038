package columnar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/steadysweep/steadysweep/core"
)

// FormatSGLang is SGLang's `bench_serving --output-details` result
// (python/sglang/bench_serving.py): one JSON object a line, appended per
// run, with the per-request arrays ttfts, itls, input_lens, output_lens,
// errors and no start times.
const FormatSGLang Format = "sglang"

func init() {
	Formats = append(Formats, FormatSGLang)
	moreFormats = append(moreFormats, FormatSGLang)
	readers[FormatSGLang] = sglangReader{}
}

// sglangReader reads an SGLang bench_serving result. Its arrays are
// vLLM's old ones (vLLM's benchmark_serving.py and SGLang's share an
// ancestor), so the vLLM reader decodes them; what differs is what the
// run's facts say: the tool, and why there is no timeline. bench_serving
// never records when a request was sent, so every SGLang result is
// whole-run numbers only.
type sglangReader struct{}

func (sglangReader) Format() Format { return FormatSGLang }

// sglangNoTimeline is the NoTimelineReason of every SGLang result.
const sglangNoTimeline = "SGLang bench_serving --output-details records ttfts, itls, input_lens and output_lens per request but no start times: " +
	"each request's TTFT and latency (TTFT + Σ ITL) are known but not when it was sent, so no window, duration or throughput can be computed; whole-run numbers only"

func (sglangReader) Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error) {
	info, err := vllmReader{}.Read(ctx, run, opts, dst)
	if err != nil {
		return info, err
	}
	info.NoTimelineReason = sglangNoTimeline
	info.ToolVersion = "SGLang bench_serving"
	return info, nil
}

// isSGLangResult reports whether a result object's keys are SGLang
// bench_serving's: its own arguments (sharegpt_output_len,
// random_range_ratio), server_info or accept_length, and no vLLM
// model_id.
func isSGLangResult(keys []string) bool {
	has := func(k string) bool { return slices.Contains(keys, k) }
	return !has("model_id") && (has("sharegpt_output_len") || has("random_range_ratio") || has("accept_length") || has("server_info")) &&
		(has("ttfts") || has("completed") || has("mean_ttft_ms"))
}

// resultsFormat reports whether f's files hold one result object a line,
// several when appended (vLLM --append-result, SGLang always appends).
func resultsFormat(f Format) bool { return f == FormatVLLM || f == FormatSGLang }

// CountResults counts the top-level JSON objects of a vLLM or SGLang
// result file (one per appended run), streaming: memory is one token.
func CountResults(path string) (int, error) {
	rc, err := openEvents(path)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	w := newJSONWalker(rc, DefaultMaxLineSize)
	n := 0
	for {
		if _, err := w.peek(); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return n, nil
			}
			return n, fmt.Errorf("%s: %w", path, err)
		}
		if err := w.skip(); err != nil && !errors.Is(err, errValueTooLarge) {
			return n, fmt.Errorf("%s: result %d: %w", path, n, err)
		}
		n++
	}
}

// skipResults moves w past the first n results of an appended file.
func skipResults(w *jsonWalker, n int) error {
	for i := 0; i < n; i++ {
		if err := w.skip(); err != nil && !errors.Is(err, errValueTooLarge) {
			return &recordError{at: fmt.Sprintf("result %d", i), err: err}
		}
	}
	return nil
}

// RunParts is how many runs a log holds and whether each is named
// "#N": every benchmark of a GuideLLM report, and each result of a vLLM
// or SGLang file holding more than one (one holding a single result is
// named by its file alone, as before).
func RunParts(path string, f Format) (n int, named bool) {
	switch {
	case f == FormatGuideLLM:
		n, _ = GuideLLMBenchmarks(path)
		return max(n, 1), true
	case resultsFormat(f):
		n, _ = CountResults(path)
		return max(n, 1), n > 1
	}
	return 1, false
}
