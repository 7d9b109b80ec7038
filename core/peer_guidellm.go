package core

// GuideLLM's default transient phases: TransientPhaseConfig() with
// neither percent nor value, i.e. no warmup and no cooldown.
const (
	guidellmWarmupFrac   = 0.0
	guidellmCooldownFrac = 0.0
)

// guidellmWindow is GuideLLM's measured window (vllm-project/guidellm at
// commit ee7a77457ba668b4b5ccb40f110518829893b36a:
// src/guidellm/benchmark/schemas/base.py TransientPhaseConfig and
// compute_transition_time, schemas/accumulator.py update_estimate and
// get_within_range, schemas/metrics.py GenerativeMetrics.compile). Read
// there, restated for a run of duration D (first request start t0 to
// last completion t1):
//
//   - measure_start = t0 + warmup·D when a warmup fraction is set, else
//     t0 (the first request's start);
//   - measure_end = t0 + D − cooldown·D when a cooldown fraction is set,
//     else t1 (request_end);
//   - the metrics count every request that overlaps the window: ended at
//     or after measure_start and started at or before measure_end.
//
// The fractions are GuideLLM's duration mode (percent × the run's
// duration). Its defaults set neither, so the guidellm preset measures
// every request: the whole run, with GuideLLM's overlap rule.
func guidellmWindow(reqs []peerRequest, warmup, cooldown float64) peerTimeWindow {
	if len(reqs) == 0 {
		return peerTimeWindow{reason: "no successful request"}
	}
	t0, t1 := reqs[0].start, reqs[0].end
	for i := range reqs {
		t0, t1 = min(t0, reqs[i].start), max(t1, reqs[i].end)
	}
	d := float64(t1 - t0)
	ms, me := t0, t1
	if warmup > 0 {
		ms = t0 + int64(warmup*d)
	}
	if cooldown > 0 {
		me = t0 + int64(d-cooldown*d)
	}
	if ms >= me {
		return peerTimeWindow{reason: "warmup and cooldown cover the whole run"}
	}
	w := peerTimeWindow{ok: true, start: ms, end: me}
	w.member = func(r *peerRequest) bool { return r.end >= ms && r.start <= me }
	return w
}
