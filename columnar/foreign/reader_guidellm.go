package foreign

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"go.yaml.in/yaml/v3"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/core"
)

// GuideLLMReader reads a GuideLLM benchmarks report: one run per entry of
// benchmarks[] (Run.Part), its requests.{successful,errored,incomplete}
// lists (requests.total, when a version writes it, repeats them and is
// skipped). Every listed request is a sample, the ones GuideLLM's own
// metrics leave out as warmup or cooldown included: finding the steady
// window is ours to do. Per request (0.5 names, with the earlier ones as
// fallbacks):
//
//	issue        request_start_time | start_time | info.timings.request_start   (epoch s)
//	first token  issue + time_to_first_token_ms, else info.timings.first_token_iteration | first_token_time
//	end          issue + request_latency (s), else request_end_time | end_time | info.timings.request_end
//	tokens       output_tokens, prompt_tokens (as recorded)
//
// TTFT and latency come from the recorded durations, not differences of
// the float epoch seconds (whose resolution at 2026 epochs is ~240 ns).
// errored requests are failures (kind from info.error); incomplete ones
// were in flight when the benchmark ended (core.FailIncomplete).
//
// The JSON is streamed (jsonWalker): memory is the samples plus one
// request record. YAML reports are decoded whole, so they are refused
// above maxYAMLReport.
type GuideLLMReader struct{}

func (GuideLLMReader) Format() contract.Format { return contract.FormatGuideLLM }

// MaxYAMLReport caps the YAML reports read (a YAML document is decoded
// whole); convert a larger one to JSON, which is streamed.
const MaxYAMLReport = 64 << 20

// guidellmArgs is what a report's top-level args say.
type guidellmArgs struct {
	Model   string          `json:"model"`
	Profile json.RawMessage `json:"profile"`
	Target  string          `json:"target"`
	Backend string          `json:"backend"`
	Data    json.RawMessage `json:"data"`
}

// guidellmConfig is the part of a benchmark's config (0.5) or args
// (earlier) that says the load.
type guidellmConfig struct {
	Strategy *guidellmStrategy `json:"strategy"`
	Backend  struct {
		Model  string `json:"model"`
		Target string `json:"target"`
	} `json:"backend"`
	// measure is the benchmark's scheduler_metrics window (≥ 0.5).
	measure *guidellmMeasure
}

type guidellmStrategy struct {
	Type           string   `json:"type_"`
	Streams        *float64 `json:"streams"`
	MaxConcurrency *float64 `json:"max_concurrency"`
	Rate           *float64 `json:"rate"`
}

// guidellmRequest is one request record (optNum: absent, or a number,
// or counted as bad).
type guidellmRequest struct {
	RequestID        string          `json:"request_id"`
	RequestStartTime contract.OptNum `json:"request_start_time"`
	RequestEndTime   contract.OptNum `json:"request_end_time"`
	StartTime        contract.OptNum `json:"start_time"`
	EndTime          contract.OptNum `json:"end_time"`
	FirstTokenTime   contract.OptNum `json:"first_token_time"`
	RequestLatency   contract.OptNum `json:"request_latency"`
	TTFTMs           contract.OptNum `json:"time_to_first_token_ms"`
	PromptTokens     contract.OptNum `json:"prompt_tokens"`
	OutputTokens     contract.OptNum `json:"output_tokens"`
	Error            any             `json:"error"`
	guidellmLater
	Info struct {
		Status  string `json:"status"`
		Error   any    `json:"error"`
		Timings struct {
			RequestStart        contract.OptNum `json:"request_start"`
			FirstTokenIteration contract.OptNum `json:"first_token_iteration"`
			RequestEnd          contract.OptNum `json:"request_end"`
		} `json:"timings"`
	} `json:"info"`
}

// ErrStopWalk ends a walk early (the benchmark wanted has been read).
var ErrStopWalk = errors.New("stop")

func (GuideLLMReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	startDecoded(dst, run)
	info := run.Info
	idx, err := indexGuideLLM(ctx, run.EventsPath)
	if err != nil {
		return info, err
	}
	part := max(run.Part, 0)
	var (
		reqs     []contract.Request
		cfg      guidellmConfig
		location = fmt.Sprintf("benchmarks[%d]", part)
		rec      = newGuideLLMRecorded()
	)
	sum := &dst.Summary
	problem := func(k contract.Kind, field string) { sum.AddProblem(k, 0, field) }
	info.ToolVersion = idx.version
	if idx.argsBad {
		problem(contract.KindFieldType, "args")
	}
	if part >= len(idx.offsets) {
		if idx.err != nil {
			return info, fmt.Errorf("%s: report unreadable in %s: %v before benchmark %d", run.EventsPath, idx.errAt, idx.err, part)
		}
		return info, fmt.Errorf("%s: no benchmark %d in the GuideLLM report (it holds %d)", run.EventsPath, part, len(idx.offsets))
	}
	// The benchmark alone, from its offset: the index walked the report
	// once, for every benchmark.
	src, closer, err := openBenchmark(run.EventsPath, idx, idx.offsets[part])
	if err != nil {
		return info, err
	}
	defer closer()
	if rc, ok := src.(io.ReadCloser); ok {
		contract.Observe(ctx, rc)
	}
	w := scan.NewJSONWalker(src, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
	w.Off = idx.offsets[part]
	tick := func() error { return contract.Checkpoint(ctx, opts, w.Off) }
	err = readGuideLLMBenchmark(tick, w, location, &cfg, &reqs, rec, sum)
	sum.Bytes = w.Off
	switch {
	case ctx.Err() != nil:
		return info, ctx.Err()
	case err != nil:
		var rerr *recordError
		if !errors.As(err, &rerr) {
			rerr = &recordError{at: location, err: err}
		}
		kind := contract.KindSyntax
		if errors.Is(err, io.ErrUnexpectedEOF) {
			kind = contract.KindTruncatedLine
		}
		problem(kind, rerr.at)
		sum.Truncated, sum.TruncatedReason = true, fmt.Sprintf("report unreadable in %s: %v", rerr.at, rerr.err)
	}
	contract.FillFromRequests(reqs, dst)
	contract.SummarizeSamples(dst)
	guidellmInfo(&info, idx.args, cfg)
	info.PeerWindow = cfg.measure.window()
	info.Recorded = rec.stats()
	return info, nil
}

// recordError places a walk error at a record path.
type recordError struct {
	at  string
	err error
}

func (e *recordError) Error() string { return e.at + ": " + e.err.Error() }
func (e *recordError) Unwrap() error { return e.err }

// readGuideLLMBenchmark reads one benchmarks[] entry: its config (or
// earlier versions' args) and its request lists, calling tick every 1024
// records (progress, cancellation).
func readGuideLLMBenchmark(tick func() error, w *scan.JSONWalker, at string, cfg *guidellmConfig, reqs *[]contract.Request, rec *guidellmRecorded, sum *contract.Summary) error {
	return w.Members(func(key string) error {
		switch key {
		case "config", "args":
			var c guidellmConfig
			if err := w.Decode(&c); err != nil {
				sum.AddProblem(contract.KindFieldType, 0, at+"."+key)
				return nil
			}
			if c.Strategy != nil || c.Backend.Model != "" {
				c.measure = cfg.measure
				*cfg = c
			}
			return nil
		case "scheduler_metrics":
			return readGuideLLMMeasure(w, at, cfg, sum)
		case "requests":
			return w.Members(func(list string) error {
				if list != "successful" && list != "errored" && list != "incomplete" {
					return w.Skip() // "total" repeats the three lists
				}
				if null, err := w.IsNull(); null || err != nil {
					return err
				}
				return w.Elements(func(i int) error {
					if i%1024 == 0 {
						if err := tick(); err != nil {
							return err
						}
					}
					path := fmt.Sprintf("%s.requests.%s[%d]", at, list, i)
					raw, err := w.RawValue()
					sum.Lines++
					sum.Events[list]++
					if errors.Is(err, scan.ErrValueTooLarge) {
						sum.AddProblem(contract.KindLineTooLong, 0, path)
						return nil
					}
					if err != nil {
						return &recordError{at: path, err: err}
					}
					if r, ok := guidellmRecord(raw, list, path, int64(len(*reqs)), rec, sum); ok {
						*reqs = append(*reqs, r)
					}
					return nil
				})
			})
		}
		return w.Skip()
	})
}

// guidellmRecord turns one request record into a request; ok is false
// (and the problem counted) when the record cannot be placed in time. An
// incomplete record with no start at all was cancelled before it was sent
// (GuideLLM's request_start_time falls back to resolve_start, null while
// queued): no request reached the server, so it is no sample and no
// problem, counted as the event "incomplete_unsent".
func guidellmRecord(raw []byte, list, path string, ord int64, rec *guidellmRecorded, sum *contract.Summary) (contract.Request, bool) {
	var g guidellmRequest
	if len(raw) > 0 && raw[0] != '{' && json.Valid(raw) {
		sum.AddProblem(contract.KindNotObject, 0, path)
		return contract.Request{}, false
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			sum.AddProblem(contract.KindSyntax, 0, path)
			return contract.Request{}, false
		}
		sum.AddProblem(contract.KindFieldType, 0, path+"."+te.Field) // the field reads as absent
	}
	at := func(fields ...string) []string {
		for i := range fields {
			fields[i] = path + "." + fields[i]
		}
		return fields
	}
	tm := &g.Info.Timings
	start, ok := contract.FirstNum(sum, 0, at("request_start_time", "start_time", "info.timings.request_start"),
		g.RequestStartTime, g.StartTime, tm.RequestStart)
	issue, okNs := contract.NsOf(start.Float, "s")
	if !ok || !okNs {
		if !ok && !g.RequestStartTime.Bad && !g.StartTime.Bad && !tm.RequestStart.Bad {
			if list == "incomplete" {
				sum.Events["incomplete_unsent"]++
				return contract.Request{}, false
			}
			sum.AddProblem(contract.KindMissingField, 0, path+".request_start_time")
		} else if ok {
			sum.AddProblem(contract.KindFieldType, 0, path+".request_start_time")
		}
		return contract.Request{}, false
	}
	r := contract.NewRequest(ord)
	r.ID, r.IssueNs = g.RequestID, issue
	if r.ID == "" {
		r.ID = path
	}
	if g.TTFTMs.Check(sum, 0, path+".time_to_first_token_ms") {
		if d, ok := contract.NsOf(g.TTFTMs.Float, "ms"); ok && g.TTFTMs.Float > 0 {
			r.FirstNs, r.HasFirst = issue+d, true
		}
	} else if t, ok := contract.FirstNum(sum, 0, at("info.timings.first_token_iteration", "first_token_time"), tm.FirstTokenIteration, g.FirstTokenTime); ok {
		if ns, ok := contract.NsOf(t.Float, "s"); ok {
			r.FirstNs, r.HasFirst = ns, true
		}
	}
	end, hasEnd := contract.FirstNum(sum, 0, at("request_end_time", "end_time", "info.timings.request_end"), g.RequestEndTime, g.EndTime, tm.RequestEnd)
	endNs, okEnd := contract.NsOf(end.Float, "s")
	hasEnd = hasEnd && okEnd
	if g.RequestLatency.Check(sum, 0, path+".request_latency") {
		if d, ok := contract.NsOf(g.RequestLatency.Float, "s"); ok && g.RequestLatency.Float > 0 {
			r.EndNs, r.HasEnd = issue+d, true
		}
	} else if hasEnd && endNs > issue {
		r.EndNs, r.HasEnd = endNs, true
	}
	r.LastNs = r.EndNs
	if !r.HasEnd && hasEnd {
		r.LastNs = endNs
	}
	r.OutTokens = recordedCount(g.OutputTokens, sum, path+".output_tokens")
	r.In = recordedCount(g.PromptTokens, sum, path+".prompt_tokens")
	switch list {
	case "errored":
		msg := errorText(g.Info.Error)
		if msg == "" {
			msg = errorText(g.Error)
		}
		r.Failure, r.Code = contract.ClassifyFailure(0, g.Info.Status, msg, r.HasFirst)
	case "incomplete":
		r.Failure = core.FailIncomplete
	default:
		if !r.HasEnd {
			sum.AddProblem(contract.KindMissingField, 0, path+".request_latency")
			r.Failure = core.FailIncomplete
		}
	}
	rec.add(&g, &r, path, sum)
	return r, true
}

// errorText renders a recorded error (a string, or an object) as text.
func errorText(v any) string {
	switch e := v.(type) {
	case nil:
		return ""
	case string:
		return e
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// recordedCount is a recorded token count, -1 when absent or not a count
// (the latter counted at field).
func recordedCount(n contract.OptNum, sum *contract.Summary, field string) int64 {
	if !n.Check(sum, 0, field) {
		return -1
	}
	c := count(&n.Float)
	if c < 0 {
		sum.AddProblem(contract.KindFieldType, 0, field)
	}
	return c
}

// guidellmInfo fills the run info from the report's args and the
// benchmark's strategy, mapping GuideLLM's strategies onto the profiles:
// synchronous and concurrent are concurrency runs, throughput is
// max_throughput, poisson is poisson, constant stays "constant" (no
// profile: unknown).
func guidellmInfo(info *core.RunInfo, args guidellmArgs, cfg guidellmConfig) {
	info.Model = cfg.Backend.Model
	if info.Model == "" {
		info.Model = args.Model
	}
	info.Streaming = true
	info.EpochClock = true // request times are epoch seconds
	target := cfg.Backend.Target
	if target == "" {
		target = args.Target
	}
	info.Endpoint = sidecar.EndpointLabel(args.Backend, target)
	info.DatasetName = sidecar.FirstText(args.Data)
	st := cfg.Strategy
	if st == nil {
		if err := json.Unmarshal(args.Profile, &info.ToolLoadPattern); err == nil && info.ToolLoadPattern == "synchronous" {
			info.LoadPattern, info.Concurrency = "concurrency", 1
		}
		return
	}
	info.ToolLoadPattern = st.Type
	switch st.Type {
	case "synchronous":
		info.LoadPattern, info.Concurrency = "concurrency", 1
	case "concurrent":
		info.LoadPattern = "concurrency"
		info.Concurrency = contract.ConcurrencyOf(sidecar.Num(orNil(st.Streams, st.MaxConcurrency), 0))
	case "throughput":
		info.LoadPattern = "max_throughput"
		info.Concurrency = contract.ConcurrencyOf(sidecar.Num(orNil(st.MaxConcurrency, nil), 0))
	case "poisson":
		info.LoadPattern, info.TargetQPS = "poisson", sidecar.Num(orNil(st.Rate, nil), 0)
	default:
		info.LoadPattern, info.TargetQPS = st.Type, sidecar.Num(orNil(st.Rate, nil), 0)
	}
}

// GuideLLMBenchmarks counts the benchmarks[] entries of a GuideLLM report
// (one run each), streaming the JSON without decoding it (YAML up to
// maxYAMLReport is decoded). The walk is the report's index, kept for
// the process: reading a benchmark afterwards does not walk it again.
// The walk observes ctx (its error is then ctx's).
func GuideLLMBenchmarks(ctx context.Context, path string) (int, error) {
	idx, err := indexGuideLLM(ctx, path)
	if err != nil {
		return 0, err
	}
	if idx.err != nil {
		return len(idx.offsets), fmt.Errorf("%s: %w", path, idx.err)
	}
	return len(idx.offsets), nil
}

// openReport opens a report for the walker: JSON as a stream, YAML
// (bounded) converted to JSON.
func openReport(path string) (io.Reader, func() error, error) {
	rc, err := contract.OpenEvents(path)
	if err != nil {
		return nil, nil, err
	}
	head, _ := contract.ReadHead(path, contract.SniffSize)
	body := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(body) == 0 || body[0] == '{' || body[0] == '[' {
		return rc, rc.Close, nil
	}
	defer rc.Close()
	doc, err := io.ReadAll(io.LimitReader(rc, MaxYAMLReport+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(doc) > MaxYAMLReport {
		return nil, nil, fmt.Errorf("%s: YAML report over %d MiB (YAML is decoded whole): convert it to JSON, which is streamed", path, MaxYAMLReport>>20)
	}
	v, err := DecodeYAMLBounded(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: YAML: %w", path, err)
	}
	js, err := json.Marshal(Jsonable(v))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: YAML to JSON: %w", path, err)
	}
	return bytes.NewReader(js), func() error { return nil }, nil
}

// maxYAMLExpansion is how many nodes a YAML report's aliases may add
// when expanded (beyond the document's own): a report has no reason to
// alias at all, and an anchor of 20 MiB aliased 100 times is gigabytes.
const maxYAMLExpansion = 1 << 20

// ErrYAMLAliases reports a YAML document whose aliases expand beyond
// maxYAMLExpansion nodes.
var ErrYAMLAliases = errors.New("YAML aliases expand too far")

// DecodeYAMLBounded decodes a YAML document into plain values, after
// checking on its node tree (aliases unexpanded) that expanding the
// aliases adds at most maxYAMLExpansion nodes.
func DecodeYAMLBounded(doc []byte) (any, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	own, expanded := yamlNodeCounts(&root)
	if expanded-own > maxYAMLExpansion {
		return nil, fmt.Errorf("%w: its aliases expand %d nodes to %d, over the %d allowed (an alias bomb, or a report to write without anchors)",
			ErrYAMLAliases, own, expanded, own+maxYAMLExpansion)
	}
	var v any
	if err := root.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// yamlNodeCounts returns the nodes of the tree under n as written (an
// alias is one node) and as expanded (an alias counts its anchor's
// expanded size), saturating at 1<<62. Each anchor is sized once
// (memo), so nested aliases (the "billion laughs") cost their node count,
// not their expansion; an alias inside its own anchor is infinite.
func yamlNodeCounts(n *yaml.Node) (own, expanded int64) {
	memo := map[*yaml.Node]int64{}
	const inf = int64(1) << 62
	var size func(n *yaml.Node) int64
	size = func(n *yaml.Node) int64 {
		if n == nil {
			return 0
		}
		if n.Kind == yaml.AliasNode {
			if v, ok := memo[n.Alias]; ok {
				if v < 0 {
					return inf // the alias is inside its own anchor
				}
				return v
			}
			return size(n.Alias)
		}
		if v, ok := memo[n]; ok && v >= 0 {
			return v
		}
		memo[n] = -1 // being sized
		t := int64(1)
		for _, c := range n.Content {
			t = min(t+size(c), inf)
		}
		memo[n] = t
		return t
	}
	var count func(n *yaml.Node) int64
	count = func(n *yaml.Node) int64 {
		t := int64(1)
		if n.Kind != yaml.AliasNode {
			for _, c := range n.Content {
				t += count(c)
			}
		}
		return t
	}
	return count(n), size(n)
}

// Jsonable turns a decoded YAML value into one encoding/json can write:
// non-string map keys become strings, non-finite floats null.
func Jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = Jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = Jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = Jsonable(e)
		}
		return x
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
	}
	return v
}

func orNil(a, b *float64) any {
	if a != nil {
		return *a
	}
	if b != nil {
		return *b
	}
	return nil
}

// count converts a recorded token count (-1 when absent or not a count).
func count(p *float64) int64 {
	if p == nil || *p < 0 || *p != math.Trunc(*p) || *p > 1<<53 {
		return -1
	}
	return int64(*p)
}

// beginRead resets dst for a reader that is not the endpoints decoder
// and opens the run's log (decompressed).
func beginRead(dst *contract.Decoded, run *contract.Run) (io.ReadCloser, error) {
	startDecoded(dst, run)
	return contract.OpenEvents(run.EventsPath)
}

// startDecoded resets dst for a reader that is not the endpoints
// decoder.
func startDecoded(dst *contract.Decoded, run *contract.Run) {
	dst.Reset()
	dst.Summary.File = run.SourcePath()
	dst.Summary.TrackingStartNs, dst.Summary.TrackingStopNs = -1, -1
	dst.Summary.Events = make(map[string]int64)
}
