package columnar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
)

// FormatInferencePerf is kubernetes-sigs/inference-perf's
// per_request_lifecycle_metrics.json: a JSON list of
// RequestLifecycleMetric (inference_perf/apis/base.py).
const FormatInferencePerf Format = "inference-perf"

func init() {
	Formats = append(Formats, FormatInferencePerf)
	moreFormats = append(moreFormats, FormatInferencePerf)
	readers[FormatInferencePerf] = infperfReader{}
}

// infperfReader reads inference-perf's per-request lifecycle list. Every
// record has start_time and end_time (time.perf_counter() at send and at
// the response's end, s, one process's monotonic clock) and error (null
// or {error_type, error_msg}); where the token counts and token times
// live changed twice:
//
//	v0.4  info.input_tokens, info.output_tokens, info.output_token_times
//	v0.5  info.input_tokens, info.response_info.{output_tokens, output_token_times}
//	v0.6  info.request_metrics.text.input_tokens (info.input_tokens mirrors it),
//	      info.response_metrics.{output_tokens, output_token_times}
//
// The first token is output_token_times[0] on the same clock (the TTFT
// inference-perf's own report computes); a non-streamed request has no
// token times, hence no TTFT. A record with an error is a failure.
type infperfReader struct{}

func (infperfReader) Format() Format { return FormatInferencePerf }

// infperfTokens is where a layout keeps the output count and token times.
type infperfTokens struct {
	OutputTokens     optNum   `json:"output_tokens"`
	OutputTokenTimes []optNum `json:"output_token_times"`
}

// infperfRecord is one RequestLifecycleMetric, every layout's fields.
type infperfRecord struct {
	Start optNum `json:"start_time"`
	End   optNum `json:"end_time"`
	Info  struct {
		InputTokens      optNum         `json:"input_tokens"`
		OutputTokens     optNum         `json:"output_tokens"`
		OutputTokenTimes []optNum       `json:"output_token_times"`
		ResponseInfo     *infperfTokens `json:"response_info"`
		ResponseMetrics  *infperfTokens `json:"response_metrics"`
		RequestMetrics   *struct {
			Text struct {
				InputTokens optNum `json:"input_tokens"`
			} `json:"text"`
		} `json:"request_metrics"`
	} `json:"info"`
	Error *struct {
		Type string `json:"error_type"`
		Msg  string `json:"error_msg"`
	} `json:"error"`
}

// layout names the record's layout by where its tokens are.
func (r *infperfRecord) layout() (string, infperfTokens) {
	switch {
	case r.Info.ResponseMetrics != nil || r.Info.RequestMetrics != nil:
		t := infperfTokens{}
		if r.Info.ResponseMetrics != nil {
			t = *r.Info.ResponseMetrics
		}
		return "v0.6 (info.response_metrics)", t
	case r.Info.ResponseInfo != nil:
		return "v0.5 (info.response_info)", *r.Info.ResponseInfo
	}
	return "v0.4 (flat info)", infperfTokens{OutputTokens: r.Info.OutputTokens, OutputTokenTimes: r.Info.OutputTokenTimes}
}

func (infperfReader) Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error) {
	info := run.Info
	rc, err := beginRead(dst, run)
	if err != nil {
		return info, err
	}
	defer rc.Close()
	sum := &dst.Summary
	w := newJSONWalker(rc, cmp0(opts.MaxLineSize, DefaultMaxLineSize))
	var reqs []request
	layouts := map[string]int{}
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
		var rec infperfRecord
		if !unmarshalRecord(raw, at, &rec, sum) {
			return nil
		}
		name, toks := rec.layout()
		layouts[name]++
		if r, ok := infperfRequest(&rec, toks, int64(i), at, sum); ok {
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
	info.Streaming = dst.Summary.Mode == "streaming"
	best := ""
	for name, n := range layouts {
		if best == "" || n > layouts[best] || n == layouts[best] && name < best {
			best = name
		}
	}
	info.ToolVersion = "inference-perf " + best
	return info, nil
}

// unmarshalRecord decodes one list element into v, counting a problem
// at its path: not JSON or not an object (unusable), or a field of the
// wrong type (counted; the field reads as absent and the record is used).
func unmarshalRecord(raw []byte, at string, v any, sum *Summary) bool {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return true
	}
	var te *json.UnmarshalTypeError
	switch {
	case !errors.As(err, &te):
		sum.addProblem(KindSyntax, 0, at)
		return false
	case te.Field == "":
		sum.addProblem(KindNotObject, 0, at)
		return false
	}
	sum.addProblem(KindFieldType, 0, at+"."+te.Field)
	return true
}

// reportWalkError records a document the walker could not finish: the
// records before the damage are kept, the run is partial.
func reportWalkError(sum *Summary, err error, what string) {
	var rerr *recordError
	at := what
	if errors.As(err, &rerr) {
		at = rerr.at
	}
	sum.addProblem(KindSyntax, 0, at)
	sum.Truncated, sum.TruncatedReason = true, fmt.Sprintf("%s unreadable at %s: %v", what, at, err)
}

// infperfRequest maps record i; ok is false (counted) without a usable
// start time.
func infperfRequest(rec *infperfRecord, toks infperfTokens, i int64, at string, sum *Summary) (request, bool) {
	r := newRequest(i)
	r.id = strconv.FormatInt(i, 10)
	if !rec.Start.check(sum, 0, at+".start_time") {
		if !rec.Start.bad {
			sum.addProblem(KindMissingField, 0, at+".start_time")
		}
		return r, false
	}
	start, ok := nsOf(rec.Start.f, "s")
	if !ok {
		sum.addProblem(KindFieldType, 0, at+".start_time")
		return r, false
	}
	r.issueNs = start
	badEnd := rec.End.bad
	if rec.End.check(sum, 0, at+".end_time") {
		if end, ok := nsOf(rec.End.f, "s"); ok && end >= start {
			r.endNs, r.hasEnd, r.lastNs = end, true, end
		} else {
			sum.addProblem(KindFieldType, 0, at+".end_time")
			badEnd = true
		}
	}
	if len(toks.OutputTokenTimes) > 0 && toks.OutputTokenTimes[0].set {
		if first, ok := nsOf(toks.OutputTokenTimes[0].f, "s"); ok && first >= start && (!r.hasEnd || first <= r.endNs) {
			r.firstNs, r.hasFirst = first, true
		} else {
			sum.addProblem(KindFieldType, 0, at+".output_token_times[0]")
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
	r.outTokens = tokens(toks.OutputTokens, "info.output_tokens")
	r.in = tokens(rec.Info.InputTokens, "info.input_tokens")
	if r.in < 0 && rec.Info.RequestMetrics != nil {
		r.in = tokens(rec.Info.RequestMetrics.Text.InputTokens, "info.request_metrics.text.input_tokens")
	}
	switch {
	case rec.Error != nil:
		// aiohttp's ClientResponseError reads "503, message='…'": the
		// status leads the message.
		code, _ := strconv.Atoi(strings.SplitN(rec.Error.Msg, ",", 2)[0])
		r.failure, r.code = classifyFailure(int64(code), rec.Error.Type, rec.Error.Msg, r.hasFirst)
	case !r.hasEnd:
		if !badEnd {
			sum.addProblem(KindMissingField, 0, at+".end_time")
		}
		r.failure = core.FailIncomplete
	}
	return r, true
}
