package columnar

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/steadysweep/steadysweep/core"
)

// aiperfReader reads NVIDIA AIPerf's profile_export*.jsonl, one
// {metadata, metrics, error} record per request, in either generation:
//
//	             older (e.g. ai-dynamo/aiperf examples, 2025-10)   newer
//	issue        metadata.timestamp_ns                           metadata.request_start_ns
//	TTFT         metrics.ttft {value, unit}                      metrics.time_to_first_token
//	latency      metrics.request_latency                         metrics.request_latency, else request_end_ns − start
//	tokens       metrics.output_sequence_length (output + reasoning), reasoning_token_count, input_sequence_length
//
// Units are the records' own (ns, us, ms, s). Records of the warmup
// credit phase are left out. A record with an error (AIPerf's 499
// cancellations included) is a failed sample with its code. The records
// are written as requests finish, so samples are re-sorted by issue time.
// Run facts come from the summary AIPerf writes beside the log
// (profile_export_aiperf.json: input_config).
type aiperfReader struct{}

func (aiperfReader) Format() Format { return FormatAIPerf }

type aiperfMetric struct {
	Value json.RawMessage `json:"value"`
	Unit  string          `json:"unit"`
}

type aiperfRecord struct {
	Metadata struct {
		XRequestID     string   `json:"x_request_id"`
		XCorrelationID string   `json:"x_correlation_id"`
		ConversationID string   `json:"conversation_id"`
		TurnIndex      *float64 `json:"turn_index"`
		TimestampNs    *int64   `json:"timestamp_ns"`
		RequestStartNs *int64   `json:"request_start_ns"`
		RequestEndNs   *int64   `json:"request_end_ns"`
		CreditIssuedNs *int64   `json:"credit_issued_ns"`
		CreditPhase    string   `json:"credit_phase"`
		BenchmarkPhase string   `json:"benchmark_phase"`
		WasCancelled   bool     `json:"was_cancelled"`
	} `json:"metadata"`
	Metrics map[string]aiperfMetric `json:"metrics"`
	Error   *struct {
		Code    *float64 `json:"code"`
		Type    string   `json:"type"`
		Message string   `json:"message"`
	} `json:"error"`
}

// metric returns a scalar metric in ns (times) or as is (counts); ok is
// false when absent or not a number in a known unit.
func (r *aiperfRecord) metric(name string) (v float64, unit string, ok bool) {
	m, present := r.Metrics[name]
	if !present || len(m.Value) == 0 {
		return 0, "", false
	}
	if err := json.Unmarshal(m.Value, &v); err != nil {
		return 0, "", false
	}
	return v, m.Unit, true
}

func (r *aiperfRecord) duration(names ...string) (int64, bool) {
	for _, n := range names {
		if v, unit, ok := r.metric(n); ok {
			return nsOf(v, unit)
		}
	}
	return 0, false
}

func (r *aiperfRecord) tokens(name string) int64 {
	v, _, ok := r.metric(name)
	if !ok {
		return -1
	}
	return count(&v)
}

func (aiperfReader) Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error) {
	startDecoded(dst, run)
	info := run.Info
	rc, err := openEvents(run.EventsPath)
	if err != nil {
		return info, err
	}
	defer rc.Close()
	sum := &dst.Summary
	lr := newLineReader(rc, cmp0(opts.MaxLineSize, DefaultMaxLineSize))
	var reqs []request
	multiTurn := false
	for {
		if lr.line%1024 == 0 && ctx.Err() != nil {
			return info, ctx.Err()
		}
		line, cut, tooLong, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			sum.addProblem(KindCorruptStream, max(lr.line, 1), "")
			sum.Truncated, sum.TruncatedReason = true, fmt.Sprintf("read error after line %d: %v", lr.line, err)
			break
		}
		sum.Lines = lr.line
		if tooLong {
			sum.addProblem(KindLineTooLong, lr.line, "")
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec aiperfRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &te):
				sum.addProblem(KindFieldType, lr.line, te.Field) // the field reads as absent
			case cut:
				sum.addProblem(KindTruncatedLine, lr.line, "")
				sum.Truncated, sum.TruncatedReason = true, "last line has no newline"
				continue
			default:
				sum.addProblem(KindSyntax, lr.line, "")
				continue
			}
		}
		if phase := rec.Metadata.CreditPhase + rec.Metadata.BenchmarkPhase; phase == "warmup" {
			sum.Events["warmup"]++
			continue
		}
		r, ok := aiperfRequest(&rec, lr.line, sum)
		if !ok {
			continue
		}
		if r.turn > 1 {
			multiTurn = true
		}
		reqs = append(reqs, r)
	}
	sum.Bytes = lr.read
	if !multiTurn {
		for i := range reqs {
			reqs[i].conv, reqs[i].turn = "", -1
		}
	}
	fillFromRequests(reqs, dst)
	summarizeSamples(dst)
	aiperfInfo(&info, run.Dir, &run.Warnings)
	return info, nil
}

// aiperfRequest maps one record; ok is false (the problem counted) when
// the record has no issue time.
func aiperfRequest(rec *aiperfRecord, line int64, sum *Summary) (request, bool) {
	md := &rec.Metadata
	r := newRequest(line)
	r.id = md.XRequestID
	start := md.RequestStartNs
	if start == nil {
		start = md.TimestampNs
	}
	if start == nil {
		if v, unit, ok := rec.metric("min_request_timestamp"); ok {
			if ns, ok := nsOf(v, unit); ok {
				start = &ns
			}
		}
	}
	if start == nil {
		sum.addProblem(KindMissingField, line, "metadata.request_start_ns")
		return r, false
	}
	r.issueNs = *start
	if ttft, ok := rec.duration("time_to_first_token", "ttft"); ok && ttft > 0 {
		r.firstNs, r.hasFirst = r.issueNs+ttft, true
	}
	if lat, ok := rec.duration("request_latency"); ok && lat > 0 {
		r.endNs, r.hasEnd = r.issueNs+lat, true
	} else if md.RequestEndNs != nil && *md.RequestEndNs > r.issueNs {
		r.endNs, r.hasEnd = *md.RequestEndNs, true
	}
	r.lastNs = r.endNs
	if !r.hasEnd && md.RequestEndNs != nil {
		r.lastNs = *md.RequestEndNs
	}
	r.outTokens = rec.tokens("output_sequence_length")
	r.reasoning = rec.tokens("reasoning_token_count")
	if r.outTokens < 0 {
		if out := rec.tokens("output_token_count"); out >= 0 {
			r.outTokens = out + max(r.reasoning, 0)
		}
	}
	r.in = rec.tokens("input_sequence_length")
	if md.TurnIndex != nil && *md.TurnIndex >= 0 && *md.TurnIndex < 1<<30 {
		r.turn = int32(*md.TurnIndex) + 1 // 1-based, as endpoints numbers turns
		r.conv = md.XCorrelationID
		if r.conv == "" {
			r.conv = md.ConversationID
		}
	}
	switch {
	case rec.Error != nil:
		code := int64(0)
		if rec.Error.Code != nil {
			code = int64(*rec.Error.Code)
		}
		r.failure, r.code = classifyFailure(code, rec.Error.Type, rec.Error.Message, r.hasFirst)
	case md.WasCancelled:
		r.failure = core.FailCancelled
	case !r.hasEnd:
		// Neither an error nor a latency: a cut record; the request's end
		// is unknown, as for one still in flight.
		sum.addProblem(KindMissingField, line, "metrics.request_latency")
		r.failure = core.FailIncomplete
	}
	return r, true
}

// aiperfSummary is what the run facts need of AIPerf's summary JSON.
type aiperfSummary struct {
	Version     string `json:"aiperf_version"`
	InputConfig struct {
		Endpoint struct {
			ModelNames []string `json:"model_names"`
			Streaming  *bool    `json:"streaming"`
		} `json:"endpoint"`
		Loadgen struct {
			Concurrency     *float64 `json:"concurrency"`
			RequestRate     *float64 `json:"request_rate"`
			RequestRateMode string   `json:"request_rate_mode"`
		} `json:"loadgen"`
	} `json:"input_config"`
}

// aiperfSummaryNames are the summary files looked for beside the log.
var aiperfSummaryNames = []string{"profile_export_aiperf.json", "profile_export.json"}

// maxSummary caps a summary or sidecar read whole.
const maxSummary = 64 << 20

// aiperfInfo fills the run facts from the summary beside the log: model,
// streaming, and the load (a request rate is poisson or, for AIPerf's
// constant mode, "constant"; otherwise a concurrency run).
func aiperfInfo(info *core.RunInfo, dir string, warnings *[]string) {
	info.Streaming = true
	var s aiperfSummary
	found := false
	for _, name := range aiperfSummaryNames {
		b, err := readBounded(filepath.Join(dir, name), maxSummary)
		if err != nil {
			continue
		}
		if err := json.Unmarshal(b, &s); err != nil {
			*warnings = append(*warnings, fmt.Sprintf("%s: %v", filepath.Join(dir, name), err))
			continue
		}
		found = true
		break
	}
	if !found {
		*warnings = append(*warnings, "no AIPerf summary ("+aiperfSummaryNames[0]+") beside the log: model and load unknown")
		return
	}
	ic := &s.InputConfig
	info.ToolVersion = s.Version
	if len(ic.Endpoint.ModelNames) > 0 {
		info.Model = ic.Endpoint.ModelNames[0]
	}
	if ic.Endpoint.Streaming != nil {
		info.Streaming = *ic.Endpoint.Streaming
	}
	lg := &ic.Loadgen
	info.ToolLoadPattern = lg.RequestRateMode
	switch {
	case lg.RequestRate != nil && *lg.RequestRate > 0 && lg.RequestRateMode == "constant":
		info.LoadPattern, info.TargetQPS = "constant", *lg.RequestRate
	case lg.RequestRate != nil && *lg.RequestRate > 0:
		info.LoadPattern, info.TargetQPS = "poisson", *lg.RequestRate
	default:
		info.LoadPattern = "concurrency"
		if info.ToolLoadPattern == "" {
			info.ToolLoadPattern = "concurrency"
		}
	}
	if lg.Concurrency != nil && *lg.Concurrency > 0 {
		info.Concurrency = int(*lg.Concurrency)
	}
}

// readBounded reads a regular file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: over %d MiB", path, limit>>20)
	}
	return b, nil
}
