package core

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Earliest stop: how early a run could have stopped with the answer it
// gave. The run is cut after each of its full super-passes, at the time
// the last sample of the super-passes so far had completed, and each
// prefix is analysed as a run of its own (Run.Analyze: the pipeline's
// public result, so the rule follows the detector's verdict and
// intervals wherever they come from). The earliest stop is the first
// prefix that certifies (StopCertifies):
//
//	certified    a certified steady window (Outcome.Found, status
//	             windowable): STEADY STATE, or the window after a level
//	             shift (verdict anomaly)
//	precision    system TPS and TPOT p50 95 % half-widths ≤ MaxRelHalfWidth
//	             of their values
//	duration     the window meets its minimum duration (found implies it)
//	tails        LoadGen early-stopping estimates exist in the window for
//	             every reported percentile (p50, p90, p99) of TTFT and TPOT
//	confirm      the Confirm − 1 prefixes before it certify too
//
// Whether the stop was right is judged against the full run, which a run
// in progress does not have: Agrees says the full run's system TPS and
// TPOT p50 lie inside the stop's intervals, Withdrawn that the full run
// does not certify a steady state (a drift or shift the prefix could not
// see yet).

// StopTarget is what a prefix must reach to be an earliest stop.
type StopTarget struct {
	// MaxRelHalfWidth bounds the half-widths of the system-TPS and TPOT
	// p50 intervals relative to their values (0.01: ±1 %).
	MaxRelHalfWidth float64
	// Confirm is the number of consecutive certifying prefixes the stop
	// needs, itself included (≥ 1): a certification the next super-pass
	// withdraws is not a stop.
	Confirm int
	// Exhaustive searches the prefixes of every run; otherwise only a run
	// whose full analysis certifies a steady window is searched (a stop
	// on the others could only be one the full run withdraws), which
	// keeps sweeps cheap: drifts and runs too short are not searched.
	// Evaluations set it, to see what the rule does on every run.
	Exhaustive bool
	// MaxPrefixes caps the prefixes analysed (0: no cap): with more
	// candidate prefixes than that, every ⌈candidates/MaxPrefixes⌉-th is
	// analysed, and the stop is found to that resolution.
	MaxPrefixes int
}

// DefaultStopTarget is the rule of `analyze`, rows and `watch`: ±1 %
// intervals, two confirming super-passes (tuned on planted truth:
// bench/cmd/earlieststop), at most 200 prefixes analysed.
func DefaultStopTarget() StopTarget {
	return StopTarget{MaxRelHalfWidth: 0.01, Confirm: 3, MaxPrefixes: 200}
}

// StopCheck is one prefix's certification: the prefix's verdict, its
// intervals and why it does not certify ("" when it does).
type StopCheck struct {
	// NSuperPasses is the number of full super-passes in the prefix.
	NSuperPasses int
	// CutNs is when the last sample of the prefix completed (log clock).
	CutNs   int64
	Verdict Verdict
	Status  Status
	// TPSSystem and TPOTP50Ns are the window's values, each with its 95 %
	// interval [lo, hi] (NaN without one).
	TPSSystem   float64
	TPSSystemCI [2]float64
	TPOTP50Ns   float64
	TPOTP50CI   [2]float64
	// MinDurationS and WindowDurationS are the window's gate (NaN without
	// a window).
	MinDurationS, WindowDurationS float64
	// Certified reports the prefix passes every condition; Reason names
	// the first it fails otherwise.
	Certified bool
	Reason    string

	found bool
}

// RelHalfWidth returns the interval's half-width relative to v (NaN when
// either is missing or v ≤ 0).
func RelHalfWidth(v float64, ci [2]float64) float64 {
	if !(v > 0) || math.IsNaN(ci[0]) || math.IsNaN(ci[1]) {
		return math.NaN()
	}
	return (ci[1] - ci[0]) / 2 / v
}

// EarliestStop is the earliest-stop analysis of one run.
type EarliestStop struct {
	// Found reports a certifying prefix; Reason says why there is none.
	Found  bool
	Reason string
	// Stop is the stopping prefix's check (zero without one).
	Stop StopCheck
	// StartNs and EndNs bound the run's wall time: its first issue and
	// its last event.
	StartNs, EndNs int64
	// StopAtS is the stop's time into the run (s); SavedFrac the share of
	// the run's wall time after it. NaN without a stop.
	StopAtS, SavedFrac float64
	// Agrees reports that the full run's system TPS and TPOT p50 lie
	// inside the stop's intervals; Withdrawn that the full run does not
	// certify a steady state. Both are meaningful only when Compared: a
	// run still in progress (`watch`) has no full run to compare with.
	Agrees, Withdrawn, Compared bool
	// Target is the rule the stop was searched under.
	Target StopTarget
	// Full is the full run's check (its values and intervals).
	Full StopCheck
	// Evaluated counts the prefixes analysed; Step is the stride between
	// them (1 unless MaxPrefixes capped the work), and between a probe and
	// its confirmations on the geometric grid.
	Evaluated, Step int
	// Geometric reports the search of a long run (more than 512 full
	// super-passes, D39): prefixes probed on a geometric grid, and only
	// when the full run meets the rule (longrunstop.go).
	Geometric bool
}

// SavedNs is the wall time after the stop, in ns (0 without a stop).
func (e *EarliestStop) SavedNs() int64 {
	if !e.Found {
		return 0
	}
	return e.EndNs - e.Stop.CutNs
}

// HeadSamples returns the first n samples of s as a view sharing its
// columns (optional columns stay empty when empty).
func HeadSamples(s *Samples, n int) *Samples {
	n = min(max(n, 0), s.Len())
	return &Samples{
		IssueNs: head(s.IssueNs, n), LastIssueNs: head(s.LastIssueNs, n), LastEventNs: head(s.LastEventNs, n),
		HasFirstToken: head(s.HasFirstToken, n), FirstTokenNs: head(s.FirstTokenNs, n), TTFTNs: head(s.TTFTNs, n),
		WarmTTFT: head(s.WarmTTFT, n), FirstTokenSeq: head(s.FirstTokenSeq, n),
		HasComplete: head(s.HasComplete, n), CompleteNs: head(s.CompleteNs, n), LatencyNs: head(s.LatencyNs, n),
		CompleteSeq: head(s.CompleteSeq, n), OutTokens: head(s.OutTokens, n), FullTokens: head(s.FullTokens, n),
		Failed: head(s.Failed, n), FailureKind: head(s.FailureKind, n), FailCode: head(s.FailCode, n),
		InTokens: head(s.InTokens, n), ReasoningTokens: head(s.ReasoningTokens, n), Retries: head(s.Retries, n),
		ConversationID: head(s.ConversationID, n), Turn: head(s.Turn, n),
	}
}

// head is xs[:n], or xs when it is shorter (an empty optional column);
// its capacity is cut so an append never writes into the parent.
func head[T any](xs []T, n int) []T {
	if len(xs) < n {
		return xs
	}
	return xs[:n:n]
}

// PrefixCutNs returns, for each k of 1…len(sps) full super-passes of
// size S, the time the last of their samples completed: the maximum
// LastEventNs over samples [0, k·S) (−1 while none has an event). Only
// full super-passes are cut.
func PrefixCutNs(s *Samples, S int) []int64 {
	if S <= 0 {
		return nil
	}
	k := s.Len() / S
	out := make([]int64, k)
	cut := int64(-1)
	for i := 0; i < k*S; i++ {
		cut = max(cut, at(s.LastEventNs, i, at(s.IssueNs, i, -1)))
		if (i+1)%S == 0 {
			out[i/S] = cut
		}
	}
	return out
}

// AnalyzePrefix analyses the run cut after k full super-passes of size
// S under p: a run of its own (the same facts, none of the memos of run,
// not partial: the cut is deliberate).
func (run *Run) AnalyzePrefix(p Params, S, k int) (*Result, error) {
	pre := run.newPrefix(S, k)
	pre.Stop = run.Stop
	return pre.Analyze(p)
}

// newPrefix is the run cut after k full super-passes of size S: its
// first k·S samples, the same facts, not partial (the cut is deliberate).
func (run *Run) newPrefix(S, k int) *Run {
	pre := NewRun(HeadSamples(run.samples, k*S), run.info)
	pre.info.Partial, pre.info.PartialReason = false, ""
	pre.parent = run
	return pre
}

// CheckPrefix is the certification under t of the run cut after k full
// super-passes of size S (AnalyzePrefix), with the time of its cut. The
// prefix's run is kept for the next parameter set (prefixRun): the
// earliest-stop search of a sweep analyses the same prefixes under every
// configuration.
func (run *Run) CheckPrefix(p Params, S, k int, t StopTarget) (StopCheck, error) {
	pre := run.prefixRun(S, k)
	// The prefixes are analysed one at a time: each takes the search's
	// scratch and hands it back, instead of growing buffers of its own.
	pre.scratch, pre.scratchTo = run.prefixes.scratch, &run.prefixes.scratch
	r, err := pre.Analyze(p)
	if err != nil {
		return StopCheck{}, err
	}
	c := StopCheckOf(r, t)
	c.NSuperPasses = k
	c.CutNs = -1
	if cuts := run.prefixCuts(S); k > 0 && k <= len(cuts) {
		c.CutNs = cuts[k-1] // PrefixCutNs of the prefix is the run's, cut at k
	}
	return c, nil
}

// StopCheckOf is the certification of an analysed run (or prefix) under
// t, from its public result: Outcome (verdict, status, window, TPS
// interval, early-stopping estimates) and the window's per-super-pass
// TPOT p50 (TPOTP50Interval).
func StopCheckOf(r *Result, t StopTarget) StopCheck {
	o := r.Outcome()
	nan := math.NaN()
	c := StopCheck{NSuperPasses: r.NSuperPasses, CutNs: -1, Verdict: o.Verdict, Status: o.Status,
		TPSSystem: o.SteadyTPSSystem, TPSSystemCI: [2]float64{o.SteadyTPSSystemCILo, o.SteadyTPSSystemCIHi},
		TPOTP50Ns: o.SteadyTPOTP50Ns, TPOTP50CI: [2]float64{nan, nan},
		MinDurationS: o.MinDurationS, WindowDurationS: o.WindowDurationS}
	if o.WindowStartSP >= 0 {
		c.TPOTP50CI = TPOTP50Interval(r, o.SteadyTPOTP50Ns, o.WindowStartSP, o.WindowEndSP)
	}
	c.found = r.Assessment != nil && o.Found && o.Status == StatusWindowable
	c.Reason = stopBlocker(r, o, c, t)
	c.Certified = c.Reason == ""
	return c
}

// stopBlocker names the first condition of the rule the check fails
// ("" when it passes them all).
func stopBlocker(r *Result, o Outcome, c StopCheck, t StopTarget) string {
	tps, tpot := RelHalfWidth(c.TPSSystem, c.TPSSystemCI), RelHalfWidth(c.TPOTP50Ns, c.TPOTP50CI)
	switch {
	case r.Assessment == nil:
		return "compat reference: no certification to stop on"
	case o.Status != StatusWindowable:
		return fmt.Sprintf("status %s", o.Status)
	case !o.Found:
		return fmt.Sprintf("verdict %s, no certified window", o.Verdict)
	case o.IsShort || !(o.WindowDurationS >= o.MinDurationS):
		return fmt.Sprintf("window %.0f s, shorter than its minimum %.0f s", o.WindowDurationS, o.MinDurationS)
	case math.IsNaN(tps):
		return "no system-TPS interval"
	case tps > t.MaxRelHalfWidth:
		return fmt.Sprintf("system-TPS half-width %.2f%% > %.2f%%", 100*tps, 100*t.MaxRelHalfWidth)
	case math.IsNaN(tpot):
		return "no TPOT p50 interval"
	case tpot > t.MaxRelHalfWidth:
		return fmt.Sprintf("TPOT p50 half-width %.2f%% > %.2f%%", 100*tpot, 100*t.MaxRelHalfWidth)
	}
	if miss := missingEarlyStop(r.Assessment.EarlyStop.Steady); miss != "" {
		return "no early-stopping estimate for " + miss + " yet"
	}
	return ""
}

// reportedGrid returns the indices in EarlyStopGrid of the reported
// percentiles p99, p90 and p50.
func reportedGrid() [3]int { return [3]int{1, 4, 7} }

// missingEarlyStop names the first reported percentile of TTFT or TPOT
// whose LoadGen estimate the window lacks (below its sample floor), ""
// when all exist.
func missingEarlyStop(es *EarlyStopSeries) string {
	if es == nil {
		return "the window"
	}
	grid := EarlyStopGrid()
	for _, m := range [2]struct {
		name string
		e    *EarlyStopEstimate
	}{{"TTFT", &es.TTFT}, {"TPOT", &es.TPOT}} {
		for _, i := range reportedGrid() {
			if i >= len(m.e.OK) || !m.e.OK[i] {
				return fmt.Sprintf("%s p%g", m.name, grid[i])
			}
		}
	}
	return ""
}

// TPOTP50Interval is the 95 % interval of the window's TPOT p50 (ns):
// the batch-means half-width of the per-super-pass TPOT p50 of the
// window's super-passes [lo, hi] (absolute, end inclusive; super-passes
// without TPOT skipped), centred on the reported p50,
//
//	[p50 − h, p50 + h],  h = (BatchMeansCI(p50_k)[1] − BatchMeansCI(p50_k)[0]) / 2
//
// NaN with fewer than minThroughputBatches super-passes with TPOT or
// without a p50.
func TPOTP50Interval(r *Result, p50 float64, lo, hi int) [2]float64 {
	nan := [2]float64{math.NaN(), math.NaN()}
	if math.IsNaN(p50) || r.roll == nil {
		return nan
	}
	var xs []float64
	for i := max(lo, 0); i <= hi && i < len(r.series); i++ {
		if pc := r.roll.pct[i]; pc.ok[mTPOTP50] {
			xs = append(xs, pc.v[mTPOTP50])
		}
	}
	if len(xs) < minThroughputBatches {
		return nan
	}
	l, h := stats.BatchMeansCI(xs)
	half := (h - l) / 2
	return [2]float64{p50 - half, p50 + half}
}

// EarliestStopOf finds the earliest stop of the run analysed as full
// under p (full = run.Analyze(p)): the first prefix of full super-passes
// that certifies under t, confirmed by t.Confirm − 1 earlier ones, and
// how it compares with full. Prefixes too short to meet the minimum
// duration floor, or to hold warmup plus MinTrendN super-passes, are not
// analysed. A run of more than longRunStopSPs full super-passes is
// searched on a geometric grid of prefixes, and only when the full run
// meets the rule (geometricStop, D39).
func (run *Run) EarliestStopOf(p Params, full *Result, t StopTarget) (EarliestStop, error) {
	defer run.prefixes.scratch.release() // the buffers CheckPrefix lent its prefixes
	e, S, last, first := run.stopSearch(p, full, t)
	if first < 0 {
		return e, nil
	}
	var err error
	if last > longRunStopSPs {
		err = run.geometricStop(p, S, first, last, t, &e)
	} else {
		err = run.linearStop(p, S, first, last, t, &e)
	}
	if err != nil || !e.Found {
		return e, err
	}
	e.compare(full)
	return e, nil
}

// stopSearch is what precedes a search of prefixes: the gates that leave
// nothing to search (first −1, e.Reason set), else the super-pass size S,
// the number of full super-passes last, the first candidate prefix and
// e.Step under t.MaxPrefixes.
func (run *Run) stopSearch(p Params, full *Result, t StopTarget) (e EarliestStop, S, last, first int) {
	nan := math.NaN()
	e = EarliestStop{StopAtS: nan, SavedFrac: nan, Step: 1, Target: t}
	e.StartNs, e.EndNs = run.issueSpan()
	switch {
	case full == nil || full.Assessment == nil:
		e.Reason = "compat reference: no certification to stop on"
		return e, 0, 0, -1
	case full.Path != PathWindow || full.SuperpassSize <= 0:
		e.Reason = "no super-pass windows (agentic NATL path)"
		return e, 0, 0, -1
	}
	e.Full = StopCheckOf(full, t)
	if !t.Exhaustive && !e.Full.Found() {
		e.Reason = "the full run certifies no steady window: " + e.Full.Reason
		return e, 0, 0, -1
	}
	S = full.SuperpassSize
	cuts := run.prefixCuts(S)
	first = firstCandidate(cuts, e.StartNs, full.MinDurFloorS, p.MinTrendN+1)
	if first < 0 {
		e.Reason = "no prefix long enough for the minimum-duration floor"
		return e, S, len(cuts), -1
	}
	cand := len(cuts) - first + 1
	if t.MaxPrefixes > 0 && cand > t.MaxPrefixes {
		e.Step = (cand + t.MaxPrefixes - 1) / t.MaxPrefixes
	}
	return e, S, len(cuts), first
}

// compare sets, for a found stop, where it lies in the run (StopAtS,
// SavedFrac) and whether it agrees with full: both certified intervals
// contain full's steady TPS and TPOT p50.
func (e *EarliestStop) compare(full *Result) {
	if span := e.EndNs - e.StartNs; span > 0 {
		e.StopAtS = float64(e.Stop.CutNs-e.StartNs) / 1e9
		e.SavedFrac = float64(e.EndNs-e.Stop.CutNs) / float64(span)
	}
	fo := full.Outcome()
	e.Compared = true
	e.Withdrawn = !fo.Found
	e.Agrees = !e.Withdrawn && within(fo.SteadyTPSSystem, e.Stop.TPSSystemCI) && within(fo.SteadyTPOTP50Ns, e.Stop.TPOTP50CI)
}

// linearStop is the search of a run of at most longRunStopSPs full
// super-passes: every e.Step-th prefix from first to last in order, the
// stop the first that certifies with the t.Confirm − 1 analysed before it.
// It sets e.Found and e.Stop, or e.Reason, and counts e.Evaluated.
func (run *Run) linearStop(p Params, S, first, last int, t StopTarget, e *EarliestStop) error {
	conf := max(t.Confirm, 1)
	streak, lastStreak := 0, 0
	var prev StopCheck
	for k := first; k <= last; k += e.Step {
		c, err := run.CheckPrefix(p, S, k, t)
		if err != nil {
			return err
		}
		e.Evaluated++
		prev = c
		if !c.Certified {
			streak = 0
			continue
		}
		if streak++; streak >= conf {
			e.Found, e.Stop = true, c
			return nil
		}
		lastStreak = streak
	}
	switch {
	case prev.Reason != "":
		e.Reason = "no prefix certifies; the last: " + prev.Reason
	default:
		e.Reason = fmt.Sprintf("only the last %d prefix(es) certify, %d in a row needed", lastStreak, conf)
	}
	return nil
}

// firstCandidate is the smallest prefix length k ≥ minK whose cut lies at
// least floorS after start (−1 when none): no shorter prefix can hold a
// window that meets the floor.
func firstCandidate(cuts []int64, start int64, floorS float64, minK int) int {
	for k := max(minK, 1); k <= len(cuts); k++ {
		if float64(cuts[k-1]-start)/1e9 >= floorS {
			return k
		}
	}
	return -1
}

func within(v float64, ci [2]float64) bool { return v >= ci[0] && v <= ci[1] }

// Found reports a certified steady window (Outcome.Found, status
// windowable), whatever the precision.
func (c StopCheck) Found() bool { return c.found }
