package core

import "math"

// PeerWindow is the measurement window the recording tool chose for
// itself — GuideLLM ≥ 0.5's scheduler_metrics.measure_start_time /
// measure_end_time, its warmup and cooldown trimmed — kept beside ours so
// the two verdicts can be compared. Times are on the run's clock, ns.
type PeerWindow struct {
	// Source names the tool and the fields the window came from.
	Source         string
	StartNs, EndNs int64
}

// PeerComparison is a peer window beside the reported window of one
// analysis: ours spans the window's first issue to its last event (the
// same bounds the JSON's window reports), and the differences are ours −
// theirs in seconds, positive when our bound is later.
type PeerComparison struct {
	Peer PeerWindow
	// HasOurs reports a window of ours (an assessed result with a
	// reported window); without one the Ours* fields are 0 and the
	// differences NaN.
	HasOurs                bool
	OursStartNs, OursEndNs int64
	StartDiffS, EndDiffS   float64
}

// PeerComparison returns the recording tool's window beside ours, ok
// false when the log records none. Ours is the assessment's window
// [WinLo, WinHi) of super-passes: its first issue
// (series[WinLo].FirstIssueNs) to its last event
// (series[WinHi−1].LastEventNs); the reference compat reports no
// assessment, hence no window to compare.
func (r *Result) PeerComparison() (PeerComparison, bool) {
	info := r.RunInfo()
	if info.PeerWindow == nil {
		return PeerComparison{}, false
	}
	c := PeerComparison{Peer: *info.PeerWindow, StartDiffS: math.NaN(), EndDiffS: math.NaN()}
	if as := r.Assessment; as != nil && as.Window.Ok() && as.Window.Len() > 0 && int(as.Window.Hi) <= len(r.series) {
		c.HasOurs = true
		c.OursStartNs, c.OursEndNs = r.series[as.Window.Lo].FirstIssueNs, r.series[as.Window.Last()].LastEventNs
		c.StartDiffS = float64(c.OursStartNs-c.Peer.StartNs) / 1e9
		c.EndDiffS = float64(c.OursEndNs-c.Peer.EndNs) / 1e9
	}
	return c, true
}

// DurationS is the peer window's length in seconds.
func (w PeerWindow) DurationS() float64 { return float64(w.EndNs-w.StartNs) / 1e9 }
