package foreign

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// LLMPerfReader reads LLMPerf's <name>_individual_responses.json
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
type LLMPerfReader struct{}

func (LLMPerfReader) Format() contract.Format { return contract.FormatLLMPerf }

// llmperfNoTimeline is the NoTimelineReason of every LLMPerf run.
const llmperfNoTimeline = "LLMPerf's individual responses record durations only (ttft_s, end_to_end_latency_s), " +
	"no start or end times: each request's TTFT and latency are known but not when it was sent, " +
	"so no window, duration or throughput can be computed; whole-run numbers only"

// llmperfRecord is one request of the list.
type llmperfRecord struct {
	TTFT      contract.OptNum `json:"ttft_s"`
	E2E       contract.OptNum `json:"end_to_end_latency_s"`
	In        contract.OptNum `json:"number_input_tokens"`
	Out       contract.OptNum `json:"number_output_tokens"`
	ErrorCode json.RawMessage `json:"error_code"`
	ErrorMsg  json.RawMessage `json:"error_msg"`
}

func (LLMPerfReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	sum := &dst.Summary
	err := readRecordList(ctx, run, opts, dst, func(i int64, at string, raw []byte) (contract.Request, bool) {
		var rec llmperfRecord
		if !unmarshalRecord(raw, at, &rec, sum) {
			return contract.Request{}, false
		}
		return llmperfRequest(&rec, i, at, sum)
	})
	if err != nil {
		return info, err
	}
	info.NoTimelineReason = llmperfNoTimeline
	info.Streaming = true
	llmperfInfo(&info, run.EventsPath, &run.Warnings)
	return info, nil
}

// llmperfRequest maps record i (path at) to a request on a timeline of
// its own: issued at 0, first token at its TTFT, end at its latency.
func llmperfRequest(rec *llmperfRecord, i int64, at string, sum *contract.Summary) (contract.Request, bool) {
	r := contract.NewRequest(i)
	r.ID = strconv.FormatInt(i, 10)
	code, msg := llmperfError(rec, at, sum)
	if rec.TTFT.Check(sum, 0, at+".ttft_s") && rec.TTFT.Float > 0 {
		if ns, ok := contract.NsOf(rec.TTFT.Float, "s"); ok {
			r.FirstNs, r.HasFirst = ns, true
		}
	}
	if rec.E2E.Check(sum, 0, at+".end_to_end_latency_s") && rec.E2E.Float > 0 {
		if ns, ok := contract.NsOf(rec.E2E.Float, "s"); ok {
			r.EndNs, r.HasEnd, r.LastNs = ns, true, ns
		}
	}
	tokens := func(n contract.OptNum, field string) int64 { return recordedCount(n, sum, at+"."+field) }
	r.OutTokens, r.In = tokens(rec.Out, "number_output_tokens"), tokens(rec.In, "number_input_tokens")
	switch {
	case code != "":
		// LLMPerf's codes are HTTP statuses or its own negatives (-1 an
		// exception, -100 a client-side check): only the former name a
		// kind; a TTFT does not make a client check a midstream break.
		c, _ := strconv.ParseInt(code, 10, 64)
		r.Failure, r.Code = contract.ClassifyFailure(c, "", msg, false)
	case !r.HasEnd:
		sum.AddProblem(contract.KindMissingField, 0, at+".end_to_end_latency_s")
		r.Failure = core.FailIncomplete
	}
	return r, true
}

// llmperfError returns the record's error code ("" when null) and
// message. A code of another type than a number or a string is counted.
func llmperfError(rec *llmperfRecord, at string, sum *contract.Summary) (code, msg string) {
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
			sum.AddProblem(contract.KindFieldType, 0, at+".error_code")
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
		info.Concurrency = contract.ConcurrencyOf(*s.Concurrency)
	}
}
