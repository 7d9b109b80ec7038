package foreign

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/core"
)

// VLLMReader reads a `vllm bench serve --save-result --save-detailed`
// result: one JSON object whose per-request data are parallel arrays in
// issue order (vllm/benchmarks/serve.py builds them from the outputs of
// asyncio.gather over the issued tasks):
//
//	start_times  time.perf_counter() at send, s (recent vLLM only)
//	ttfts        s (0 when the request failed)
//	latencies    s (recent vLLM; else ttft + Σ itls, the last token's time)
//	itls         per request, the gaps between tokens, s
//	output_lens, input_lens   tokens as vLLM counted them
//	errors       "" or the failure's text
//
// Older vLLM results have no start_times: a request's TTFT and latency
// are known but not when it was sent, so samples cannot be placed in
// time — no window, duration or throughput exists. Such a run is read as
// one super-pass (whole-run numbers only) with RunInfo.NoTimelineReason
// saying why. A result saved without --save-detailed has no per-request
// arrays at all and is refused.
type VLLMReader struct{}

func (VLLMReader) Format() contract.Format { return contract.FormatVLLM }

// vllmNoTimeline is the NoTimelineReason of a vLLM result without
// start_times.
const vllmNoTimeline = "this vLLM result has no start_times (vLLM bench serve recorded per-request start times only in later versions): " +
	"each request's TTFT and latency are known but not when it was sent, so no window, duration or throughput can be computed; whole-run numbers only"

// vllmColumns are the per-request arrays read.
type vllmColumns struct {
	start, ttft, latency, itlSum []float64 // NaN: null or absent
	queue                        []float64 // queue_times (vllm_queue.go)
	out, in                      []int64
	errs                         []string
	have                         map[string]int // array name → length
}

func (VLLMReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	rc, err := beginRead(dst, run)
	if err != nil {
		return info, err
	}
	defer rc.Close()
	contract.Observe(ctx, rc)
	sum := &dst.Summary
	w := scan.NewJSONWalker(rc, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
	// An appended file: result #Part (a damaged earlier result makes the
	// walk below fail, and that failure is reported).
	_ = skipResults(w, max(run.Part, 0))
	cols := vllmColumns{have: map[string]int{}}
	meta := map[string]json.RawMessage{}
	var bench vllmBench // vllm-bench's own keys (vllm_bench.go)
	// An array holds one entry per request: none is kept beyond the
	// requests the result says it sent (num_prompts) or timed (ttfts,
	// latencies), whichever is known when the array is met, so a
	// hostile array (2e7 zeros gzip into 39 KB) costs no memory.
	limit := func() int {
		l := math.MaxInt
		if np, ok := meta["num_prompts"]; ok {
			if v, ok := looseFloat(np); ok && v >= 0 && v < math.MaxInt32 {
				l = int(v)
			}
		}
		for _, k := range []string{"ttfts", "latencies", "start_times"} {
			if n, ok := cols.have[k]; ok {
				l = min(l, n)
			}
		}
		return l
	}
	floats := func(name string, dst *[]float64, elem func(raw []byte) (float64, bool)) error {
		n, keep := 0, limit()
		err := w.Elements(func(i int) error {
			if i%4096 == 0 {
				if err := contract.Checkpoint(ctx, opts, w.Off); err != nil {
					return err
				}
			}
			n = i + 1
			if i >= keep {
				return w.Skip()
			}
			raw, err := w.RawValue()
			if err != nil && !errors.Is(err, scan.ErrValueTooLarge) {
				return &recordError{at: fmt.Sprintf("%s[%d]", name, i), err: err}
			}
			v, ok := elem(raw)
			if !ok {
				sum.AddProblem(contract.KindFieldType, 0, fmt.Sprintf("%s[%d]", name, i))
				v = math.NaN()
			}
			*dst = append(*dst, v)
			return nil
		})
		cols.have[name] = n
		return err
	}
	err = w.Members(func(key string) error {
		switch key {
		case "start_times":
			return floats(key, &cols.start, looseFloat)
		case "ttfts":
			return floats(key, &cols.ttft, looseFloat)
		case "latencies":
			return floats(key, &cols.latency, looseFloat)
		case "queue_times":
			return floats(key, &cols.queue, looseFloat)
		case "itls":
			return floats(key, &cols.itlSum, func(raw []byte) (float64, bool) {
				var gaps []float64
				if bytes.Equal(raw, []byte("null")) {
					return math.NaN(), true
				}
				if json.Unmarshal(raw, &gaps) != nil {
					return 0, false
				}
				t := 0.0
				for _, g := range gaps {
					t += g
				}
				return t, true
			})
		case "output_lens", "input_lens":
			var fs []float64
			if err := floats(key, &fs, looseFloat); err != nil {
				return err
			}
			ints := make([]int64, len(fs))
			for i := range fs {
				ints[i] = count(&fs[i])
			}
			if key == "output_lens" {
				cols.out = ints
			} else {
				cols.in = ints
			}
			return nil
		case "errors":
			n, keep := 0, limit()
			err := w.Elements(func(i int) error {
				n = i + 1
				if i >= keep {
					return w.Skip()
				}
				var s *string
				raw, err := w.RawValue()
				if err != nil && !errors.Is(err, scan.ErrValueTooLarge) {
					return &recordError{at: fmt.Sprintf("errors[%d]", i), err: err}
				}
				if errors.Is(err, scan.ErrValueTooLarge) {
					t := "error text too long"
					s = &t
				} else if json.Unmarshal(raw, &s) != nil {
					sum.AddProblem(contract.KindFieldType, 0, fmt.Sprintf("errors[%d]", i))
					t := string(raw)
					s = &t
				}
				e := ""
				if s != nil {
					e = *s
				}
				cols.errs = append(cols.errs, e)
				return nil
			})
			cols.have[key] = n
			return err
		case "failed_requests":
			return bench.readFailed(ctx, opts, w, sum, limit())
		case "steady_state":
			return bench.readSteady(w, sum)
		case "date", "backend", "endpoint_type", "label", "model_id", "tokenizer_id", "num_prompts",
			"request_rate", "burstiness", "max_concurrency", "vllm_version", "version":
			raw, err := w.RawValue()
			if err == nil {
				meta[key] = bytes.Clone(raw)
			}
			return nil
		}
		return w.Skip()
	})
	sum.Bytes = w.Off
	if err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		var rerr *recordError
		at := "the result"
		if errors.As(err, &rerr) {
			at = rerr.at
		}
		sum.AddProblem(contract.KindSyntax, 0, at)
		sum.Truncated, sum.TruncatedReason = true, fmt.Sprintf("result unreadable at %s: %v", at, err)
	}
	if _, ok := cols.have["ttfts"]; !ok {
		if _, ok := cols.have["latencies"]; !ok {
			return info, fmt.Errorf("%s: %s without per-request arrays (ttfts, latencies, …): it was saved without --save-detailed, "+
				"and its summary numbers alone cannot be windowed", run.EventsPath, bench.name())
		}
	}
	reqs := vllmRequests(&cols, sum)
	bench.markFailed(reqs, sum)
	info.Recorded = vllmQueueStat(cols.queue, reqs, sum)
	if len(cols.start) > 0 {
		info.PeerWindow = bench.peerWindow(reqs)
	}
	if len(cols.start) == 0 {
		info.NoTimelineReason = vllmNoTimeline
	}
	fillRecords(reqs, dst)
	vllmInfo(&info, meta)
	return info, nil
}

// vllmRequests zips the arrays into requests; arrays shorter than the
// longest are counted as problems and their missing entries read as
// absent.
func vllmRequests(c *vllmColumns, sum *contract.Summary) []contract.Request {
	n := 0
	for _, l := range c.have {
		n = max(n, l)
	}
	// The timing arrays say how many requests there are: a longer array
	// of counts or errors adds none (its surplus is counted below).
	if l, ok := c.have["ttfts"]; ok {
		n = l
	} else if l, ok := c.have["latencies"]; ok {
		n = l
	}
	for name, l := range c.have {
		if l != n {
			sum.AddProblem(contract.KindMissingField, 0, fmt.Sprintf("%s (%d entries, %d expected)", name, l, n))
		}
	}
	f := func(xs []float64, i int) float64 {
		if i < len(xs) {
			return xs[i]
		}
		return math.NaN()
	}
	reqs := make([]contract.Request, n)
	for i := range reqs {
		r := contract.NewRequest(int64(i))
		r.ID = strconv.Itoa(i)
		if start := f(c.start, i); !math.IsNaN(start) {
			r.IssueNs, _ = contract.NsOf(start, "s")
		}
		ttft := f(c.ttft, i)
		if ns, ok := contract.NsOf(ttft, "s"); ok && ttft > 0 {
			r.FirstNs, r.HasFirst = r.IssueNs+ns, true
		}
		lat := f(c.latency, i)
		if math.IsNaN(lat) && len(c.latency) == 0 && ttft > 0 {
			lat = ttft + f(c.itlSum, i) // the last token's time: no latency recorded
		}
		if ns, ok := contract.NsOf(lat, "s"); ok && lat > 0 {
			r.EndNs, r.HasEnd, r.LastNs = r.IssueNs+ns, true, r.IssueNs+ns
		}
		if i < len(c.out) {
			r.OutTokens = c.out[i]
		}
		if i < len(c.in) {
			r.In = c.in[i]
		}
		msg := ""
		if i < len(c.errs) {
			msg = c.errs[i]
		}
		if msg != "" || !r.HasEnd {
			// serve.py leaves a failed request's ttft and latency at 0, its
			// error sometimes "" (an HTTP reason it did not get).
			r.Failure, r.Code = contract.ClassifyFailure(0, "", msg, r.HasFirst)
		}
		reqs[i] = r
	}
	return reqs
}

// vllmInfo fills the run facts from the result's own keys: model, and
// the load: a finite request rate is poisson (burstiness 1, vLLM's
// default) or gamma (another burstiness: no profile); an infinite rate
// is a concurrency run when max_concurrency caps it, else everything is
// sent at once (max_throughput).
func vllmInfo(info *core.RunInfo, meta map[string]json.RawMessage) {
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(meta[k], &s)
		return s
	}
	flt := func(k string) (float64, bool) {
		raw, ok := meta[k]
		if !ok {
			return 0, false
		}
		return looseFloat(raw)
	}
	info.Model = str("model_id")
	info.ToolVersion = str("vllm_version")
	info.Endpoint = sidecar.EndpointLabel(str("endpoint_type"))
	if info.Endpoint == "" {
		info.Endpoint = sidecar.EndpointLabel(str("backend"))
	}
	info.DatasetName = str("dataset_name")
	info.Streaming = true
	rate, hasRate := flt("request_rate")
	if !hasRate {
		if str("request_rate") == "inf" {
			rate, hasRate = math.Inf(1), true
		}
	}
	burst, hasBurst := flt("burstiness")
	conc, hasConc := flt("max_concurrency")
	if hasConc {
		info.Concurrency = contract.ConcurrencyOf(conc)
	}
	info.ToolLoadPattern = fmt.Sprintf("request_rate=%s", string(meta["request_rate"]))
	if hasBurst {
		info.ToolLoadPattern += fmt.Sprintf(" burstiness=%g", burst)
	}
	if hasConc {
		info.ToolLoadPattern += fmt.Sprintf(" max_concurrency=%g", conc)
	}
	switch {
	case hasRate && !math.IsInf(rate, 1) && rate > 0:
		info.TargetQPS = rate
		info.LoadPattern = "poisson"
		if hasBurst && burst != 1 {
			info.LoadPattern = "gamma"
		}
	case info.Concurrency > 0:
		info.LoadPattern = "concurrency"
	default:
		info.LoadPattern = "max_throughput"
	}
}

// looseFloat parses a JSON number, null (NaN), or Python's json.dump
// spellings Infinity, -Infinity and NaN (and the string "inf" serve.py
// writes for an unlimited rate).
func looseFloat(raw []byte) (float64, bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "null", "NaN":
		return math.NaN(), true
	case "Infinity", `"inf"`:
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	if isJSONNumber(raw) {
		// The common case without encoding/json's reflection: an array of
		// millions of numbers is read without a garbage value per entry.
		v, err := strconv.ParseFloat(string(raw), 64)
		return v, err == nil // out of range: not a float64, as encoding/json says

	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, false
	}
	return v, true
}

// isJSONNumber reports whether b is a JSON number (RFC 8259 §6).
func isJSONNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - j
	}
	switch n := digits(); {
	case n == 0, n > 1 && b[i-n] == '0':
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}
