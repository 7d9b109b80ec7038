package core

import (
	"cmp"
	"math"
	"slices"
)

// peerRequest is one request as the peers' detectors see it: the
// successful attempt's start and end (issue time current at completion,
// and the COMPLETE time), in integer nanoseconds as logged. The peers
// keep float seconds (vLLM, SGLang) or float nanoseconds (AIPerf); our
// comparisons are exact on the integers.
type peerRequest struct {
	// rank is the sample's issue rank (its index in Samples).
	rank int
	// start and end bound the request's time in flight.
	start, end int64
	// firstTok is the first-token time; hasFirst reports one.
	firstTok int64
	hasFirst bool
	// ttft and lat are the time to first token and the end-to-end
	// latency in ns (ttft NaN without a first token).
	ttft, lat float64
	// outTokens is the post-first-chunk token count (−1 when not counted):
	// AIPerf's output_sequence_length − 1.
	outTokens int64
}

// peerRequests returns the successful requests of s (a timestamped
// COMPLETE, not failed), in issue order: every peer measures successful
// requests only (vllm-bench and SGLang filter on success, AIPerf on
// records with both timestamps, GuideLLM's measured window counts its
// "successful" group). reqs is reused.
func peerRequests(s *Samples, reqs []peerRequest) []peerRequest {
	reqs = reqs[:0]
	for i := range s.Len() { // at: a short column reads as absent
		if !at(s.HasComplete, i, false) || at(s.Failed, i, false) {
			continue
		}
		lat := at(s.LatencyNs, i, 0)
		r := peerRequest{rank: i, end: at(s.CompleteNs, i, 0), outTokens: at(s.OutTokens, i, -1), ttft: math.NaN()}
		r.start, r.lat = r.end-lat, float64(lat)
		if at(s.HasFirstToken, i, false) {
			r.hasFirst, r.firstTok, r.ttft = true, at(s.FirstTokenNs, i, 0), float64(at(s.TTFTNs, i, 0))
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// peerTimeWindow is a peer's measurement window in time, and which
// requests its own metrics count (member).
type peerTimeWindow struct {
	// ok is false when the peer reports no window; reason says why.
	ok     bool
	reason string
	// start and end bound the window (ns).
	start, end int64
	// member reports whether the peer's windowed metrics count a request.
	member func(r *peerRequest) bool
}

// spWindow converts the requests a peer's window counts into steadysweep's
// window of full super-passes [lo, hi) of size S (n of them): the span of
// the member requests' issue ranks, from the first to the last member,
// rounded to the nearest super-pass boundary, so a super-pass is in the
// window when at least half of it lies inside that span. ok is false when
// no request is a member or the span rounds to nothing.
func spWindow(reqs []peerRequest, w peerTimeWindow, S, n int) (lo, hi int, ok bool) {
	first, last := -1, -1
	for i := range reqs {
		if w.member(&reqs[i]) {
			if first < 0 {
				first = reqs[i].rank
			}
			last = reqs[i].rank
		}
	}
	if first < 0 || S <= 0 {
		return 0, 0, false
	}
	lo = min(int(math.Round(float64(first)/float64(S))), n)
	hi = min(int(math.Round(float64(last+1)/float64(S))), n)
	return lo, hi, lo < hi
}

// sweepEvent is one start (+) or end (−) of a sweep line.
type sweepEvent struct {
	t     int64
	delta float64
	start bool
	// seq is the event's position in the peer's concatenated input
	// (starts first, then ends), the tie order of a stable sort.
	seq int
}

// sweepLine sorts events by time, ends before starts at equal times and
// otherwise in input order (AIPerf's np.lexsort((event_type, timestamps))
// is stable), and returns the times and the running sum of the deltas
// after each event, with sums below 1e−9 of the largest magnitude snapped
// to 0 (AIPerf's guard against float cancellation; a no-op for the
// integral concurrency curve).
func sweepLine(ev []sweepEvent) (ts []int64, vals []float64) {
	slices.SortStableFunc(ev, func(a, b sweepEvent) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		if a.start != b.start {
			if a.start {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.seq, b.seq)
	})
	ts, vals = make([]int64, len(ev)), make([]float64, len(ev))
	sum, maxAbs := 0.0, 0.0
	for i, e := range ev {
		sum += e.delta
		ts[i], vals[i] = e.t, sum
		maxAbs = max(maxAbs, math.Abs(sum))
	}
	if maxAbs > 0 {
		for i, v := range vals {
			if math.Abs(v) < 1e-9*maxAbs {
				vals[i] = 0
			}
		}
	}
	return ts, vals
}

// concurrencyEvents are the start/end events of reqs' time in flight.
func concurrencyEvents(reqs []peerRequest) []sweepEvent {
	ev := make([]sweepEvent, 0, 2*len(reqs))
	for i := range reqs {
		ev = append(ev, sweepEvent{t: reqs[i].start, delta: 1, start: true, seq: i})
	}
	for i := range reqs {
		ev = append(ev, sweepEvent{t: reqs[i].end, delta: -1, seq: len(reqs) + i})
	}
	return ev
}
