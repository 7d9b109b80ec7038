package columnar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
)

// llmperfReader reads LLMPerf's <name>_individual_responses.json
// (ray-project/llmperf token_benchmark_ray.py: json.dump of the list of
// per-request metric dicts, keys from src/llmperf/common_metrics.py):
//
//	ttft_s, end_to_end_latency_s, inter_token_latency_s   s
//	number_input_tokens, number_output_tokens              tokens
//	error_code, error_msg                                  null, or the failure
//
// No request records when it was sent or finished: the list is in
// completion order and holds durations only. Samples cannot be placed in
// time, so the run is whole-run numbers only (RunInfo.NoTimelineReason).
// A record with an error_code is a failure, as LLMPerf's own summary
// counts it (number_errors), even when its TTFT and latency are filled
// (the leaderboard's -100 "Output too few tokens"). Model and concurrency
// come from <name>_summary.json beside the file.
type llmperfReader struct{}

func (llmperfReader) Format() Format { return FormatLLMPerf }

// llmperfNoTimeline is the NoTimelineReason of every LLMPerf run.
const llmperfNoTimeline = "LLMPerf's individual responses record durations only (ttft_s, end_to_end_latency_s), " +
	"no start or end times: each request's TTFT and latency are known but not when it was sent, " +
	"so no window, duration or throughput can be computed; whole-run numbers only"

// llmperfRecord is one request of the list.
type llmperfRecord struct {
	TTFT      optNum          `json:"ttft_s"`
	E2E       optNum          `json:"end_to_end_latency_s"`
	In        optNum          `json:"number_input_tokens"`
	Out       optNum          `json:"number_output_tokens"`
	ErrorCode json.RawMessage `json:"error_code"`
	ErrorMsg  json.RawMessage `json:"error_msg"`
}

func (llmperfReader) Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error) {
	info := run.Info
	rc, err := beginRead(dst, run)
	if err != nil {
		return info, err
	}
	defer rc.Close()
	sum := &dst.Summary
	w := newJSONWalker(rc, cmp0(opts.MaxLineSize, DefaultMaxLineSize))
	var reqs []request
	err = w.elements(func(i int) error {
		if i%1024 == 0 {
			if err := checkpoint(ctx, opts, w.off); err != nil {
				return err
			}
		}
		at := fmt.Sprintf("[%d]", i)
		raw, err := w.rawValue()
		if errors.Is(err, errValueTooLarge) {
			sum.addProblem(KindLineTooLong, 0, at)
			return nil
		}
		if err != nil {
			return &recordError{at: at, err: err}
		}
		var rec llmperfRecord
		if !unmarshalRecord(raw, at, &rec, sum) {
			return nil
		}
		if r, ok := llmperfRequest(&rec, int64(i), at, sum); ok {
			reqs = append(reqs, r)
		}
		return nil
	})
	sum.Bytes = w.off
	if err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		reportWalkError(sum, err, "the list")
	}
	sum.Lines = int64(len(reqs))
	sum.Events["request"] = int64(len(reqs))
	fillFromRequests(reqs, dst)
	summarizeSamples(dst)
	info.NoTimelineReason = llmperfNoTimeline
	info.Streaming = true
	llmperfInfo(&info, run.EventsPath, &run.Warnings)
	return info, nil
}

// llmperfRequest maps record i (path at) to a request on a timeline of
// its own: issued at 0, first token at its TTFT, end at its latency.
func llmperfRequest(rec *llmperfRecord, i int64, at string, sum *Summary) (request, bool) {
	r := newRequest(i)
	r.id = strconv.FormatInt(i, 10)
	code, msg := llmperfError(rec, at, sum)
	if rec.TTFT.check(sum, 0, at+".ttft_s") && rec.TTFT.f > 0 {
		if ns, ok := nsOf(rec.TTFT.f, "s"); ok {
			r.firstNs, r.hasFirst = ns, true
		}
	}
	if rec.E2E.check(sum, 0, at+".end_to_end_latency_s") && rec.E2E.f > 0 {
		if ns, ok := nsOf(rec.E2E.f, "s"); ok {
			r.endNs, r.hasEnd, r.lastNs = ns, true, ns
		}
	}
	tokens := func(n optNum, field string) int64 {
		if !n.check(sum, 0, at+"."+field) {
			return -1
		}
		c := count(&n.f)
		if c < 0 {
			sum.addProblem(KindFieldType, 0, at+"."+field)
		}
		return c
	}
	r.outTokens, r.in = tokens(rec.Out, "number_output_tokens"), tokens(rec.In, "number_input_tokens")
	switch {
	case code != "":
		// LLMPerf's codes are HTTP statuses or its own negatives (-1 an
		// exception, -100 a client-side check): only the former name a
		// kind; a TTFT does not make a client check a midstream break.
		c, _ := strconv.ParseInt(code, 10, 64)
		r.failure, r.code = classifyFailure(c, "", msg, false)
	case !r.hasEnd:
		sum.addProblem(KindMissingField, 0, at+".end_to_end_latency_s")
		r.failure = core.FailIncomplete
	}
	return r, true
}

// llmperfError returns the record's error code ("" when null) and
// message. A code of another type than a number or a string is counted.
func llmperfError(rec *llmperfRecord, at string, sum *Summary) (code, msg string) {
	raw := strings.TrimSpace(string(rec.ErrorCode))
	switch {
	case raw == "" || raw == "null":
	case raw[0] == '"':
		_ = json.Unmarshal(rec.ErrorCode, &code)
		code = strings.TrimSpace(code)
		if code == "" {
			code = "error"
		}
	default:
		var f float64
		if json.Unmarshal(rec.ErrorCode, &f) != nil {
			sum.addProblem(KindFieldType, 0, at+".error_code")
			code = "error"
		} else {
			code = strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	if code != "" {
		if json.Unmarshal(rec.ErrorMsg, &msg) != nil {
			msg = string(rec.ErrorMsg)
		}
	}
	return code, msg
}

// llmperfSummary is what the run facts need of <name>_summary.json.
type llmperfSummary struct {
	Version     string   `json:"version"`
	Model       string   `json:"model"`
	Concurrency *float64 `json:"num_concurrent_requests"`
}

// llmperfInfo fills model, version and concurrency from the summary
// LLMPerf writes beside the individual responses (its name is theirs
// with _summary for _individual_responses).
func llmperfInfo(info *core.RunInfo, path string, warnings *[]string) {
	info.LoadPattern, info.ToolLoadPattern = "concurrency", "num_concurrent_requests"
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	base = strings.TrimSuffix(base, "_individual_responses")
	sp := filepath.Join(filepath.Dir(path), base+"_summary.json")
	b, err := readBounded(sp, maxSummary)
	if err != nil {
		*warnings = append(*warnings, "no LLMPerf summary ("+filepath.Base(sp)+") beside the log: model and concurrency unknown")
		return
	}
	var s llmperfSummary
	if err := json.Unmarshal(b, &s); err != nil {
		*warnings = append(*warnings, fmt.Sprintf("%s: %v", sp, err))
		return
	}
	info.Model = s.Model
	info.ToolVersion = "LLMPerf " + s.Version
	if s.Concurrency != nil {
		info.Concurrency = concurrencyOf(*s.Concurrency)
	}
}
