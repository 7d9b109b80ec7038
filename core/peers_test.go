package core

import (
	"math"
	"slices"
	"testing"
)

const sec = int64(1e9)

// handRun builds peerRequests from (start, end) pairs in seconds, in
// issue order; lat is end − start, no first token.
func handRun(spans [][2]int64) []peerRequest {
	reqs := make([]peerRequest, len(spans))
	for i, s := range spans {
		reqs[i] = peerRequest{rank: i, start: s[0] * sec, end: s[1] * sec, lat: float64((s[1] - s[0]) * sec),
			ttft: math.NaN(), outTokens: -1}
	}
	return reqs
}

// dipRun is a closed loop at concurrency 4 whose fourth replacement
// starts 2 s late: requests start at 0, 1, 2, 3 (the ramp), 10, 11, 12,
// 15, 20, 21, 22, 23 and end at 10, 11, 12, 13, 20, 21, 22, 23, 30, 31,
// 32, 40. In flight: 1, 2, 3 from t = 0, 1, 2; 4 over [3, 13); 3 over
// [13, 15); 4 over [15, 30) (every replacement ends one request and
// starts the next at the same instant); then 3, 2, 1 from t = 30, 31, 32
// and 0 at 40.
var dipRun = [][2]int64{{0, 10}, {1, 11}, {2, 12}, {3, 13}, {10, 20}, {11, 21}, {12, 22}, {15, 23},
	{20, 30}, {21, 31}, {22, 32}, {23, 40}}

// members returns the issue ranks w counts.
func members(reqs []peerRequest, w peerTimeWindow) []int {
	var out []int
	for i := range reqs {
		if w.member(&reqs[i]) {
			out = append(out, reqs[i].rank)
		}
	}
	return out
}

func ranks(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}

// TestVLLMBenchWindowByHand: vllm-bench's rule on dipRun at
// --max-concurrency 4 and its default threshold 0.95: threshold_abs =
// max(1, ⌈0.95·4⌉) = 4. The first start lifting in-flight from 3 to 4 is
// at t = 3. At t = 10, 11, 12, 20, 21, 22, 23 an end is merged before the
// start at the same instant (its tie rule), each a down-crossing 4 → 3;
// so is t = 13; the last is the end at t = 30 (after it in-flight never
// returns to 4). Window [3 s, 30 s); its TTFT/TPOT count the requests
// started in it: ranks 3…11. At concurrency 5 the threshold ⌈4.75⌉ = 5
// is never reached (no window); without a target there is none either.
func TestVLLMBenchWindowByHand(t *testing.T) {
	reqs := handRun(dipRun)
	w := vllmBenchWindow(reqs, 4, vllmBenchThreshold)
	if !w.ok || w.start != 3*sec || w.end != 30*sec {
		t.Fatalf("window %+v, want [3 s, 30 s)", w)
	}
	if got := members(reqs, w); !slices.Equal(got, ranks(3, 11)) {
		t.Errorf("members %v, want ranks 3…11", got)
	}
	if w := vllmBenchWindow(reqs, 5, vllmBenchThreshold); w.ok {
		t.Errorf("target 5: window %+v, want none", w)
	}
	if w := vllmBenchWindow(reqs, 0, vllmBenchThreshold); w.ok || w.reason == "" {
		t.Errorf("no target: %+v, want none with a reason", w)
	}
}

// TestSGLangWindowByHand: SGLang's rule on dipRun at ratio 0.8. Events
// at one instant are netted, so the replacements leave 4 in flight; the
// intervals are 1, 2, 3 over [0, 3), 4 over [3, 13), 3 over [13, 15), 4
// over [15, 30), then 3, 2, 1. Peak 4, threshold ⌈0.8·4⌉ = 4. Spans at
// ≥ 4: [3, 13) (10 s) and [15, 30) (15 s); the longest is [15 s, 30 s).
// Members (started in it): ranks 7…11. At ratio 0.7 (threshold ⌈2.8⌉ =
// 3) the span is [2 s, 31 s): the dip to 3 no longer breaks it.
func TestSGLangWindowByHand(t *testing.T) {
	reqs := handRun(dipRun)
	w := sglangWindow(reqs, sglangRatio)
	if !w.ok || w.start != 15*sec || w.end != 30*sec {
		t.Fatalf("window %+v, want [15 s, 30 s)", w)
	}
	if got := members(reqs, w); !slices.Equal(got, ranks(7, 11)) {
		t.Errorf("members %v, want ranks 7…11", got)
	}
	if w := sglangWindow(reqs, 0.7); !w.ok || w.start != 2*sec || w.end != 31*sec {
		t.Errorf("ratio 0.7: window %+v, want [2 s, 31 s)", w)
	}
}

// TestGuideLLMWindowByHand: dipRun's first start is 0 s and its last end
// 40 s (D = 40 s). GuideLLM's defaults set no warmup and no cooldown:
// the window is [0, 40 s] and every request overlaps it. With warmup 0.3
// and cooldown 0.5 (duration mode): measure_start = 0.3·40 = 12 s,
// measure_end = 40 − 0.5·40 = 20 s; the requests ending at or after 12 s
// and starting at or before 20 s are ranks 2…8 (rank 1 ends at 11 s,
// rank 9 starts at 21 s).
func TestGuideLLMWindowByHand(t *testing.T) {
	reqs := handRun(dipRun)
	w := guidellmWindow(reqs, guidellmWarmupFrac, guidellmCooldownFrac)
	if !w.ok || w.start != 0 || w.end != 40*sec || !slices.Equal(members(reqs, w), ranks(0, 11)) {
		t.Fatalf("defaults: window %+v members %v, want [0, 40 s] and every request", w, members(reqs, w))
	}
	w = guidellmWindow(reqs, 0.3, 0.5)
	if !w.ok || w.start != 12*sec || w.end != 20*sec {
		t.Fatalf("0.3/0.5: window %+v, want [12 s, 20 s]", w)
	}
	if got := members(reqs, w); !slices.Equal(got, ranks(2, 8)) {
		t.Errorf("0.3/0.5: members %v, want ranks 2…8", got)
	}
}

// aiperfHandRun is AIPerf's own test shape (sequential requests every
// 10 s): 40 requests, the first 10 taking 8 s, the other 30 taking 2 s;
// no first tokens (no TTFT, no throughput curve).
func aiperfHandRun() []peerRequest {
	spans := make([][2]int64, 40)
	for k := range spans {
		l := int64(2)
		if k < 10 {
			l = 8
		}
		spans[k] = [2]int64{10 * int64(k), 10*int64(k) + l}
	}
	return handRun(spans)
}

// TestAIPerfWindowByHand works AIPerf's detection through aiperfHandRun.
//
// Concurrency CUSUM: in flight is 1 for 10·8 + 30·2 = 140 s and 0 for
// 10·2 + 29·8 = 252 s of the 392 s; the time-weighted p95 is 1, so every
// deviation (c − 1)·dt is ≤ 0: the forward sum is lowest first at the
// end of the last gap (rank 38's end) and the backward one at rank 0's
// end; the ramp-up does not precede the ramp-down, so the signal is the
// whole span [0, 392 s].
//
// MSER-5 on latency, in start order: batch means 8, 8, 2, 2, 2, 2, 2, 2
// (m = 8, d ≤ 4). MSER(d) = var(Z_d…)/(m − d): d = 0: 6.75/8; d = 1:
// (88/7 − (20/7)²)/7 ≈ 0.63; d = 2: 0. First argmin 2 → truncation 10
// → ramp-up at rank 10's start, 100 s. Backward (reversed: 2×6, 8×2):
// d = 0: 6.75/8 ≈ 0.84; d = 1: ≈ 1.05; d = 2: 8/6; d = 3: 8.64/5; d = 4:
// 9/4; argmin 0 → no ramp-down.
//
// Intersection: start max(0, 100) = 100 s, end 392 s; 292 s ≥ 10 % of
// 392 s. Members (started ≥ 100 s, ended ≤ 392 s): ranks 10…39.
func TestAIPerfWindowByHand(t *testing.T) {
	reqs := aiperfHandRun()
	cs, ce := cusumWindowOf(sweepLine(concurrencyEvents(reqs)))
	if cs != 0 || ce != 392*sec {
		t.Errorf("concurrency CUSUM [%d, %d], want the whole span [0, 392 s]", cs, ce)
	}
	w, method := aiperfWindow(reqs, aiperfMinWindowPct)
	if !w.ok || w.start != 100*sec || w.end != 392*sec || method != "cusum_mser5_latency" {
		t.Fatalf("window %+v by %q, want [100 s, 392 s] by cusum_mser5_latency", w, method)
	}
	if got := members(reqs, w); !slices.Equal(got, ranks(10, 39)) {
		t.Errorf("members %v, want ranks 10…39", got)
	}
	// The same latencies reversed in time (8 s for the last 10): the
	// backward truncation is 10, so the ramp-down starts at the end of
	// the request at position 40 − 10 − 1 = 29 (start 290 s + 2 s).
	for k := range reqs {
		l := int64(2)
		if k >= 30 {
			l = 8
		}
		reqs[k].end, reqs[k].lat = reqs[k].start+l*sec, float64(l*sec)
	}
	w, method = aiperfWindow(reqs, aiperfMinWindowPct)
	if !w.ok || w.start != 0 || w.end != 292*sec || method != "cusum_mser5_latency" {
		t.Errorf("reversed: window %+v by %q, want [0, 292 s]", w, method)
	}
}

// cusumWindow of a sweep line (a helper for the test's one-liner).
func cusumWindowOf(ts []int64, vals []float64) (int64, int64) { return cusumWindow(ts, vals, 0) }

// TestAIPerfMSER5Edges: AIPerf returns 0 under 10 values or 4 batches,
// and for a constant series (every MSER(d) is 0, the first argmin 0).
func TestAIPerfMSER5Edges(t *testing.T) {
	if d := aiperfMSER5(make([]float64, 9)); d != 0 {
		t.Errorf("9 values: %d", d)
	}
	if d := aiperfMSER5([]float64{9, 9, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}); d != 0 {
		t.Errorf("3 batches: %d, want 0 (m < 4)", d)
	}
	c := make([]float64, 100)
	for i := range c {
		c[i] = 42
	}
	if d := aiperfMSER5(c); d != 0 {
		t.Errorf("constant: %d", d)
	}
}

// TestSPWindowRounding: sglang's members on dipRun are ranks 7…11; in
// super-passes of 4 (3 full) the span [7, 12) rounds to [2, 3) (7/4 =
// 1.75 → 2, 12/4 = 3); vllm-bench's ranks 3…11 give [1, 3).
func TestSPWindowRounding(t *testing.T) {
	reqs := handRun(dipRun)
	for _, c := range []struct {
		w      peerTimeWindow
		lo, hi int
	}{{sglangWindow(reqs, sglangRatio), 2, 3}, {vllmBenchWindow(reqs, 4, vllmBenchThreshold), 1, 3}} {
		lo, hi, ok := spWindow(reqs, c.w, 4, 3)
		if !ok || lo != c.lo || hi != c.hi {
			t.Errorf("window [%d s, %d s): super-passes [%d, %d) ok=%v, want [%d, %d)", c.w.start/sec, c.w.end/sec, lo, hi, ok, c.lo, c.hi)
		}
	}
}

// TestAIPerfBootstrapSeeded: the bootstrap is a function of its seed
// (same seed, same intervals; another seed, another resample), its
// intervals are ordered, and the ramp-up interval lies inside the run's
// span.
func TestAIPerfBootstrapSeeded(t *testing.T) {
	reqs := aiperfHandRun()
	a := aiperfBootstrap(reqs, 50, 0.95, 7)
	b := aiperfBootstrap(reqs, 50, 0.95, 7)
	if a != b {
		t.Fatalf("same seed, different intervals:\n%+v\n%+v", a, b)
	}
	if a.Blocks != 7 { // ⌈40 / ⌊√40⌋⌉ = ⌈40/6⌉
		t.Errorf("blocks %d, want 7", a.Blocks)
	}
	for _, iv := range [][2]float64{a.RampUp, a.RampDown, a.MeanLat, a.P99Lat} {
		if !(iv[0] <= iv[1]) {
			t.Errorf("interval %v not ordered", iv)
		}
	}
	if a.RampUp[0] < 0 || a.RampUp[1] > float64(392*sec) {
		t.Errorf("ramp-up interval %v outside the run", a.RampUp)
	}
	if c := aiperfBootstrap(reqs, 50, 0.95, 8); c == a {
		t.Errorf("seeds 7 and 8 gave identical intervals %+v", c)
	}
	g := splitMix64{state: 1}
	for range 1000 {
		if v := g.intn(7); v < 0 || v >= 7 {
			t.Fatalf("intn(7) = %d", v)
		}
	}
}
