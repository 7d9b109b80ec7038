package core

import (
	"math"
	"strconv"
	"strings"
)

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
//	insufficient_passes    the window spans 1–3 super-passes, or is not a
//	                       plateau (a drifting window), or there is none
//	                       while the run has ≥ 1 full super-pass
//	partial_dataset        the run has less than one full super-pass
//
// Verdict is "anomaly" for a confirmed level shift, else "drifting_up" /
// "drifting_down" for a drifting gating state, else "STEADY STATE" for a
// windowable block, else "not found". Window indices are 0-based in the
// run's own super-pass sequence with warmup included, End inclusive.
// Offline (time-window), saturated Poisson and agentic runs get a block
// without a window.
type Submission struct {
	Status  string
	Verdict string
	// HasWindow reports a window; without one Window and State are empty.
	HasWindow bool
	Window    SubmissionWindow
	// StateTPOTP50 and StateTPOTP90 are the gating metrics' states.
	StateTPOTP50, StateTPOTP90 string
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
func noWindowSubmission(nFull, S int) Submission {
	st := StatusInsufficientPasses
	if nFull < 1 {
		st = StatusPartialDataset
	}
	return Submission{Status: st, Verdict: VerdictNotFound, Window: SubmissionWindow{SuperPassSize: S}}
}

// submissionOf builds the block of a window-path result.
func submissionOf(r *Result, o *Ours, info RunInfo, p Params) Submission {
	if o.Offline != nil || o.WinLo < 0 {
		sub := noWindowSubmission(o.NFull, r.SuperpassSize)
		if o.Anomaly.Detected {
			sub.Verdict = VerdictAnomaly
		}
		return sub
	}
	w := r.all[o.WinLo:o.WinHi]
	n := 0
	if r.Steady.Window != nil {
		n = r.Steady.Window.NSamples
	}
	sub := Submission{HasWindow: true, Window: SubmissionWindow{
		SuperPassStart: o.WinLo, SuperPassEnd: o.WinHi - 1, SuperPassSize: r.SuperpassSize,
		NSamples: n, DurationS: float64(issueSpanNs(w)) / 1e9}}
	gs := o.Selection.GatingStates()
	sub.StateTPOTP50, sub.StateTPOTP90 = gs[0], gs[1]
	plateau := gs[0] == StatePlateau && gs[1] == StatePlateau
	minS := SubmissionMinDuration(p.SubmissionMinDurationS, info.Concurrency)
	switch span := o.WinHi - o.WinLo; {
	case o.NFull < 1:
		sub.Status = StatusPartialDataset
	case span >= submissionMinPasses && plateau && sub.Window.DurationS >= minS:
		sub.Status = StatusWindowable
	case span >= submissionMinPasses && plateau:
		sub.Status = StatusInsufficientDuration
	default:
		sub.Status = StatusInsufficientPasses
	}
	if o.Anomaly.Detected {
		a := &SubmissionAnomaly{ChangePointSuperPass: o.Anomaly.ChangePointSP, DeltaPct: o.Anomaly.DeltaPct}
		for _, pl := range o.Anomaly.Plateaus {
			a.Plateaus = append(a.Plateaus, [2]int{pl[0], pl[1] - 1})
		}
		sub.Anomaly = a
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

// finite maps NaN and ±Inf to 0 (the block never carries them).
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// json is the block as an ordered JSON object (never null, no NaN).
func (s Submission) json() JSONObject {
	window, state := JSONObject{}, JSONObject{}
	if s.HasWindow {
		window = JSONObject{
			{"super_pass_start", s.Window.SuperPassStart}, {"super_pass_end", s.Window.SuperPassEnd},
			{"super_pass_size", s.Window.SuperPassSize}, {"n_samples", s.Window.NSamples},
			{"duration_s", finite(s.Window.DurationS)},
		}
		state = JSONObject{{"tpot_p50", s.StateTPOTP50}, {"tpot_p90", s.StateTPOTP90}}
	}
	obj := JSONObject{{"status", s.Status}, {"verdict", s.Verdict}, {"window", window}, {"state", state}}
	if a := s.Anomaly; a != nil {
		pls := make([]any, len(a.Plateaus))
		for i, pl := range a.Plateaus {
			pls[i] = []int{pl[0], pl[1]}
		}
		obj = append(obj, JSONField{"anomaly", JSONObject{
			{"change_point_super_pass", a.ChangePointSuperPass}, {"delta_pct", finite(a.DeltaPct)},
			{"plateaus", pls},
		}})
	}
	return obj
}

// SubmissionYAML returns the submission block as point.yaml's
// "steady_state:" mapping, keys in a fixed order, two-space indentation,
// ending with a newline. Without a window, window and state are "{}".
// Under compat "reference" (no block) it returns "".
func (r *Result) SubmissionYAML() string {
	if r == nil || r.Ours == nil {
		return ""
	}
	s := r.Ours.Submission
	var b strings.Builder
	b.WriteString("steady_state:\n")
	b.WriteString("  status: " + s.Status + "\n")
	b.WriteString("  verdict: " + s.Verdict + "\n")
	if s.HasWindow {
		w := s.Window
		b.WriteString("  window:\n")
		b.WriteString("    super_pass_start: " + strconv.Itoa(w.SuperPassStart) + "\n")
		b.WriteString("    super_pass_end: " + strconv.Itoa(w.SuperPassEnd) + "\n")
		b.WriteString("    super_pass_size: " + strconv.Itoa(w.SuperPassSize) + "\n")
		b.WriteString("    n_samples: " + strconv.Itoa(w.NSamples) + "\n")
		b.WriteString("    duration_s: " + pyFloat(finite(w.DurationS)) + "\n")
		b.WriteString("  state:\n")
		b.WriteString("    tpot_p50: " + s.StateTPOTP50 + "\n")
		b.WriteString("    tpot_p90: " + s.StateTPOTP90 + "\n")
	} else {
		b.WriteString("  window: {}\n  state: {}\n")
	}
	if a := s.Anomaly; a != nil {
		b.WriteString("  anomaly:\n")
		b.WriteString("    change_point_super_pass: " + strconv.Itoa(a.ChangePointSuperPass) + "\n")
		b.WriteString("    delta_pct: " + pyFloat(finite(a.DeltaPct)) + "\n")
		b.WriteString("    plateaus:\n")
		for _, pl := range a.Plateaus {
			b.WriteString("      - [" + strconv.Itoa(pl[0]) + ", " + strconv.Itoa(pl[1]) + "]\n")
		}
	}
	return b.String()
}
