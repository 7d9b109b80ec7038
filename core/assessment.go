package core

import (
	"fmt"
	"math"
	"slices"
)

// Assessment is what steadysweep reports beyond the reference
// (Params.Compat steadysweep; nil under the reference): the coverage
// status and verdict, the submission block, whole-run totals and the
// total-vs-steady gap, early-stopping estimates, the guarded drain-tail
// cut, the load-mode handling and the selection guardrails. Super-pass
// indices are absolute (0-based in the run's own super-pass sequence,
// warmup included); the level shift is Result.Steady.Anomaly.
type Assessment struct {
	// Mode is how the load mode was windowed.
	Mode ModeReport
	// Status is the coverage status.
	Status Status
	// Partial reports a truncated or interrupted log (RunInfo.Partial).
	Partial bool
	// Reason explains Status and Verdict in words ("" when windowable and steady).
	Reason string
	// Verdict is the outcome.
	Verdict Verdict
	// Window is the reported window, absolute super-passes [Lo, Hi)
	// (NoSPRange when there is none).
	Window SPRange
	// NFull is the number of full super-passes of the run.
	NFull int
	// Selection holds the per-metric states and the guardrails.
	Selection Selection
	// Submission is the point.yaml steady_state block.
	Submission Submission
	// Total is the whole tracked run; Steady the reported window (nil
	// without a window).
	Total, Steady *Totals
	Gap           Gap
	TailCut       TailCut
	EarlyStop     EarlyStopping
	// Offline is the completion-rate plateau (offline runs and saturated
	// Poisson runs); nil otherwise.
	Offline *OfflineWindow
	// Baseline names the peer-baseline method that chose the window (""
	// for the steady detector).
	Baseline Method
	// Failures counts the failed requests, over the run and the window.
	Failures Failures
	// Timing reports the samples with impossible timing (all excluded).
	Timing TimingReport
	// Certification is each reported metric family's own certification
	// (certify.go); nil for whole-run-only and agentic results.
	Certification *Certification
}

// finish of the reference: its result is complete after select.
func (reference) finish(*analysis) {}

// finish of steadysweep: the assessment of the window path, or of the
// agentic path (not supported: whole-run totals only).
func (steadysweep) finish(a *analysis) {
	as, h := a.assess, a.run.health()
	as.Failures = a.run.Failures()
	as.Timing = h.timing
	as.Timing.Kinds = slices.Clone(h.timing.Kinds)
	if a.res.Path == PathNATL {
		a.assessAgentic()
	} else {
		a.assessWindow()
	}
	a.res.Assessment = a.assess
}

// assessAgentic fills the assessment of an agentic run: status
// not_supported, whole-run totals and early stopping over super-passes of
// the dataset size, and a non-windowable submission.
func (a *analysis) assessAgentic() {
	as := a.assess
	S := a.p.SuperpassSize
	if S == 0 {
		S = a.run.info.DatasetSize
	}
	if S > 0 {
		as.NFull = a.run.Len() / S
	}
	as.Mode.Method = "not_supported"
	as.Status = StatusNotSupported
	as.Verdict = VerdictNotFound
	as.Reason = "agentic multi-turn steady state is not supported; whole-run totals only"
	if as.Partial {
		as.Reason += "; " + partialReason(a.run.info)
	}
	whole := a.run.wholeStats(a.run.cleanRollup(max(S, 1)))
	t := whole.totals
	as.Total = &t
	as.EarlyStop = EarlyStopping{Total: whole.es.clone()}
	as.Gap = gapOf(as.Total, nil)
	as.Gap.TooShortToWindow = true
	as.Submission = noWindowSubmission(as.NFull, S, shortStatus(a.run.info))
}

// assessWindow completes the assessment of a window-path result, step by
// step: the log's health (failures, impossible timing), totals, the tail
// cut, the load mode, the status, the throughput, the reason, the gap and
// the submission block. A run that cannot be windowed or assessed gets
// whole-run numbers only (assessWholeRun).
func (a *analysis) assessWindow() {
	as := a.assess
	as.NFull = a.roll.nFull
	as.Mode.Method = "issue_time_window"
	if status, reason := a.wholeRunOnly(); status != "" {
		a.assessWholeRun(status, reason)
		return
	}
	a.assessTotals()
	switch as.Mode.Name {
	case "offline":
		a.windowOffline()
	case "poisson":
		a.detectBacklog()
	}
	if as.Offline == nil {
		as.Status, as.Verdict, as.Reason = windowStatus(a.res, as, a.p)
	}
	a.settleThroughput()
	if !as.Timing.Trusted {
		as.Status, as.Verdict = StatusInvalidTiming, VerdictNotFound
		a.res.Steady.Found = false
		as.Reason = joinReason(fmt.Sprintf("%.1f%% of the samples have impossible timing (more than %g%%): "+
			"the log's timestamps cannot be trusted, nothing is certified", 100*as.Timing.Frac, 100*timingMaxFrac), as.Reason)
	}
	if an := a.res.Steady.Anomaly; an.Detected {
		as.Reason = joinReason(as.Reason, fmt.Sprintf("level shift of %+.1f%% TPOT at super-pass %d",
			an.DeltaPct, a.res.Warmup+an.ChangePointSP))
	}
	if as.Partial {
		as.Reason = joinReason(as.Reason, partialReason(a.run.info))
	}
	a.certify()
	as.Gap = gapOf(as.Total, as.Steady)
	if as.Selection.Burst && as.Offline == nil {
		as.Gap = gapOf(nil, nil)
		as.Gap.Reason = "issue burst: no steady window to compare with the run"
	}
	as.Gap.TooShortToWindow = as.Status == StatusInsufficientPasses || as.Status == StatusPartialDataset ||
		as.Status == StatusInsufficientDuration
	if w := as.Window; w.Ok() {
		as.Failures.Window = windowFailures(a.res.series[w.Lo:w.Hi])
	}
	as.Submission = a.submission()
}

// wholeRunOnly says whether the run can be windowed and assessed at all:
// not without per-request start times (RunInfo.NoTimelineReason), nor
// without any first token among its successful completions (a
// non-streaming run has no TTFT and no TPOT, the metrics steadiness is
// judged by). It returns the status and reason, or "" to go on.
func (a *analysis) wholeRunOnly() (Status, string) {
	if r := a.run.info.NoTimelineReason; r != "" {
		return StatusNoTimeline, r
	}
	completed, first := 0, 0
	for i := range a.roll.sps {
		completed += a.roll.sps[i].NCompleted
		first += len(a.roll.sps[i].TTFT)
	}
	if completed > 0 && first == 0 {
		return StatusNonStreaming, "no first-token events (a non-streaming run): TTFT and TPOT cannot be measured, " +
			"so steadiness cannot be assessed; whole-run latency, request rate and throughput only"
	}
	return "", ""
}

// assessWholeRun fills the assessment of a run reported over its whole
// span only: status and reason, the whole-run totals and early stopping,
// no window, no steady numbers, a non-windowable submission. Without a
// timeline the whole run has no duration either, so no rate.
func (a *analysis) assessWholeRun(status Status, reason string) {
	as := a.assess
	as.Mode.Method = "whole_run"
	as.Status, as.Verdict, as.Reason = status, VerdictNotFound, reason
	if as.Partial {
		as.Reason = joinReason(as.Reason, partialReason(a.run.info))
	}
	whole := a.run.wholeStats(a.roll)
	t := whole.totals
	if status == StatusNoTimeline {
		t.DurationS, t.TPSSystem, t.RequestsPerS = math.NaN(), math.NaN(), math.NaN()
	}
	as.Total = &t
	as.EarlyStop = EarlyStopping{Total: whole.es.clone()}
	as.Window = NoSPRange
	as.TailCut = TailCut{Reason: "no window", CoV: math.NaN(), Skew: math.NaN()}
	ss := &a.res.Steady
	ss.Found, ss.Reason = false, reason
	ss.Window, ss.TTFT, ss.TPOT, ss.TPS, ss.ShortWindow = nil, nil, nil, nil, nil
	as.Gap = gapOf(as.Total, nil)
	as.Gap.Reason = "no window"
	as.Submission = noWindowSubmission(as.NFull, a.res.SuperpassSize, shortStatus(a.run.info))
}

// settleThroughput makes the reported throughput one computation: an
// offline run's is its token-rate plateau's, a burst window has none, and
// the steady totals carry the TPS block's values.
func (a *analysis) settleThroughput() {
	as, ss := a.assess, &a.res.Steady
	switch {
	case as.Offline != nil:
		ss.TPS = nil
		if as.Steady != nil {
			t := a.run.offlineStatsOf().tps
			ss.TPS = &t
		}
	case as.Selection.Burst && ss.TPS != nil:
		t := burstTPS()
		ss.TPS = &t
	}
	if as.Steady != nil && ss.TPS != nil {
		as.Steady.TPSSystem, as.Steady.TPSPerUser = ss.TPS.System, ss.TPS.PerUser
	}
}

// assessTotals sets the whole-run and window totals and early-stopping
// estimates, and applies the guarded tail cut to the window's TPOT.
func (a *analysis) assessTotals() {
	as := a.assess
	whole := a.run.wholeStats(a.roll)
	t := whole.totals
	as.Total = &t
	as.EarlyStop.Total = whole.es.clone()
	if !as.Window.Ok() {
		as.TailCut = TailCut{Reason: "no window", CoV: math.NaN(), Skew: math.NaN()}
		return
	}
	win := a.run.windowStatsOf(a.roll, as.Window)
	st := win.totals
	as.Steady = &st
	es := win.es.clone()
	as.EarlyStop.Steady = &es
	as.TailCut = a.tailCut()
	if as.TailCut.Applied && as.TailCut.tpot != nil {
		a.res.Steady.TPOT = cloneSummary(as.TailCut.tpot)
		as.Steady.TPOT = quantiles3(*as.TailCut.tpot)
	}
}
