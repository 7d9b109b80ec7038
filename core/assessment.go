package core

import (
	"fmt"
	"math"
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
	// WinLo and WinHi bound the reported window [WinLo, WinHi) (absolute);
	// −1 when there is none.
	WinLo, WinHi int
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
}

// finish of the reference: its result is complete after select.
func (reference) finish(*analysis) {}

// finish of steadysweep: the assessment of the window path, or of the
// agentic path (not supported: whole-run totals only).
func (steadysweep) finish(a *analysis) {
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
	whole := a.run.wholeStats(a.run.rollup(max(S, 1)))
	t := whole.totals
	as.Total = &t
	as.EarlyStop = EarlyStopping{Total: whole.es.clone()}
	as.Gap = gapOf(as.Total, nil)
	as.Gap.TooShortToWindow = true
	as.Submission = noWindowSubmission(as.NFull, S)
}

// assessWindow completes the assessment of a window-path result, step by
// step: totals, the tail cut, the load mode, the status, the reason, the
// gap and the submission block.
func (a *analysis) assessWindow() {
	as := a.assess
	as.NFull = a.roll.nFull
	as.Mode.Method = "issue_time_window"
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
	if an := a.res.Steady.Anomaly; an.Detected {
		as.Reason = joinReason(as.Reason, fmt.Sprintf("level shift of %+.1f%% TPOT at super-pass %d",
			an.DeltaPct, a.res.Warmup+an.ChangePointSP))
	}
	if as.Partial {
		as.Reason = joinReason(as.Reason, partialReason(a.run.info))
	}
	as.Gap = gapOf(as.Total, as.Steady)
	as.Gap.TooShortToWindow = as.Status == StatusInsufficientPasses || as.Status == StatusPartialDataset ||
		as.Status == StatusInsufficientDuration
	as.Submission = a.submission()
}

// assessTotals sets the whole-run and window totals and early-stopping
// estimates, and applies the guarded tail cut to the window's TPOT.
func (a *analysis) assessTotals() {
	as := a.assess
	whole := a.run.wholeStats(a.roll)
	t := whole.totals
	as.Total = &t
	as.EarlyStop.Total = whole.es.clone()
	if as.WinLo < 0 {
		as.TailCut = TailCut{Reason: "no window", CoV: math.NaN(), Skew: math.NaN()}
		return
	}
	win := a.run.windowStatsOf(a.roll, as.WinLo, as.WinHi)
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
