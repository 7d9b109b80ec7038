package core

import (
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// SteadyState is the headline block (detector spec §10): the reported
// plateau with its summaries, throughput, min-duration record, level
// shift and tail trend. Window, TTFT, TPOT, TPS and ShortWindow are nil
// when no plateau exists; in the all-short case they are filled while
// Found is false (§10.4). Indices are post-warmup relative.
type SteadyState struct {
	Found bool
	// Reason explains a non-found result ("" = JSON null).
	Reason      string
	Window      *WindowInfo
	TTFT, TPOT  *stats.Summary
	TPS         *TPS
	Anomaly     Anomaly
	ShortWindow *ShortWindow
	// GlobalTrend is the gate's verdict for ttft_p50, ttft_p90, tpot_p50,
	// tpot_p90 over post[plateau start:].
	GlobalTrend [4]stats.Verdict
	// DriftingUp lists the watched keys whose GlobalTrend is up.
	DriftingUp []string

	// Plateaus and Shorts are every plateau and its gate record; AllShort
	// reports the enforced gate rejecting all of them.
	Plateaus []Plateau
	Shorts   []ShortWindow
	AllShort bool
}

// setGlobalTrend sets the tail trend of the window starting at from
// (post-relative) and the watched metrics drifting up.
func (ss *SteadyState) setGlobalTrend(pct []*spPercentiles, from int, p Params, v *memoView) {
	ss.GlobalTrend = globalTrend(pct, from, p.TrendGate, p.MinTrendN, p.Alpha, v)
	ss.DriftingUp = driftingUp(ss.GlobalTrend)
}

// driftingUp lists the watched metric keys whose verdict is up.
func driftingUp(gt [4]stats.Verdict) []string {
	out := []string{}
	ms := Metrics()
	for i, m := range watchedMetrics() {
		if gt[i] == stats.VerdictUp {
			out = append(out, ms[m].Key)
		}
	}
	return slices.Clip(out)
}

// cloneSummary is a copy of s sharing nothing with it (nil for nil).
func cloneSummary(s *stats.Summary) *stats.Summary {
	if s == nil {
		return nil
	}
	c := *s
	c.Histogram = slices.Clone(s.Histogram)
	return &c
}
