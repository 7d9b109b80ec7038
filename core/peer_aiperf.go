package core

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// aiperfMinWindowPct is AIPerf's AIPERF_STEADY_STATE_MIN_WINDOW_PCT
// default: a window shorter than 10 % of the run falls back to the whole
// run.
const aiperfMinWindowPct = 10.0

// aiperfWindow is AIPerf's steady-state window (ai-dynamo/aiperf,
// src/aiperf/analysis/ramp_detection.py detect_steady_state_window at
// commit eb845480b8c097a789e5ebf7640740e301d08519, with the sweep lines
// of src/aiperf/analysis/sweepline.py and the analyzer
// src/aiperf/post_processors/steady_state_analyzer.py at
// 37f585420e558fdeb15c4a3bc44dfd2a8c355e42). Read there, restated here:
//
//   - Signals: CUSUM on the concurrency sweep line (always); forward and
//     backward MSER-5 on the requests' latency and on their TTFT, each in
//     request start order (when ≥ 20 values); CUSUM on the output-token
//     throughput sweep line (when it has events).
//   - The window is the latest ramp-up end and the earliest ramp-down
//     start over the signals (their intersection).
//   - No overlap, or a window under minPct % of the concurrency curve's
//     span: the whole span (first to last event).
//   - The windowed metrics count the requests started at or after the
//     window's start and ended at or before its end (members).
//
// method names the signals used, as AIPerf's detection_method does.
func aiperfWindow(reqs []peerRequest, minPct float64) (w peerTimeWindow, method string) {
	cts, conc := sweepLine(concurrencyEvents(reqs))
	if len(cts) == 0 {
		return peerTimeWindow{reason: "no successful request"}, "empty"
	}
	minTS, maxTS := cts[0], cts[len(cts)-1]
	full := func(m string) (peerTimeWindow, string) {
		return aiperfMembers(minTS, maxTS), m
	}
	if maxTS <= minTS {
		return full("zero_duration")
	}
	cs, ce := cusumWindow(cts, conc, 0)
	starts, ends, used := []int64{cs}, []int64{ce}, []string{"cusum"}
	for _, sig := range []struct {
		name  string
		value func(r *peerRequest) float64
	}{{"mser5_latency", func(r *peerRequest) float64 { return r.lat }}, {"mser5_ttft", func(r *peerRequest) float64 { return r.ttft }}} {
		up, upOK, down, downOK := mser5Boundary(reqs, sig.value)
		if upOK {
			starts, used = append(starts, up), append(used, sig.name)
		}
		if downOK {
			ends = append(ends, down)
		}
	}
	if tts, tput := sweepLine(throughputEvents(reqs)); len(tts) > 0 {
		ts, te := cusumWindow(tts, tput, 0)
		starts, ends, used = append(starts, ts), append(ends, te), append(used, "cusum_throughput")
	}
	ws, we := slices.Max(starts), slices.Min(ends)
	switch {
	case ws >= we:
		return full("fallback_no_overlap")
	case float64(we-ws) < float64(maxTS-minTS)*minPct/100:
		return full("fallback_min_window")
	}
	return aiperfMembers(ws, we), strings.Join(used, "_")
}

// aiperfMembers is AIPerf's window [ws, we] with its membership rule.
func aiperfMembers(ws, we int64) peerTimeWindow {
	return peerTimeWindow{ok: true, start: ws, end: we,
		member: func(r *peerRequest) bool { return r.start >= ws && r.end <= we }}
}

// throughputEvents are AIPerf's throughput sweep-line events: each
// request with a first token, a token count and a positive generation
// time adds its rate (output tokens − 1)/(end − first token) from its
// first token to its end. Our post-first-chunk count is AIPerf's
// output_sequence_length − 1.
func throughputEvents(reqs []peerRequest) []sweepEvent {
	var ev []sweepEvent
	var ends []sweepEvent
	for i := range reqs {
		r := &reqs[i]
		if !r.hasFirst || r.outTokens < 0 || r.end-r.firstTok <= 0 {
			continue
		}
		rate := float64(r.outTokens) / float64(r.end-r.firstTok)
		ev = append(ev, sweepEvent{t: r.firstTok, delta: rate, start: true})
		ends = append(ends, sweepEvent{t: r.end, delta: -rate})
	}
	ev = append(ev, ends...)
	for i := range ev {
		ev[i].seq = i
	}
	return ev
}

// cusumWindow is AIPerf's time-weighted retrospective CUSUM on a step
// function (cusum_steady_state_window): vals[i] holds from ts[i] to
// ts[i+1] (the last for no time). With the target the time-weighted
// 95th percentile of the values (the first value, in ascending order,
// whose cumulative share of the positive durations reaches 0.95),
//
//	dev_i = (vals[i] − target)·(ts[i+1] − ts[i])
//
// the ramp-up ends at the first argmin of the forward cumulative sum of
// dev, the ramp-down starts at the mirror argmin from the right. Returns
// the whole span when the ramp-down does not follow the ramp-up, no
// segment has a duration, or the window is under minPct % of the span.
func cusumWindow(ts []int64, vals []float64, minPct float64) (ws, we int64) {
	n := len(ts)
	if n == 0 {
		return 0, 0
	}
	lo, hi := ts[0], ts[n-1]
	if hi <= lo {
		return lo, hi
	}
	dur := make([]float64, n)
	type seg struct{ v, d float64 }
	var pos []seg
	total := 0.0
	for i := range n - 1 {
		dur[i] = float64(ts[i+1] - ts[i])
		if dur[i] > 0 {
			pos = append(pos, seg{vals[i], dur[i]})
			total += dur[i]
		}
	}
	if len(pos) == 0 {
		return lo, hi
	}
	slices.SortStableFunc(pos, func(a, b seg) int { return cmp.Compare(a.v, b.v) })
	target, cum := pos[len(pos)-1].v, 0.0
	for _, s := range pos {
		cum += s.d
		if cum/total >= 0.95 {
			target = s.v
			break
		}
	}
	upIdx, f, fMin := 0, 0.0, math.Inf(1)
	for i := range n {
		f += (vals[i] - target) * dur[i]
		if f < fMin {
			upIdx, fMin = i, f
		}
	}
	downIdx, b, bMin := n-1, 0.0, math.Inf(1)
	for i := n - 1; i >= 0; i-- {
		b += (vals[i] - target) * dur[i]
		if b < bMin {
			downIdx, bMin = i, b
		}
	}
	if upIdx >= downIdx {
		return lo, hi
	}
	ws, we = ts[upIdx], ts[downIdx]
	if float64(we-ws) < float64(hi-lo)*minPct/100 {
		return lo, hi
	}
	return ws, we
}

// aiperfMSER5 is AIPerf's MSER-5 truncation point
// (mser5_truncation_point), in observations: with Z_0…Z_m−1 the means of
// consecutive batches of 5 (the remainder dropped), and for each d the
// population variance s²_d of Z_d…Z_m−1 (as E[Z²] − Z̄², floored at 0),
//
//	MSER(d) = s²_d / (m − d),   d = 0…⌊m/2⌋
//
// it returns 5·(first argmin). Fewer than 10 values or 4 batches: 0. (This
// is AIPerf's statistic, which divides by m − d once; stats.MSER is
// White's, divided twice. The argmins differ.)
func aiperfMSER5(xs []float64) int {
	if len(xs) < 10 {
		return 0
	}
	const batch = 5
	m := len(xs) / batch
	if m < 4 {
		return 0
	}
	z := make([]float64, m)
	for j := range z {
		s := 0.0
		for _, x := range xs[j*batch : (j+1)*batch] {
			s += x
		}
		z[j] = s / batch
	}
	maxD := m / 2
	// Reverse cumulative sums, as np.cumsum(z[::-1])[::-1] adds them.
	sx, sx2 := make([]float64, m), make([]float64, m)
	ax, ax2 := 0.0, 0.0
	for d := m - 1; d >= 0; d-- {
		ax += z[d]
		ax2 += z[d] * z[d]
		sx[d], sx2[d] = ax, ax2
	}
	best, bestV := 0, math.Inf(1)
	for d := 0; d <= maxD; d++ {
		cnt := float64(m - d)
		mean := sx[d] / cnt
		v := max(sx2[d]/cnt-mean*mean, 0) / cnt
		if v < bestV {
			best, bestV = d, v
		}
	}
	return best * batch
}

// mser5Boundary is AIPerf's mser5_boundary_ns for one metric: the
// requests with a value, in start order (ties in issue order), need at
// least 20; the ramp-up ends at the start of the request at the forward
// MSER-5 truncation point, and, when the backward truncation b (MSER-5 on
// the reversed values) is positive, the ramp-down starts at the end of
// the request at position n − b − 1 of that start order.
func mser5Boundary(reqs []peerRequest, value func(r *peerRequest) float64) (up int64, upOK bool, down int64, downOK bool) {
	var idx []int
	for i := range reqs {
		if !math.IsNaN(value(&reqs[i])) {
			idx = append(idx, i)
		}
	}
	if len(idx) < 20 {
		return 0, false, 0, false
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(reqs[a].start, reqs[b].start) })
	n := len(idx)
	xs := make([]float64, n)
	for k, i := range idx {
		xs[k] = value(&reqs[i])
	}
	if f := aiperfMSER5(xs); f < n {
		up, upOK = reqs[idx[f]].start, true
	}
	slices.Reverse(xs)
	if b := aiperfMSER5(xs); b > 0 {
		down, downOK = reqs[idx[n-b-1]].end, true
	}
	return up, upOK, down, downOK
}
