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

// arrivalRates are a run's offered and completion rates over the second
// half of its issuance period (NaN when undefined): parameter-independent,
// memoised on the run.
type arrivalRates struct{ offered, completion float64 }

// arrivalRatesOf measures the rates over the second half [t_mid, t_last]
// of the issuance period [t_first, t_last]: offered = issues in it / its
// length, completion = completions in it / its length.
func (run *Run) arrivalRatesOf() arrivalRates {
	if m := run.perSample.arrivals; m != nil {
		return *m
	}
	ar := arrivalRates{math.NaN(), math.NaN()}
	defer func() { run.perSample.arrivals = &ar }()
	s := run.samples
	if s.Len() < 2 {
		return ar
	}
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for _, t := range s.IssueNs {
		first, last = min(first, t), max(last, t)
	}
	if last <= first {
		return ar
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
	ar = arrivalRates{float64(issued) / secs, float64(done) / secs}
	return ar
}

// detectBacklog reports a Poisson run's rates; a backlog (the server falls
// behind the arrivals, a near-saturation queue) switches the run to the
// token-rate method of offline runs.
func (a *analysis) detectBacklog() {
	md := &a.assess.Mode
	ar := a.run.arrivalRatesOf()
	md.OfferedQPS, md.CompletionQPS = ar.offered, ar.completion
	if math.IsNaN(ar.offered) {
		return
	}
	md.Backlog = md.CompletionQPS < backlogRatio*md.OfferedQPS
	if md.Backlog {
		a.windowOffline()
	}
}
