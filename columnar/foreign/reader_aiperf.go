package foreign

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// AIPerfReader reads NVIDIA AIPerf's profile_export*.jsonl, one
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
type AIPerfReader struct{}

func (AIPerfReader) Format() contract.Format { return contract.FormatAIPerf }

type aiperfMetric struct {
	Value json.RawMessage `json:"value"`
	Unit  string          `json:"unit"`
}

// aiperfMetadata is a record's metadata object (JSONL), or the columns of
// the same names (CSV, Parquet).
type aiperfMetadata struct {
	XRequestID     string          `json:"x_request_id"`
	XCorrelationID string          `json:"x_correlation_id"`
	ConversationID string          `json:"conversation_id"`
	TurnIndex      contract.OptNum `json:"turn_index"`
	TimestampNs    contract.OptNum `json:"timestamp_ns"`
	RequestStartNs contract.OptNum `json:"request_start_ns"`
	RequestEndNs   contract.OptNum `json:"request_end_ns"`
	CreditPhase    string          `json:"credit_phase"`
	BenchmarkPhase string          `json:"benchmark_phase"`
	WasCancelled   bool            `json:"was_cancelled"`
}

// column is the field of that column name, text or numeric, both nil for
// none: the one table of metadata columns both tabular readers (CSV,
// Parquet) fill.
func (md *aiperfMetadata) column(col string) (text *string, num *contract.OptNum) {
	switch col {
	case "x_request_id":
		return &md.XRequestID, nil
	case "x_correlation_id":
		return &md.XCorrelationID, nil
	case "conversation_id":
		return &md.ConversationID, nil
	case "benchmark_phase":
		return &md.BenchmarkPhase, nil
	case "turn_index":
		return nil, &md.TurnIndex
	case "request_start_ns":
		return nil, &md.RequestStartNs
	case "request_end_ns":
		return nil, &md.RequestEndNs
	}
	return nil, nil
}

type aiperfRecord struct {
	Metadata aiperfMetadata `json:"metadata"`
	// Metrics holds the metrics read, by name; the per-chunk arrays
	// (inter_chunk_latency, …) are not decoded.
	Metrics aiperfMetricSet `json:"metrics"`
	Error   *struct {
		Code    contract.OptNum `json:"code"`
		Type    string          `json:"type"`
		Message string          `json:"message"`
	} `json:"error"`
}

// aiperfMetricSet is the metrics the reader uses.
type aiperfMetricSet struct {
	TimeToFirstToken     aiperfMetric `json:"time_to_first_token"`
	TTFT                 aiperfMetric `json:"ttft"`
	RequestLatency       aiperfMetric `json:"request_latency"`
	MinRequestTimestamp  aiperfMetric `json:"min_request_timestamp"`
	OutputSequenceLength aiperfMetric `json:"output_sequence_length"`
	OutputTokenCount     aiperfMetric `json:"output_token_count"`
	ReasoningTokenCount  aiperfMetric `json:"reasoning_token_count"`
	InputSequenceLength  aiperfMetric `json:"input_sequence_length"`
}

// field returns the metric of that JSON name, nil for a name the reader
// does not use: the one table of names both readers of a record (JSONL,
// records CSV) go through.
func (m *aiperfMetricSet) field(name string) *aiperfMetric {
	switch name {
	case "time_to_first_token":
		return &m.TimeToFirstToken
	case "ttft":
		return &m.TTFT
	case "request_latency":
		return &m.RequestLatency
	case "min_request_timestamp":
		return &m.MinRequestTimestamp
	case "output_sequence_length":
		return &m.OutputSequenceLength
	case "output_token_count":
		return &m.OutputTokenCount
	case "reasoning_token_count":
		return &m.ReasoningTokenCount
	case "input_sequence_length":
		return &m.InputSequenceLength
	}
	return nil
}

// byName returns the metric of that JSON name (zero when unused).
func (m *aiperfMetricSet) byName(name string) aiperfMetric {
	if p := m.field(name); p != nil {
		return *p
	}
	return aiperfMetric{}
}

// metrics reads one record's scalar metrics, counting a metric that is
// present but not a number in a known unit as a problem at its line.
type aiperfMetrics struct {
	rec  *aiperfRecord
	line int64
	sum  *contract.Summary
}

// value returns metric name's value and unit; ok is false when absent or
// unusable (the latter counted).
func (m aiperfMetrics) value(name string) (v float64, unit string, ok bool) {
	mt := m.rec.Metrics.byName(name)
	if len(mt.Value) == 0 || string(mt.Value) == "null" {
		return 0, "", false
	}
	if err := json.Unmarshal(mt.Value, &v); err != nil {
		m.sum.AddProblem(contract.KindFieldType, m.line, "metrics."+name+".value")
		return 0, "", false
	}
	return v, mt.Unit, true
}

// duration returns the first present metric of names in ns.
func (m aiperfMetrics) duration(names ...string) (int64, bool) {
	for _, n := range names {
		if v, unit, ok := m.value(n); ok {
			ns, ok := contract.NsOf(v, unit)
			if !ok {
				m.sum.AddProblem(contract.KindFieldType, m.line, "metrics."+n+".unit")
			}
			return ns, ok
		}
	}
	return 0, false
}

// tokens returns a count metric (-1 when absent or not a count).
func (m aiperfMetrics) tokens(name string) int64 {
	v, _, ok := m.value(name)
	if !ok {
		return -1
	}
	n := count(&v)
	if n < 0 {
		m.sum.AddProblem(contract.KindFieldType, m.line, "metrics."+name+".value")
	}
	return n
}

func (AIPerfReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	sum := &dst.Summary
	var reqs []contract.Request
	err := readLines(ctx, run, opts, dst, func(line []byte, n int64, cut bool) error {
		var rec aiperfRecord
		if contract.UnmarshalLine(line, n, cut, &rec, sum) {
			warmup := rec.Metadata.CreditPhase+rec.Metadata.BenchmarkPhase == "warmup"
			reqs = appendAIPerf(reqs, &rec, warmup, n, sum)
		}
		return nil
	})
	if err != nil {
		return info, err
	}
	clearSingleTurns(reqs)
	contract.FillFromRequests(reqs, dst)
	contract.SummarizeSamples(dst)
	aiperfInfo(&info, run.Dir, &run.Warnings)
	return info, nil
}

// aiperfRequest maps one record; ok is false (the problem counted) when
// the record has no issue time.
// appendAIPerf appends the request of rec, the record at line n, to reqs
// (the JSONL and the records CSV readers alike): a warmup record is
// counted among the summary's events instead, and one without a usable
// issue time is left out (counted at its field).
func appendAIPerf(reqs []contract.Request, rec *aiperfRecord, warmup bool, n int64, sum *contract.Summary) []contract.Request {
	if warmup {
		sum.Events["warmup"]++
		return reqs
	}
	if r, ok := aiperfRequest(rec, n, sum); ok {
		reqs = append(reqs, r)
	}
	return reqs
}

func aiperfRequest(rec *aiperfRecord, line int64, sum *contract.Summary) (contract.Request, bool) {
	md := &rec.Metadata
	mx := aiperfMetrics{rec: rec, line: line, sum: sum}
	r := contract.NewRequest(line)
	r.ID = md.XRequestID
	start, ok := contract.FirstNum(sum, line, []string{"metadata.request_start_ns", "metadata.timestamp_ns"}, md.RequestStartNs, md.TimestampNs)
	switch {
	case ok:
		r.IssueNs = start.Int
	default:
		v, unit, ok := mx.value("min_request_timestamp")
		if ns, okNs := contract.NsOf(v, unit); ok && okNs {
			r.IssueNs = ns
			break
		}
		if !md.RequestStartNs.Bad && !md.TimestampNs.Bad { // a bad one is counted already
			sum.AddProblem(contract.KindMissingField, line, "metadata.request_start_ns")
		}
		return r, false
	}
	if ttft, ok := mx.duration("time_to_first_token", "ttft"); ok && ttft > 0 {
		r.FirstNs, r.HasFirst = r.IssueNs+ttft, true
	}
	end, hasEnd := md.RequestEndNs, md.RequestEndNs.Check(sum, line, "metadata.request_end_ns")
	if lat, ok := mx.duration("request_latency"); ok && lat > 0 {
		r.EndNs, r.HasEnd = r.IssueNs+lat, true
	} else if hasEnd && end.Int > r.IssueNs {
		r.EndNs, r.HasEnd = end.Int, true
	}
	r.LastNs = r.EndNs
	if !r.HasEnd && hasEnd {
		r.LastNs = end.Int
	}
	r.OutTokens = mx.tokens("output_sequence_length")
	r.Reasoning = mx.tokens("reasoning_token_count")
	if r.OutTokens < 0 {
		if out := mx.tokens("output_token_count"); out >= 0 {
			r.OutTokens = out + max(r.Reasoning, 0)
		}
	}
	r.In = mx.tokens("input_sequence_length")
	if md.TurnIndex.Check(sum, line, "metadata.turn_index") && md.TurnIndex.IsInt && md.TurnIndex.Int >= 0 && md.TurnIndex.Int < 1<<30 {
		r.Turn = int32(md.TurnIndex.Int) + 1 // 1-based, as endpoints numbers turns
		r.Conv = md.XCorrelationID
		if r.Conv == "" {
			r.Conv = md.ConversationID
		}
	}
	switch {
	case rec.Error != nil:
		code := int64(0)
		if rec.Error.Code.Check(sum, line, "error.code") {
			code = rec.Error.Code.Int
		}
		r.Failure, r.Code = contract.ClassifyFailure(code, rec.Error.Type, rec.Error.Message, r.HasFirst)
	case md.WasCancelled:
		r.Failure = core.FailCancelled
	case !r.HasEnd:
		// Neither an error nor a latency: a cut record; the request's end
		// is unknown, as for one still in flight.
		sum.AddProblem(contract.KindMissingField, line, "metrics.request_latency")
		r.Failure = core.FailIncomplete
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
			Type       string   `json:"type"`
			URL        string   `json:"url"`
			URLs       []string `json:"urls"`
		} `json:"endpoint"`
		Input struct {
			PublicDataset string `json:"public_dataset"`
			File          string `json:"file"`
		} `json:"input"`
		Loadgen struct {
			Concurrency     *float64 `json:"concurrency"`
			RequestRate     *float64 `json:"request_rate"`
			RequestRateMode string   `json:"request_rate_mode"`
		} `json:"loadgen"`
	} `json:"input_config"`
}

// AIPerfSummaryNames are the summary files looked for beside the log.
var AIPerfSummaryNames = []string{"profile_export_aiperf.json", "profile_export.json"}

// AIPerfInfoFiles are the files beside an AIPerf log that aiperfInfo
// reads the run facts from (the summary, the steady-state window), for
// every AIPerf reader (records JSONL, CSV, Parquet): the column cache keys
// an entry on their identities.
// A literal (AIPerfSummaryNames then AIPerfSteadyStateNames; the test
// TestAIPerfInfoFilesAreTheNames holds it to them), not an append run at
// every process start (issue 32).
var AIPerfInfoFiles = []string{"profile_export_aiperf.json", "profile_export.json", "profile_export_aiperf_steady_state.json"}

// maxSummary caps a summary or sidecar read whole.
const maxSummary = 64 << 20

// aiperfInfo fills the run facts from the summary beside the log: model,
// streaming, and the load (a request rate is poisson or, for AIPerf's
// constant mode, "constant"; otherwise a concurrency run).
func aiperfInfo(info *core.RunInfo, dir string, warnings *[]string) {
	info.Streaming = true
	info.EpochClock = true // metadata.timestamp_ns / request_start_ns are time.time_ns()
	info.PeerWindow = aiperfSteadyWindow(dir, warnings)
	var s aiperfSummary
	found := false
	for _, name := range AIPerfSummaryNames {
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
		*warnings = append(*warnings, "no AIPerf summary ("+AIPerfSummaryNames[0]+") beside the log: model and load unknown")
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
	info.Endpoint = sidecar.EndpointLabel(ic.Endpoint.Type, append([]string{ic.Endpoint.URL}, ic.Endpoint.URLs...)...)
	info.DatasetName = ic.Input.PublicDataset
	if info.DatasetName == "" {
		info.DatasetName = ic.Input.File
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
	if lg.Concurrency != nil {
		info.Concurrency = contract.ConcurrencyOf(*lg.Concurrency)
	}
}

// readBounded reads a regular file of at most limit bytes (a FIFO or a
// device is refused unopened: package safeopen).
func readBounded(path string, limit int64) ([]byte, error) {
	return safeopen.ReadFile(path, "AIPerf summaries", limit)
}
