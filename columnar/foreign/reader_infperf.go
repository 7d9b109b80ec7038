package foreign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// InferencePerfReader reads inference-perf's per-request lifecycle list. Every
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
type InferencePerfReader struct{}

func (InferencePerfReader) Format() contract.Format { return contract.FormatInferencePerf }

// infperfTokens is where a layout keeps the output count and token times.
type infperfTokens struct {
	OutputTokens     contract.OptNum   `json:"output_tokens"`
	OutputTokenTimes []contract.OptNum `json:"output_token_times"`
}

// infperfRecord is one RequestLifecycleMetric, every layout's fields.
type infperfRecord struct {
	Start contract.OptNum `json:"start_time"`
	End   contract.OptNum `json:"end_time"`
	Info  struct {
		InputTokens      contract.OptNum   `json:"input_tokens"`
		OutputTokens     contract.OptNum   `json:"output_tokens"`
		OutputTokenTimes []contract.OptNum `json:"output_token_times"`
		ResponseInfo     *infperfTokens    `json:"response_info"`
		ResponseMetrics  *infperfTokens    `json:"response_metrics"`
		RequestMetrics   *struct {
			Text struct {
				InputTokens contract.OptNum `json:"input_tokens"`
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

func (InferencePerfReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	sum := &dst.Summary
	layouts := map[string]int{}
	err := readRecordList(ctx, run, opts, dst, func(i int64, at string, raw []byte) (contract.Request, bool) {
		var rec infperfRecord
		if !unmarshalRecord(raw, at, &rec, sum) {
			return contract.Request{}, false
		}
		name, toks := rec.layout()
		layouts[name]++
		return infperfRequest(&rec, toks, i, at, sum)
	})
	if err != nil {
		return info, err
	}
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
func unmarshalRecord(raw []byte, at string, v any, sum *contract.Summary) bool {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return true
	}
	var te *json.UnmarshalTypeError
	switch {
	case !errors.As(err, &te):
		sum.AddProblem(contract.KindSyntax, 0, at)
		return false
	case te.Field == "":
		sum.AddProblem(contract.KindNotObject, 0, at)
		return false
	}
	sum.AddProblem(contract.KindFieldType, 0, at+"."+te.Field)
	return true
}

// reportWalkError records a document the walker could not finish: the
// records before the damage are kept, the run is partial.
func reportWalkError(sum *contract.Summary, err error, what string) {
	var rerr *recordError
	at := what
	if errors.As(err, &rerr) {
		at = rerr.at
	}
	sum.AddProblem(contract.KindSyntax, 0, at)
	sum.Truncated, sum.TruncatedReason = true, fmt.Sprintf("%s unreadable at %s: %v", what, at, err)
}

// infperfRequest maps record i; ok is false (counted) without a usable
// start time.
func infperfRequest(rec *infperfRecord, toks infperfTokens, i int64, at string, sum *contract.Summary) (contract.Request, bool) {
	r := contract.NewRequest(i)
	r.ID = strconv.FormatInt(i, 10)
	if !rec.Start.Check(sum, 0, at+".start_time") {
		if !rec.Start.Bad {
			sum.AddProblem(contract.KindMissingField, 0, at+".start_time")
		}
		return r, false
	}
	start, ok := contract.NsOf(rec.Start.Float, "s")
	if !ok {
		sum.AddProblem(contract.KindFieldType, 0, at+".start_time")
		return r, false
	}
	r.IssueNs = start
	badEnd := rec.End.Bad
	if rec.End.Check(sum, 0, at+".end_time") {
		if end, ok := contract.NsOf(rec.End.Float, "s"); ok && end >= start {
			r.EndNs, r.HasEnd, r.LastNs = end, true, end
		} else {
			sum.AddProblem(contract.KindFieldType, 0, at+".end_time")
			badEnd = true
		}
	}
	if len(toks.OutputTokenTimes) > 0 && toks.OutputTokenTimes[0].Set {
		if first, ok := contract.NsOf(toks.OutputTokenTimes[0].Float, "s"); ok && first >= start && (!r.HasEnd || first <= r.EndNs) {
			r.FirstNs, r.HasFirst = first, true
		} else {
			sum.AddProblem(contract.KindFieldType, 0, at+".output_token_times[0]")
		}
	}
	tokens := func(n contract.OptNum, field string) int64 { return recordedCount(n, sum, at+"."+field) }
	r.OutTokens = tokens(toks.OutputTokens, "info.output_tokens")
	r.In = tokens(rec.Info.InputTokens, "info.input_tokens")
	if r.In < 0 && rec.Info.RequestMetrics != nil {
		r.In = tokens(rec.Info.RequestMetrics.Text.InputTokens, "info.request_metrics.text.input_tokens")
	}
	switch {
	case rec.Error != nil:
		// aiohttp's ClientResponseError reads "503, message='…'": the
		// status leads the message.
		code, _ := strconv.Atoi(strings.SplitN(rec.Error.Msg, ",", 2)[0])
		r.Failure, r.Code = contract.ClassifyFailure(int64(code), rec.Error.Type, rec.Error.Msg, r.HasFirst)
	case !r.HasEnd:
		if !badEnd {
			sum.AddProblem(contract.KindMissingField, 0, at+".end_time")
		}
		r.Failure = core.FailIncomplete
	}
	return r, true
}
