package foreign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// SGLangReader reads an SGLang bench_serving result. Its arrays are
// vLLM's old ones (vLLM's benchmark_serving.py and SGLang's share an
// ancestor), so the vLLM reader decodes them; what differs is what the
// run's facts say: the tool, and why there is no timeline. bench_serving
// never records when a request was sent, so every SGLang result is
// whole-run numbers only.
type SGLangReader struct{}

func (SGLangReader) Format() contract.Format { return contract.FormatSGLang }

// sglangNoTimeline is the NoTimelineReason of every SGLang result.
const sglangNoTimeline = "SGLang bench_serving --output-details records ttfts, itls, input_lens and output_lens per request but no start times: " +
	"each request's TTFT and latency (TTFT + Σ ITL) are known but not when it was sent, so no window, duration or throughput can be computed; whole-run numbers only"

func (SGLangReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info, err := VLLMReader{}.Read(ctx, run, opts, dst)
	if err != nil {
		return info, err
	}
	info.NoTimelineReason = sglangNoTimeline
	info.ToolVersion = "SGLang bench_serving"
	return info, nil
}

// IsSGLangResult reports whether a result object's keys are SGLang
// bench_serving's: its own arguments (sharegpt_output_len,
// random_range_ratio), server_info or accept_length, and no vLLM
// model_id.
func IsSGLangResult(keys []string) bool {
	has := func(k string) bool { return slices.Contains(keys, k) }
	return !has("model_id") && (has("sharegpt_output_len") || has("random_range_ratio") || has("accept_length") || has("server_info")) &&
		(has("ttfts") || has("completed") || has("mean_ttft_ms"))
}

// CountResults counts the top-level JSON objects of a vLLM or SGLang
// result file (one per appended run), streaming: memory is one token.
func CountResults(ctx context.Context, path string) (int, error) {
	rc, err := contract.OpenEventsCtx(ctx, path)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	w := scan.NewJSONWalker(rc, contract.DefaultMaxLineSize)
	n := 0
	for {
		if _, err := w.Peek(); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return n, nil
			}
			return n, fmt.Errorf("%s: %w", path, err)
		}
		if err := w.Skip(); err != nil && !errors.Is(err, scan.ErrValueTooLarge) {
			return n, fmt.Errorf("%s: result %d: %w", path, n, err)
		}
		n++
	}
}

// skipResults moves w past the first n results of an appended file.
func skipResults(w *scan.JSONWalker, n int) error {
	for i := 0; i < n; i++ {
		if err := w.Skip(); err != nil && !errors.Is(err, scan.ErrValueTooLarge) {
			return &recordError{at: fmt.Sprintf("result %d", i), err: err}
		}
	}
	return nil
}

// RunParts is how many runs a log holds and whether each is named
// "#N": every benchmark of a GuideLLM report, and each result of a vLLM
// or SGLang file holding more than one (one holding a single result is
// named by its file alone, as before).
func RunParts(ctx context.Context, path string, f contract.Format) (n int, named bool) {
	switch {
	case f == contract.FormatGuideLLM:
		n, _ = GuideLLMBenchmarks(ctx, path)
		return max(n, 1), true
	case contract.ResultsFormat(f):
		n, _ = CountResults(ctx, path)
		return max(n, 1), n > 1
	}
	return 1, false
}
