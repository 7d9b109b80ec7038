package core

import "fmt"

// Status is the coverage status of a run (design §5.6): whether it can be
// windowed at all, and if not, why.
type Status string

// Coverage statuses plus the outcomes of a run.
const (
	StatusWindowable           Status = "windowable"
	StatusInsufficientPasses   Status = "insufficient_passes"
	StatusPartialDataset       Status = "partial_dataset"
	StatusInsufficientDuration Status = "insufficient_duration"
	StatusNotSupported         Status = "not_supported"
	// StatusNonStreaming: no first-token events, so TTFT and TPOT cannot
	// be measured and steadiness cannot be assessed (whole-run numbers
	// only).
	StatusNonStreaming Status = "non_streaming"
	// StatusNoTimeline: the log records no per-request start times, so
	// the run cannot be windowed (whole-run numbers only).
	StatusNoTimeline Status = "no_timeline"
	// StatusInvalidTiming: more than a small fraction of the samples have
	// impossible timing (timing.go); nothing is certified.
	StatusInvalidTiming Status = "invalid_timing"
	// StatusError marks a run that could not be analysed (a sweep row;
	// the detector never returns it).
	StatusError Status = "error"
)

// Statuses returns the statuses in documentation order.
func Statuses() []Status {
	return []Status{StatusWindowable, StatusInsufficientPasses, StatusPartialDataset, StatusInsufficientDuration,
		StatusNotSupported, StatusNonStreaming, StatusNoTimeline, StatusInvalidTiming, StatusError}
}

func (s Status) String() string { return string(s) }

// Valid reports whether s is one of Statuses.
func (s Status) Valid() bool { _, err := ParseStatus(string(s)); return err == nil }

// ParseStatus returns the Status spelled s.
func ParseStatus(s string) (Status, error) { return parseEnum("status", s, Statuses()) }

// Verdict is what the analysis concludes about the steady state (the
// submission block's and the rows' verdict).
type Verdict string

// The verdicts.
const (
	VerdictSteadyState  Verdict = "STEADY STATE"
	VerdictDriftingUp   Verdict = "drifting_up"
	VerdictDriftingDown Verdict = "drifting_down"
	VerdictAnomaly      Verdict = "anomaly"
	VerdictNotFound     Verdict = "not found"
	// VerdictSteadyTPOTTTFTDrifting: the TPOT window is certified, TTFT
	// (and maybe other families) rises or falls (certify.go).
	VerdictSteadyTPOTTTFTDrifting Verdict = "steady_tpot_ttft_drifting"
	// VerdictSteadyTPOTMetricsDrifting: the TPOT window is certified, a
	// family other than TTFT (latency, a throughput) rises or falls.
	VerdictSteadyTPOTMetricsDrifting Verdict = "steady_tpot_metrics_drifting"
)

// Verdicts returns the verdicts in documentation order.
func Verdicts() []Verdict {
	return []Verdict{VerdictSteadyState, VerdictDriftingUp, VerdictDriftingDown, VerdictAnomaly, VerdictNotFound,
		VerdictSteadyTPOTTTFTDrifting, VerdictSteadyTPOTMetricsDrifting}
}

func (v Verdict) String() string { return string(v) }

// Valid reports whether v is one of Verdicts.
func (v Verdict) Valid() bool { _, err := ParseVerdict(string(v)); return err == nil }

// ParseVerdict returns the Verdict spelled s.
func ParseVerdict(s string) (Verdict, error) { return parseEnum("verdict", s, Verdicts()) }

// windowStatus classifies a steadysweep window-path result (design §5.6
// plus outcome):
//
//	partial_dataset        no full super-pass (of a dataset pass)
//	insufficient_passes    no full super-pass of a log without a dataset
//	                       pass; fewer than warmup + MinTrendN full super-passes,
//	                       or no admissible window at all
//	insufficient_duration  admissible plateaus exist but all are shorter
//	                       than the minimum duration (or the window is a burst)
//	windowable             otherwise (the verdict says steady, drift or
//	                       anomaly)
func windowStatus(r *Result, as *Assessment, p Params) (status Status, verdict Verdict, reason string) {
	ss := &r.Steady
	switch {
	case as.NFull == 0:
		status = shortStatus(r.RunInfo())
		reason = shortReason(r)
	case as.NFull < r.Warmup+p.MinTrendN:
		status = StatusInsufficientPasses
		reason = fmt.Sprintf("%d full super-pass(es), warmup %d: fewer than %d post-warmup super-passes",
			as.NFull, r.Warmup, p.MinTrendN)
	case ss.AllShort || as.Selection.Burst:
		status = StatusInsufficientDuration
		reason = ss.Reason
	case !as.Window.Ok():
		status = StatusInsufficientPasses
		reason = ss.Reason
	default:
		status = StatusWindowable
		reason = ss.Reason
	}
	verdict = verdictOf(r.Steady.Anomaly.Detected, as.Selection.GatingStates(), status == StatusWindowable && ss.Found)
	return status, verdict, reason
}

// verdictOf orders the outcomes: a confirmed level shift, then a drifting
// gating metric, then a certified steady state.
func verdictOf(anomaly bool, gating [2]MetricState, certified bool) Verdict {
	switch {
	case anomaly:
		return VerdictAnomaly
	case gating[0] == StateDriftingUp || gating[1] == StateDriftingUp:
		return VerdictDriftingUp
	case gating[0] == StateDriftingDown || gating[1] == StateDriftingDown:
		return VerdictDriftingDown
	case certified:
		return VerdictSteadyState
	}
	return VerdictNotFound
}

// referenceStatus is the coverage status of a reference-compat result, so
// every sweep row carries one whatever its compat: the reference itself
// has no status (detector spec §11.1), so it is derived from what the
// reference decided.
//
//	not_supported          the agentic NATL path
//	partial_dataset        fewer samples than one super-pass
//	windowable             a plateau was found
//	insufficient_duration  plateaus exist but the min-duration gate rejected all
//	insufficient_passes    no admissible plateau
func referenceStatus(r *Result) Status {
	switch {
	case r.Path == PathNATL:
		return StatusNotSupported
	case lessThanOnePass(r):
		return shortStatus(r.RunInfo())
	case r.Steady.Found:
		return StatusWindowable
	case r.Steady.AllShort:
		return StatusInsufficientDuration
	default:
		return StatusInsufficientPasses
	}
}

// lessThanOnePass reports a reference-compat series without one full
// super-pass.
func lessThanOnePass(r *Result) bool {
	return len(r.series) == 0 || (len(r.series) == 1 && r.SuperpassSize > 0 && r.series[0].NIssued < r.SuperpassSize)
}

// shortStatus is the status of a run without one full super-pass:
// partial_dataset when its super-pass is a dataset pass (the dataset was
// not covered once), insufficient_passes for a log without a dataset pass
// (RunInfo.HasDatasetPass), whose run is merely too short.
func shortStatus(info RunInfo) Status {
	if info.HasDatasetPass() {
		return StatusPartialDataset
	}
	return StatusInsufficientPasses
}

// shortReason is the reason of a run without one full super-pass.
func shortReason(r *Result) string {
	reason := fmt.Sprintf("less than one full super-pass (%d of %d samples)", countIssued(r.series), r.SuperpassSize)
	if info := r.RunInfo(); !info.HasDatasetPass() {
		reason += "; " + info.SourceFormat + " logs have no dataset pass: the run is shorter than one super-pass"
	}
	return reason
}

func partialReason(info RunInfo) string {
	if info.PartialReason != "" {
		return "partial log: " + info.PartialReason
	}
	return "partial log (truncated or interrupted run)"
}

func joinReason(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
