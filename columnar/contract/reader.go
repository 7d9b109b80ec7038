package contract

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core"
)

// A Reader decodes one format's per-request log into the detector's
// columns. Each format has one (reader_*.go); Ingest picks it by the
// run's Format, which ResolveRun detected from the log's content.
type Reader interface {
	// Format is the format the reader reads.
	Format() Format
	// Read decodes run's log into dst, which it resets first, and returns
	// the run's info: run.Info completed with what the log and the
	// format's own config or summary say (model, load pattern, target
	// concurrency or rate, tool version). Bad records are counted in
	// dst.Summary with their line or record and field, and the rest is
	// read; the error is for an unreadable file or a cancelled context.
	// Memory is O(samples): the log is streamed, never held whole.
	Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error)
}

// Checkpoint is called by the streaming readers every so many records:
// it reports the bytes read to opts.Progress and returns ctx's error once
// the context is cancelled.
func Checkpoint(ctx context.Context, opts IngestOptions, bytesRead int64) error {
	if opts.Progress != nil {
		opts.Progress(bytesRead)
	}
	return ctx.Err()
}

// Request is one request of a per-request log (AIPerf, GuideLLM, vLLM)
// on its way to the columns: absolute times in ns on the log's clock,
// token counts as recorded (-1 unknown).
type Request struct {
	ID string
	// ord is the record's position in the log (ties in issue time keep
	// it).
	ord int64
	// IssueNs is when the request was sent; firstNs its first token;
	// endNs its last response byte (hasFirst/hasEnd say they exist).
	IssueNs, FirstNs, EndNs int64
	HasFirst, HasEnd        bool
	// LastNs is the latest time known of the request (its end, or the
	// last time a failure was seen); 0 means issueNs.
	LastNs int64
	// OutTokens is the whole output's token count (reasoning included);
	// reasoning the reasoning part when recorded apart; in the prompt's.
	OutTokens, Reasoning, In int64
	Failure                  core.FailureKind
	Code                     int32
	// Conv and turn identify a multi-turn conversation ("" and -1 when
	// single-turn).
	Conv string
	Turn int32
}

// NewRequest returns a request with every count unknown.
func NewRequest(ord int64) Request {
	return Request{ord: ord, OutTokens: -1, Reasoning: -1, In: -1, Turn: -1}
}

// FillFromRequests builds dst's samples from reqs: one sample per
// request, in issue order (ties in log order). A failed request keeps
// its issue time and failure kind but contributes no TTFT, TPOT or
// latency, as the tools' own statistics leave failures out. The
// post-first-token count that TPOT divides by is the recorded output
// count minus one (the tools' inter-token latency); the whole recorded
// count is FullTokens. FirstTokenSeq and CompleteSeq, the orders within a
// super-pass, are the ranks of the first-token and end times.
func FillFromRequests(reqs []Request, dst *Decoded) {
	slices.SortStableFunc(reqs, func(a, b Request) int {
		if c := cmp.Compare(a.IssueNs, b.IssueNs); c != 0 {
			return c
		}
		return cmp.Compare(a.ord, b.ord)
	})
	s := &dst.Samples
	n := len(reqs)
	*s = core.Samples{
		IssueNs: make([]int64, n), LastIssueNs: make([]int64, n), LastEventNs: make([]int64, n),
		HasFirstToken: make([]bool, n), FirstTokenNs: make([]int64, n), TTFTNs: make([]int64, n),
		WarmTTFT: make([]bool, n), FirstTokenSeq: make([]int64, n),
		HasComplete: make([]bool, n), CompleteNs: make([]int64, n), LatencyNs: make([]int64, n),
		CompleteSeq: make([]int64, n), OutTokens: make([]int64, n), FullTokens: make([]int64, n),
		Failed: make([]bool, n), Retries: make([]int32, n), ConversationID: make([]string, n), Turn: make([]int32, n),
		FailureKind: make([]core.FailureKind, n), FailCode: make([]int32, n),
		InTokens: make([]int64, n), ReasoningTokens: make([]int64, n),
	}
	dst.Keys, dst.Ext = make([][16]byte, n), make(map[int32]string, n)
	dst.TextBytes = make([]int64, n)
	firsts, ends := make([]int, 0, n), make([]int, 0, n)
	for i := range reqs {
		r := &reqs[i]
		dst.Ext[int32(i)] = r.ID
		s.IssueNs[i], s.LastIssueNs[i] = r.IssueNs, r.IssueNs
		s.LastEventNs[i] = max(r.IssueNs, r.LastNs)
		s.FirstTokenSeq[i], s.CompleteSeq[i] = -1, -1
		s.OutTokens[i], s.FullTokens[i] = -1, r.OutTokens
		s.ConversationID[i], s.Turn[i] = r.Conv, r.Turn
		s.WarmTTFT[i] = r.Turn < 0 || r.Turn > 1
		s.FailureKind[i], s.FailCode[i] = r.Failure, r.Code
		s.Failed[i] = r.Failure != core.FailNone && r.Failure != core.FailIncomplete
		s.InTokens[i], s.ReasoningTokens[i] = r.In, r.Reasoning
		dst.TextBytes[i] = -1
		if r.Failure != core.FailNone {
			continue
		}
		if r.HasFirst {
			s.HasFirstToken[i], s.FirstTokenNs[i], s.TTFTNs[i] = true, r.FirstNs, r.FirstNs-r.IssueNs
			s.LastEventNs[i] = max(s.LastEventNs[i], r.FirstNs)
			firsts = append(firsts, i)
		}
		if r.HasEnd {
			s.HasComplete[i], s.CompleteNs[i], s.LatencyNs[i] = true, r.EndNs, r.EndNs-r.IssueNs
			s.LastEventNs[i] = max(s.LastEventNs[i], r.EndNs)
			ends = append(ends, i)
			if r.HasFirst && r.OutTokens > 1 {
				s.OutTokens[i] = r.OutTokens - 1
			}
		}
	}
	rank := func(idx []int, at []int64, seq []int64) {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(at[a], at[b]) })
		for k, i := range idx {
			seq[i] = int64(k)
		}
	}
	rank(firsts, s.FirstTokenNs, s.FirstTokenSeq)
	rank(ends, s.CompleteNs, s.CompleteSeq)
}

// SummarizeSamples fills the per-sample tallies of dst.Summary.
func SummarizeSamples(dst *Decoded) {
	s, sum := &dst.Samples, &dst.Summary
	sum.Samples, sum.Mode = s.Len(), "non-streaming"
	for i := 0; i < s.Len(); i++ {
		if s.HasComplete[i] {
			sum.Completed++
		}
		if s.Failed[i] {
			sum.Failed++
		}
		if !s.HasComplete[i] && !s.Failed[i] {
			sum.Pending++
		}
		if s.HasFirstToken[i] && sum.Mode != "agentic" {
			sum.Mode = "streaming"
		}
		if s.ConversationID[i] != "" {
			sum.Mode = "agentic"
		}
	}
}

// DefaultSuperpassSize is the super-pass size of a run with no dataset
// pass (AIPerf, GuideLLM and vLLM logs; docs/readers.md): four times the
// concurrency, at least MinSuperpassSize, and at most an eighth of the
// run (so a long enough run has eight super-passes), but never below the
// minimum:
//
//	S = max(MinSuperpassSize, min(4·C, ⌊n/8⌋))
//
// C is the configured concurrency, else the mean number of requests in
// flight the log shows (Σ latency / span, Little's law); n the number of
// samples. Four concurrency-widths make each super-pass span several
// turnovers of the in-flight set, so its percentiles are not one burst;
// the floor leaves six or more samples above each super-pass's p90.
func DefaultSuperpassSize(concurrency float64, n int) int {
	c := 4 * concurrency
	if math.IsNaN(c) || c < 0 {
		c = 0
	}
	s := min(int(math.Min(c, 1<<30)), n/8)
	return max(MinSuperpassSize, s)
}

// ConcurrencyOf is a concurrency read as a float from another tool's log:
// 0 (unknown) unless it is a positive count an int holds exactly (a
// 1e300 or a NaN converts to an arbitrary int).
func ConcurrencyOf(x float64) int {
	if !(x > 0 && x <= 1<<31) {
		return 0
	}
	return int(x)
}

// MinSuperpassSize is DefaultSuperpassSize's floor.
const MinSuperpassSize = 64

// observedConcurrency is the mean number of requests in flight: the
// summed latencies over the span from the first issue to the last end
// (0 when there is no span).
func observedConcurrency(s *core.Samples) float64 {
	var busy float64
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := 0; i < s.Len(); i++ {
		lo, hi = min(lo, s.IssueNs[i]), max(hi, s.LastEventNs[i])
		if s.HasComplete[i] {
			busy += float64(s.LatencyNs[i])
		}
	}
	if hi <= lo {
		return 0
	}
	return busy / float64(hi-lo)
}

// applyDefaultSuperpass sets info's super-pass size for a format without
// a dataset pass, unless one was given (--dataset-size).
func applyDefaultSuperpass(info *core.RunInfo, s *core.Samples) {
	if info.DatasetSize > 0 {
		return
	}
	n := s.Len()
	if info.NoTimelineReason != "" {
		info.DatasetSize = max(n, 1)
		info.DatasetSizeSource = "the whole run (no per-request start times: it cannot be windowed)"
		return
	}
	c, from := float64(info.Concurrency), "concurrency"
	if info.Concurrency <= 0 {
		c, from = observedConcurrency(s), "mean in flight"
	}
	info.DatasetSize = DefaultSuperpassSize(c, n)
	info.DatasetSizeSource = fmt.Sprintf("default for %s (no dataset pass): max(%d, min(4×%s %.3g, %d samples/8))",
		info.SourceFormat, MinSuperpassSize, from, c, n)
}

// NsOf converts a duration or time in unit to integer nanoseconds,
// rounded; ok is false for a unit it does not know or a value out of
// range.
func NsOf(v float64, unit string) (int64, bool) {
	var scale float64
	switch unit {
	case "ns":
		scale = 1
	case "us", "µs":
		scale = 1e3
	case "ms", "":
		scale = 1e6
	case "s", "sec", "seconds":
		scale = 1e9
	default:
		return 0, false
	}
	ns := math.Round(v * scale)
	if math.IsNaN(ns) || math.Abs(ns) > 9.2e18 {
		return 0, false
	}
	return int64(ns), true
}
