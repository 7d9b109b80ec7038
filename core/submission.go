package core

// Submission is the steady_state block MLPerf endpoints submitters paste
// into point.yaml. Its consumer is MLCommons' submission checker (rules
// steady-state-valid, steady-state-consistency, steady-state-basis,
// point-duration), so it describes the REPORTED window the way the
// checker reads it:
//
//	windowable             the window spans ≥ 4 super-passes, every state
//	                       is Plateau and its duration meets the region
//	                       minimum (Params.SubmissionMinDurationS)
//	insufficient_duration  ≥ 4 super-passes, all Plateau, too short
//	insufficient_passes    the window spans 1–3 super-passes, or there is
//	                       none while the run has ≥ 1 full super-pass
//	partial_dataset        the run has less than one full super-pass
//
// A window of ≥ 4 super-passes whose gating states are not all Plateau (a
// drift) fits none of the window statuses, so the block carries no window
// but keeps the drifting states and the verdict: insufficient_passes (no
// steady window) with verdict drifting_* — the form the checker's
// steady-state-consistency rule accepts. A result the analysis does not
// certify for its log (impossible timing, non-streaming, no timeline)
// carries no window either.
//
// Verdict is "anomaly" for a confirmed level shift, else "drifting_up" /
// "drifting_down" for a drifting gating state, else "STEADY STATE" for a
// windowable block, else "not found". Window indices are 0-based in the
// run's own super-pass sequence with warmup included, End inclusive.
// Offline (time-window), saturated Poisson and agentic runs get a block
// without a window.
type Submission struct {
	Status  Status
	Verdict Verdict
	// HasWindow reports a window; without one Window is empty, and so is
	// State unless the window was dropped for drifting.
	HasWindow bool
	Window    SubmissionWindow
	// StateTPOTP50 and StateTPOTP90 are the gating metrics' states.
	StateTPOTP50, StateTPOTP90 MetricState
	// Anomaly is set only for a confirmed level shift.
	Anomaly *SubmissionAnomaly
}

// SubmissionWindow is the window of a Submission.
type SubmissionWindow struct {
	SuperPassStart, SuperPassEnd, SuperPassSize, NSamples int
	DurationS                                             float64
}

// SubmissionAnomaly is a confirmed level shift: the first super-pass of
// the new level, the signed TPOT change and every plateau [start, end]
// (inclusive), all in the submission's numbering.
type SubmissionAnomaly struct {
	ChangePointSuperPass int
	DeltaPct             float64
	Plateaus             [][2]int
}

// submissionMinPasses is the checker's minimum window in super-passes.
const submissionMinPasses = 4

// SubmissionMinDuration returns the region minimum duration of a point:
// p if positive, else 600 s, or 1200 s above concurrency 32.
func SubmissionMinDuration(p float64, concurrency int) float64 {
	switch {
	case p > 0:
		return p
	case concurrency > 32:
		return 1200
	}
	return 600
}

// noWindowSubmission is the block without a window.
// short is the status without a full super-pass (shortStatus).
func noWindowSubmission(nFull, S int, short Status) Submission {
	st := StatusInsufficientPasses
	if nFull < 1 {
		st = short
	}
	return Submission{Status: st, Verdict: VerdictNotFound, Window: SubmissionWindow{SuperPassSize: S}}
}

// submission builds the block of a window-path result.
func (a *analysis) submission() Submission {
	r := a.res
	if a.assess.Status == StatusInvalidTiming {
		return noWindowSubmission(a.assess.NFull, r.SuperpassSize, shortStatus(a.run.info))
	}
	n := 0
	if r.Steady.Window != nil {
		n = r.Steady.Window.NSamples
	}
	return submissionOf(r.series, a.assess, r.Steady.Anomaly, r.Warmup, r.SuperpassSize, n,
		SubmissionMinDuration(a.p.SubmissionMinDurationS, a.run.info.Concurrency), shortStatus(a.run.info))
}

// submissionOf builds the block of the window as.Window of
// series (nSamples samples with a TTFT) with the gating states of the
// selection and the level shift an (post-relative to warmup); minS is the
// region minimum duration; short the status without a full super-pass
// (shortStatus).
func submissionOf(series []SuperPass, as *Assessment, an Anomaly, warmup, S, nSamples int, minS float64, short Status) Submission {
	if as.Offline != nil || !as.Window.Ok() {
		sub := noWindowSubmission(as.NFull, S, short)
		if an.Detected {
			sub.Verdict = VerdictAnomaly
		}
		return sub
	}
	w := series[as.Window.Lo:as.Window.Hi]
	sub := Submission{HasWindow: true, Window: SubmissionWindow{
		SuperPassStart: int(as.Window.Lo), SuperPassEnd: int(as.Window.Last()), SuperPassSize: S,
		NSamples: nSamples, DurationS: float64(issueSpanNs(w)) / 1e9}}
	gs := as.Selection.GatingStates()
	sub.StateTPOTP50, sub.StateTPOTP90 = gs[0], gs[1]
	plateau := gs[0] == StatePlateau && gs[1] == StatePlateau
	span := as.Window.Len()
	switch {
	case as.NFull < 1:
		sub.Status = short
	case span >= submissionMinPasses && plateau && sub.Window.DurationS >= minS:
		sub.Status = StatusWindowable
	case span >= submissionMinPasses && plateau:
		sub.Status = StatusInsufficientDuration
	default:
		sub.Status = StatusInsufficientPasses
	}
	if span >= submissionMinPasses && !plateau {
		sub.HasWindow, sub.Window = false, SubmissionWindow{SuperPassSize: S}
	}
	if an.Detected {
		sa := &SubmissionAnomaly{ChangePointSuperPass: warmup + an.ChangePointSP, DeltaPct: an.DeltaPct}
		for _, pl := range an.Plateaus {
			sa.Plateaus = append(sa.Plateaus, [2]int{warmup + pl.Lo, warmup + pl.Hi - 1})
		}
		sub.Anomaly = sa
	}
	sub.Verdict = VerdictNotFound
	switch {
	case sub.Anomaly != nil:
		sub.Verdict = VerdictAnomaly
	case gs[0] == StateDriftingUp || gs[1] == StateDriftingUp:
		sub.Verdict = VerdictDriftingUp
	case gs[0] == StateDriftingDown || gs[1] == StateDriftingDown:
		sub.Verdict = VerdictDriftingDown
	case sub.Status == StatusWindowable:
		sub.Verdict = VerdictSteadyState
	}
	return sub
}
