package core

import "fmt"

// The peer detectors: each is a faithful restatement, in Go, of the
// steady-state window another benchmarking tool computes from its
// per-request start and end times (docs/peers.md cites the files and
// commits read). They run as baselines (baselines.go): steadysweep's
// series, assessment and reporting, with the window the peer's method
// chooses, converted to super-passes by spWindow.
const (
	// MethodAIPerf is AIPerf's steady-state analyzer: CUSUM on
	// concurrency and throughput intersected with MSER-5 on latency and
	// TTFT (peer_aiperf.go).
	MethodAIPerf Method = "aiperf"
	// MethodVLLMBench is vllm-bench's window: first up-crossing to last
	// down-crossing of in-flight ≥ 0.95 × max concurrency
	// (peer_vllmbench.go).
	MethodVLLMBench Method = "vllm-bench"
	// MethodSGLang is SGLang's steady_state_serving window: the longest
	// span with concurrency ≥ 0.8 × peak (peer_sglang.go).
	MethodSGLang Method = "sglang"
	// MethodGuideLLM is GuideLLM's measured window with its default
	// warmup and cooldown (none; peer_guidellm.go).
	MethodGuideLLM Method = "guidellm"
)

// PeerMethods returns the peer detectors in documentation order.
func PeerMethods() []Method {
	return []Method{MethodAIPerf, MethodVLLMBench, MethodSGLang, MethodGuideLLM}
}

// isPeer reports whether m is a peer detector.
func isPeer(m Method) bool {
	for _, p := range PeerMethods() {
		if m == p {
			return true
		}
	}
	return false
}

// peerTime returns the peer m's window in time over the run's successful
// requests.
func peerTime(m Method, reqs []peerRequest, info RunInfo) peerTimeWindow {
	switch m {
	case MethodAIPerf:
		w, _ := aiperfWindow(reqs, aiperfMinWindowPct)
		return w
	case MethodVLLMBench:
		return vllmBenchWindow(reqs, info.Concurrency, vllmBenchThreshold)
	case MethodSGLang:
		return sglangWindow(reqs, sglangRatio)
	case MethodGuideLLM:
		return guidellmWindow(reqs, guidellmWarmupFrac, guidellmCooldownFrac)
	}
	return peerTimeWindow{reason: fmt.Sprintf("unknown peer %q", m)}
}

// peerSPWindow is the peer m's window as super-passes [lo, hi) of the
// post-warmup series (the baselines crop no warmup unless WarmupMode is
// fixed), with the reason when there is none.
func peerSPWindow(a *analysis, m Method) (lo, hi int, reason string) {
	reqs := peerRequests(a.run.samples, nil)
	w := peerTime(m, reqs, a.run.info)
	if !w.ok {
		return 0, 0, w.reason
	}
	S, n := a.res.SuperpassSize, len(a.res.series)
	lo, hi, ok := spWindow(reqs, w, S, n)
	if !ok {
		return 0, 0, "the window holds less than half a super-pass of requests"
	}
	wu := a.res.Warmup
	lo, hi = max(lo-wu, 0), hi-wu
	if lo >= hi {
		return 0, 0, "the window lies inside the fixed warmup"
	}
	return lo, hi, ""
}
