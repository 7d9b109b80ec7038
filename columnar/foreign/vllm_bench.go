package foreign

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// vllmBench is what vLLM's Rust benchmark (vllm-project/vllm-bench, its
// results in serve.py's schema) adds to a result
// (src/output/json.rs build_result_json @ f3131823):
//
//	failed_requests  one entry per request that did not succeed, written
//	                 whenever any failed, --save-detailed or not:
//	                 {index, error, prompt_len, start_time, latency, ttft,
//	                 output_tokens, itl}; index is the request's position
//	                 in the per-request arrays. A request can fail after
//	                 tokens streamed (ttft, latency non-zero), so its
//	                 arrays alone may not show the failure.
//	steady_state     null, or {window: {start_s, end_s, …}, …}: the window
//	                 in which in-flight concurrency stayed at or above a
//	                 threshold of --max-concurrency
//	                 (src/metrics/steady_state.rs detect_window), its
//	                 bounds in s after the earliest successful request's
//	                 start_time.
type vllmBench struct {
	// failed maps a failed request's index to its entry.
	failed map[int]vllmFailure
	// nFailed counts the entries of failed_requests.
	nFailed int
	// steadyKey reports a steady_state key (null or not): a result of
	// vllm-bench, serve.py writes none.
	steadyKey bool
	// window is steady_state.window's bounds (s), nil when null, absent
	// or unusable.
	window *[2]float64
}

// vllmMaxFailed bounds the failed requests kept by index: the list comes
// before num_prompts and the arrays (serde_json sorts the keys), so
// nothing else bounds it, and a compressed list of distinct indices
// could otherwise grow the map without end.
const vllmMaxFailed = 1 << 22

// vllmFailure is a failed_requests entry kept: its error text and its
// position in the list.
type vllmFailure struct {
	msg string
	at  int
}

// vllmFailedEntry is the part of a failed_requests entry read.
type vllmFailedEntry struct {
	Index contract.OptNum `json:"index"`
	Error *string         `json:"error"`
}

// readFailed decodes failed_requests, keeping at most keep entries (the
// requests the result holds): an index that is not a request's position
// is a problem at its element.
func (b *vllmBench) readFailed(ctx context.Context, opts contract.IngestOptions, w *scan.JSONWalker, sum *contract.Summary, keep int) error {
	return w.Elements(func(i int) error {
		if i%4096 == 0 {
			if err := contract.Checkpoint(ctx, opts, w.Off); err != nil {
				return err
			}
		}
		at := fmt.Sprintf("failed_requests[%d]", i)
		if i >= keep {
			sum.AddProblem(contract.KindFieldType, 0, at+" (more failed requests than requests)")
			return w.Skip()
		}
		raw, err := w.RawValue()
		if errors.Is(err, scan.ErrValueTooLarge) {
			sum.AddProblem(contract.KindLineTooLong, 0, at)
			return nil
		}
		if err != nil {
			return &recordError{at: at, err: err}
		}
		var e vllmFailedEntry
		if !unmarshalRecord(raw, at, &e, sum) {
			return nil
		}
		b.nFailed++
		if !e.Index.Check(sum, 0, at+".index") || !e.Index.IsInt || e.Index.Int < 0 || e.Index.Int >= int64(keep) {
			if e.Index.Set && !e.Index.Bad {
				sum.AddProblem(contract.KindFieldType, 0, at+".index")
			}
			return nil
		}
		if b.failed == nil {
			b.failed = map[int]vllmFailure{}
		}
		if _, seen := b.failed[int(e.Index.Int)]; !seen && len(b.failed) >= vllmMaxFailed {
			sum.AddProblem(contract.KindFieldType, 0, at+".index (beyond the failures kept)")
			return nil
		}
		msg := ""
		if e.Error != nil {
			msg = *e.Error
		}
		b.failed[int(e.Index.Int)] = vllmFailure{msg, i}
		return nil
	})
}

// vllmSteadyState is the part of steady_state read.
type vllmSteadyState struct {
	Window *struct {
		StartS contract.OptNum `json:"start_s"`
		EndS   contract.OptNum `json:"end_s"`
	} `json:"window"`
}

// readSteady decodes steady_state (null: no window).
func (b *vllmBench) readSteady(w *scan.JSONWalker, sum *contract.Summary) error {
	b.steadyKey = true
	raw, err := w.RawValue()
	if errors.Is(err, scan.ErrValueTooLarge) {
		sum.AddProblem(contract.KindLineTooLong, 0, "steady_state")
		return nil
	}
	if err != nil {
		return &recordError{at: "steady_state", err: err}
	}
	var s *vllmSteadyState
	if !unmarshalRecord(raw, "steady_state", &s, sum) || s == nil || s.Window == nil {
		return nil
	}
	okS := s.Window.StartS.Check(sum, 0, "steady_state.window.start_s")
	okE := s.Window.EndS.Check(sum, 0, "steady_state.window.end_s")
	if okS && okE {
		b.window = &[2]float64{s.Window.StartS.Float, s.Window.EndS.Float}
	}
	return nil
}

// markFailed makes every request failed_requests names failed, with its
// error text, when the arrays alone took it for a success; an index past
// the requests is a problem at its entry.
func (b *vllmBench) markFailed(reqs []contract.Request, sum *contract.Summary) {
	for i, f := range b.failed {
		switch {
		case i >= len(reqs):
			sum.AddProblem(contract.KindFieldType, 0, fmt.Sprintf("failed_requests[%d].index", f.at))
		case reqs[i].Failure == core.FailNone:
			reqs[i].Failure, reqs[i].Code = contract.ClassifyFailure(0, "", f.msg, reqs[i].HasFirst)
		}
	}
}

// peerWindow is steady_state's window on the run's clock: its bounds
// after the earliest start of a successful request (detect_window's
// min_start), nil without a window or a successful request.
func (b *vllmBench) peerWindow(reqs []contract.Request) *core.PeerWindow {
	if b.window == nil {
		return nil
	}
	first, ok := int64(math.MaxInt64), false
	for i := range reqs {
		if reqs[i].Failure == core.FailNone {
			first, ok = min(first, reqs[i].IssueNs), true
		}
	}
	s, okS := contract.NsOf(b.window[0], "s")
	e, okE := contract.NsOf(b.window[1], "s")
	if !ok || !okS || !okE || e <= s {
		return nil
	}
	return &core.PeerWindow{Source: "vllm-bench steady_state.window.start_s/end_s", StartNs: first + s, EndNs: first + e}
}

// name is how a refusal names the result: vllm-bench's when it wrote
// its own keys.
func (b *vllmBench) name() string {
	if b.steadyKey {
		return fmt.Sprintf("vllm-bench result (%d failed_requests)", b.nFailed)
	}
	return "vLLM result"
}
