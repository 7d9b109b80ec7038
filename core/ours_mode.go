package core

import "math"

// ModeReport says how the run's load mode was windowed (design §5.3,
// §5.6): concurrency and Poisson by issue-time super-pass windows
// ("issue_time_window"), offline/max-throughput and saturated Poisson by
// the token-rate trend over time ("tps_trend"), agentic not at all
// ("not_supported").
type ModeReport struct {
	// Name is the workload profile: concurrency, poisson, offline, agentic
	// or unknown.
	Name   string
	Method string
	// OfferedQPS and CompletionQPS are a Poisson run's issue and completion
	// rates over the second half of its issuance period (NaN otherwise);
	// Backlog reports CompletionQPS < backlogRatio·OfferedQPS.
	OfferedQPS, CompletionQPS float64
	Backlog                   bool
}

// backlogRatio is how far the completion rate may fall below the offered
// rate before a Poisson run counts as saturated.
const backlogRatio = 0.95

// detectBacklog measures a Poisson run's offered and completion rates over
// the second half [t_mid, t_last] of its issuance period [t_first,
// t_last]: offered = issues in it / its length, completion = completions
// in it / its length. A backlog (the server falls behind the arrivals, a
// near-saturation queue) switches the run to the token-rate method of
// offline runs.
func detectBacklog(r *Result, o *Ours, s *Samples, info RunInfo, p Params) {
	o.Mode.OfferedQPS, o.Mode.CompletionQPS = math.NaN(), math.NaN()
	if s == nil || s.Len() < 2 {
		return
	}
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for _, t := range s.IssueNs {
		first, last = min(first, t), max(last, t)
	}
	if last <= first {
		return
	}
	mid := first + (last-first)/2
	secs := float64(last-mid) / 1e9
	issued, done := 0, 0
	for i := range s.Len() {
		if t := s.IssueNs[i]; t >= mid && t <= last {
			issued++
		}
		if at(s.HasComplete, i, false) {
			if c := at(s.CompleteNs, i, 0); c >= mid && c <= last {
				done++
			}
		}
	}
	o.Mode.OfferedQPS = float64(issued) / secs
	o.Mode.CompletionQPS = float64(done) / secs
	o.Mode.Backlog = o.Mode.CompletionQPS < backlogRatio*o.Mode.OfferedQPS
	if o.Mode.Backlog {
		applyOffline(r, o, s, p)
	}
}
