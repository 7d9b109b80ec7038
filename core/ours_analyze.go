package core

import (
	"fmt"
	"math"
)

// Ours is steadysweep's analysis beyond the reference (Params.Compat
// "steadysweep"; nil under "reference"): the coverage status and outcome,
// the submission block, whole-run totals and the total-vs-steady gap,
// early-stopping estimates, the guarded drain-tail cut, the load-mode
// handling and the selection guardrails. Super-pass indices in Ours are
// absolute (0-based in the run's own super-pass sequence, warmup included).
type Ours struct {
	// Mode is how the load mode was windowed.
	Mode ModeReport
	// Status is the coverage status and outcome (Status* constants).
	Status string
	// Partial reports a truncated or interrupted log (RunInfo.Partial).
	Partial bool
	// Reason explains Status and Verdict in words ("" when windowable and steady).
	Reason string
	// Verdict is one of the Verdict* words of the submission block.
	Verdict string
	// WinLo and WinHi bound the reported window [WinLo, WinHi) (absolute);
	// −1 when there is none.
	WinLo, WinHi int
	// NFull is the number of full super-passes of the run.
	NFull int
	// Selection holds the per-metric states and the guardrails.
	Selection Selection
	// Anomaly is the confirmed level shift in absolute numbering.
	Anomaly OursAnomaly
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
	// Baseline names the peer-baseline method that chose the window ("" for
	// the steady detector).
	Baseline string
}

// Coverage statuses (design §5.6) plus the outcomes of a run.
const (
	StatusWindowable           = "windowable"
	StatusInsufficientPasses   = "insufficient_passes"
	StatusPartialDataset       = "partial_dataset"
	StatusInsufficientDuration = "insufficient_duration"
	StatusNotSupported         = "not_supported"
	StatusError                = "error"
)

// Verdicts of the submission block and the sweep rows.
const (
	VerdictSteadyState  = "STEADY STATE"
	VerdictDriftingUp   = "drifting_up"
	VerdictDriftingDown = "drifting_down"
	VerdictAnomaly      = "anomaly"
	VerdictNotFound     = "not found"
)

// States of a tracked metric over a window (design §5.5).
const (
	StatePlateau      = "Plateau"
	StateDriftingUp   = "Drifting Up"
	StateDriftingDown = "Drifting Down"
)

// analyzeOurs is the compat "steadysweep" analysis: the reference pipeline
// run with our fixes (full super-passes only, our warmup, our selection),
// then everything the reference lacks. s may be nil (rollups only: no tail
// cut, no offline time buckets); sps nil means Rollup(s, S).
func analyzeOurs(s *Samples, sps []SuperPass, info RunInfo, p Params) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid parameters: %w", err)
	}
	ref := p
	ref.Compat, ref.Method = "reference", "steady"
	prof := resolveProfile(info, p)
	o := &Ours{Partial: info.Partial, WinLo: -1, WinHi: -1}
	o.Mode.Name = prof.Name

	if s != nil && prof.Path == "natl" {
		r, err := Analyze(s, info, ref)
		if err != nil {
			return nil, err
		}
		r.Params = p
		S := p.SuperpassSize
		if S == 0 {
			S = info.DatasetSize
		}
		if S > 0 {
			o.NFull = s.Len() / S
		}
		all := Rollup(s, max(S, 1))
		finishUnsupported(r, o, all, S, info)
		return r, nil
	}

	S, err := superpassSize(info, p)
	if err != nil {
		return nil, err
	}
	if sps == nil {
		sps = Rollup(s, S)
	}
	o.NFull = fullSuperPasses(sps, S)
	series := sps
	if o.NFull >= 1 && o.NFull < len(sps) {
		series = sps[:o.NFull] // design §5.6: window the full super-passes only
	}

	if prof.Name == "agentic" {
		r, err := AnalyzeRollups(series, info, ref)
		if err != nil {
			return nil, err
		}
		r.Params = p
		finishUnsupported(r, o, sps, S, info)
		return r, nil
	}

	w := 0
	if p.WarmupMode == "fixed" {
		w = p.WarmupFixed
	} else if p.Method == "steady" {
		driver := metricIndex(p.WarmupDriver)
		if driver < 0 {
			driver = metricIndex(prof.WarmupDriver)
		}
		w = oursWarmup(percentileTable(series), driver, p)
	}
	ref.WarmupMode, ref.WarmupFixed = "fixed", w
	r, err := AnalyzeRollups(series, info, ref)
	if err != nil {
		return nil, err
	}
	r.Params = p
	r.WarmupMode = p.WarmupMode
	r.Ours = o

	if p.Method != "steady" {
		applyBaseline(r, s, p)
	} else {
		applyOurs(r, s, p)
	}
	finishOurs(r, o, s, sps, info, p)
	return r, nil
}

// applyOurs replaces the reference's steady-state selection of r with
// ours (selection.go): ensemble admissibility, drift-vs-staircase,
// anomaly against the first plateau, per-metric states, guardrails.
func applyOurs(r *Result, s *Samples, p Params) {
	sel := selectSteady(r.post, r.pct, p, r.CovBounds)
	if sel.report.MSERStart >= 0 {
		sel.report.MSERStart += r.Warmup
	}
	if d := sel.report.Drift; d != nil {
		d.Lo, d.Hi = d.Lo+r.Warmup, d.Hi+r.Warmup
	}
	r.Steady = sel.steady
	o := r.Ours
	o.Selection = sel.report
	if sel.hasWindow {
		o.WinLo, o.WinHi = r.Warmup+sel.lo, r.Warmup+sel.hi
	}
	o.Anomaly = sel.anomaly
	if o.Anomaly.Detected {
		o.Anomaly.ChangePointSP += r.Warmup
		for i := range o.Anomaly.Plateaus {
			o.Anomaly.Plateaus[i][0] += r.Warmup
			o.Anomaly.Plateaus[i][1] += r.Warmup
		}
	}
}

// fullSuperPasses is the number of super-passes holding S samples (all
// but possibly the last).
func fullSuperPasses(sps []SuperPass, S int) int {
	n := 0
	for i := range sps {
		if sps[i].NIssued >= S {
			n++
		}
	}
	return n
}

// finishUnsupported fills Ours for an agentic run: status not_supported,
// whole-run totals and early stopping, and a non-windowable submission.
func finishUnsupported(r *Result, o *Ours, sps []SuperPass, S int, info RunInfo) {
	o.Mode.Method = "not_supported"
	o.Status = StatusNotSupported
	o.Verdict = VerdictNotFound
	o.Reason = "agentic multi-turn steady state is not supported; whole-run totals only"
	if o.Partial {
		o.Reason += "; " + partialReason(info)
	}
	whole := spanStatsOf(sps, true)
	t := whole.totals
	o.Total = &t
	o.EarlyStop = EarlyStopping{Total: whole.es}
	o.Gap = gapOf(o.Total, nil)
	o.Gap.TooShortToWindow = true
	o.Submission = noWindowSubmission(o.NFull, S)
	r.Ours = o
	r.Extra = o.json()
}

// finishOurs computes coverage status, verdict, totals, gap, early
// stopping, tail cut, mode handling and the submission block of a
// window-path result, and sets r.Extra.
func finishOurs(r *Result, o *Ours, s *Samples, sps []SuperPass, info RunInfo, p Params) {
	o.Mode.Method = "issue_time_window"
	whole := spanStatsOf(sps, true)
	t := whole.totals
	o.Total = &t
	o.EarlyStop.Total = whole.es
	if o.WinLo >= 0 {
		win := spanStatsOf(r.all[o.WinLo:o.WinHi], false)
		st := win.totals
		o.Steady = &st
		es := win.es
		o.EarlyStop.Steady = &es
		o.TailCut = tailCutOf(r, s, p)
		if o.TailCut.Applied && o.TailCut.tpot != nil {
			r.Steady.TPOT = o.TailCut.tpot
			o.Steady.TPOT = quantiles3(*o.TailCut.tpot)
		}
	} else {
		o.TailCut = TailCut{Reason: "no window", CoV: math.NaN(), Skew: math.NaN()}
	}

	switch o.Mode.Name {
	case "offline":
		applyOffline(r, o, s, p)
	case "poisson":
		detectBacklog(r, o, s, info, p)
	}
	if o.Offline == nil {
		o.Status, o.Verdict, o.Reason = statusOf(r, o, p)
	}
	if o.Anomaly.Detected {
		o.Reason = joinReason(o.Reason, fmt.Sprintf("level shift of %+.1f%% TPOT at super-pass %d",
			o.Anomaly.DeltaPct, o.Anomaly.ChangePointSP))
	}
	if o.Partial {
		o.Reason = joinReason(o.Reason, partialReason(info))
	}
	o.Gap = gapOf(o.Total, o.Steady)
	o.Gap.TooShortToWindow = o.Status == StatusInsufficientPasses || o.Status == StatusPartialDataset ||
		o.Status == StatusInsufficientDuration
	o.Submission = submissionOf(r, o, info, p)
	r.Extra = o.json()
}

// statusOf classifies a window-path result (design §5.6 plus outcome):
//
//	partial_dataset        no full super-pass
//	insufficient_passes    fewer than warmup + MinTrendN full super-passes,
//	                       or no admissible window at all
//	insufficient_duration  admissible plateaus exist but all are shorter
//	                       than the minimum duration
//	windowable             otherwise (the verdict says steady, drift or
//	                       anomaly)
func statusOf(r *Result, o *Ours, p Params) (status, verdict, reason string) {
	ss := &r.Steady
	switch {
	case o.NFull == 0:
		status = StatusPartialDataset
		reason = fmt.Sprintf("less than one full super-pass (%d of %d samples)", countIssued(r.all), r.SuperpassSize)
	case o.NFull < r.Warmup+p.MinTrendN:
		status = StatusInsufficientPasses
		reason = fmt.Sprintf("%d full super-pass(es), warmup %d: fewer than %d post-warmup super-passes",
			o.NFull, r.Warmup, p.MinTrendN)
	case ss.AllShort || o.Selection.Burst:
		status = StatusInsufficientDuration
		reason = ss.Reason
	case o.WinLo < 0:
		status = StatusInsufficientPasses
		reason = ss.Reason
	default:
		status = StatusWindowable
		reason = ss.Reason
	}
	verdict = verdictOf(o, status == StatusWindowable && ss.Found)
	return status, verdict, reason
}

// verdictOf orders the outcomes: a confirmed level shift, then a drifting
// gating metric of the reported window, then a certified steady state.
func verdictOf(o *Ours, certified bool) string {
	st := o.Selection.GatingStates()
	switch {
	case o.Anomaly.Detected:
		return VerdictAnomaly
	case st[0] == StateDriftingUp || st[1] == StateDriftingUp:
		return VerdictDriftingUp
	case st[0] == StateDriftingDown || st[1] == StateDriftingDown:
		return VerdictDriftingDown
	case certified:
		return VerdictSteadyState
	}
	return VerdictNotFound
}

func countIssued(sps []SuperPass) int {
	n := 0
	for i := range sps {
		n += sps[i].NIssued
	}
	return n
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
