package core

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// steadysweep's throughput of a window. Both throughputs are ratios of
// sums over the window's super-passes, and their confidence intervals are
// intervals of those ratios (stats.RatioCI: the delta method over the
// super-passes as batches):
//
//	system    = Σ_k tokens_k / Σ_k span_k   tok/s over the window's issue span
//	per user  = 1e9 / (Σ_k ΣTPOT_k / Σ_k nTPOT_k)   from the pooled mean TPOT
//
// span_k is the issue time super-pass k accounts for: from its first issue
// to the next super-pass's (the last one to the window's last issue), so
// the spans add up to the window's issue span exactly and system equals
// tokens / issue span. The reference instead takes batch means of the
// per-super-pass rates tokens_k/span_k, which a super-pass issued in a
// near-zero span dominates (its interval reached −180,170 tok/s around
// 2,380), and re-centres them on a point they do not estimate.
//
// A value or interval the data cannot support is NaN (JSON null) with a
// reason, never a number: no value for a window issued in a burst (issue
// span shorter than its median latency: it measured the ramp, not a rate)
// or over a zero span; no interval from fewer than minThroughputBatches
// super-passes, or when the interval reaches 0 or is wider than twice the
// value (the data do not pin the rate down to within ±100 %).

// minThroughputBatches is the fewest super-passes a throughput interval is
// computed from (two degrees of freedom).
const minThroughputBatches = 3

// throughputReasons explain NaN values of a TPS block.
const (
	reasonBurst = "issue burst: the window was issued within one median request latency, so it measured " +
		"the load ramp, not a rate"
	reasonZeroSpan = "the window's issue span is 0 s"
	reasonNoTPOT   = "no TPOT in the window"
)

// burstTPS is the TPS block of a burst window: nothing.
func burstTPS() TPS {
	nan := math.NaN()
	return TPS{PerUser: nan, PerUserCI: [2]float64{nan, nan}, System: nan, SystemCI: [2]float64{nan, nan},
		SystemReason: reasonBurst, PerUserReason: reasonBurst}
}

// windowThroughput is the TPS block of the window w.
func windowThroughput(w []SuperPass) TPS {
	t := TPS{}
	t.System, t.SystemCI, t.SystemReason = systemThroughput(w)
	t.PerUser, t.PerUserCI, t.PerUserReason = perUserThroughput(w)
	return t
}

// issueSpans are the super-passes' shares of the window's issue span in
// seconds (see the file comment); nil when the span is not positive.
func issueSpans(w []SuperPass) []float64 {
	span := issueSpanNs(w)
	if span <= 0 {
		return nil
	}
	first := int64(-1)
	for i := range w {
		if f := w[i].FirstIssueNs; f >= 0 && (first < 0 || f < first) {
			first = f
		}
	}
	out := make([]float64, len(w))
	prev := first
	for k := range w {
		next := first + span
		if k+1 < len(w) && w[k+1].FirstIssueNs >= 0 {
			next = w[k+1].FirstIssueNs
		}
		out[k] = float64(next-prev) / 1e9
		prev = next
	}
	return out
}

// systemThroughput is Σ SysTokens / issue span of w with its interval.
func systemThroughput(w []SuperPass) (v float64, ci [2]float64, reason string) {
	nan := math.NaN()
	spans := issueSpans(w)
	if spans == nil {
		return nan, [2]float64{nan, nan}, reasonZeroSpan
	}
	tokens := make([]float64, len(w))
	for k := range w {
		tokens[k] = float64(w[k].SysTokens)
	}
	r, lo, hi := stats.RatioCI(tokens, spans)
	ci, reason = supportedCI(r, lo, hi, len(w), "super-pass(es)")
	return r, ci, reason
}

// perUserThroughput is 1e9 / pooled mean TPOT of w with its interval: the
// ratio interval of the mean TPOT, inverted.
func perUserThroughput(w []SuperPass) (v float64, ci [2]float64, reason string) {
	nan := math.NaN()
	var sums, counts []float64
	for k := range w {
		if n := len(w[k].TPOT); n > 0 {
			sums = append(sums, stats.Sum(w[k].TPOT))
			counts = append(counts, float64(n))
		}
	}
	m, lo, hi := stats.RatioCI(sums, counts)
	if !(m > 0) {
		return nan, [2]float64{nan, nan}, reasonNoTPOT
	}
	v = 1e9 / m
	pl, ph := math.NaN(), math.NaN() // lo ≤ 0: no finite upper per-user bound
	if lo > 0 {
		pl, ph = 1e9/hi, 1e9/lo
	}
	ci, reason = supportedCI(v, pl, ph, len(sums), "super-pass(es) with TPOT")
	return v, ci, reason
}

// supportedCI is [lo, hi] when it supports the value v: from at least
// minThroughputBatches batches (unit names them in the reason), 0 < lo ≤
// v ≤ hi and hi − lo < 2·v; otherwise NaN bounds and the reason.
func supportedCI(v, lo, hi float64, batches int, unit string) ([2]float64, string) {
	nan := [2]float64{math.NaN(), math.NaN()}
	switch {
	case math.IsNaN(v):
		return nan, ""
	case batches < minThroughputBatches:
		return nan, fmt.Sprintf("%d %s: a confidence interval needs at least %d", batches, unit, minThroughputBatches)
	case !(lo > 0) || !(lo <= v && v <= hi):
		return nan, "the 95% interval reaches 0: the rate is not pinned down"
	case !(hi-lo < 2*v):
		return nan, "the 95% interval is wider than twice the value: the rate is not pinned down"
	}
	return [2]float64{lo, hi}, ""
}
