package core

// The earliest-stop search of before issue 32's long-run search (D39),
// kept as the oracle of EarliestStopOf on runs of up to longRunStopSPs
// super-passes: every Step-th prefix in order, however long the run.

import (
	"fmt"
	"math"
)

// oracleEarliestStopOf is EarliestStopOf as it was (commit 303d51b).
func (run *Run) oracleEarliestStopOf(p Params, full *Result, t StopTarget) (EarliestStop, error) {
	nan := math.NaN()
	e := EarliestStop{StopAtS: nan, SavedFrac: nan, Step: 1, Target: t}
	e.StartNs, e.EndNs = run.issueSpan()
	switch {
	case full == nil || full.Assessment == nil:
		e.Reason = "compat reference: no certification to stop on"
		return e, nil
	case full.Path != PathWindow || full.SuperpassSize <= 0:
		e.Reason = "no super-pass windows (agentic NATL path)"
		return e, nil
	}
	e.Full = StopCheckOf(full, t)
	if !t.Exhaustive && !e.Full.Found() {
		e.Reason = "the full run certifies no steady window: " + e.Full.Reason
		return e, nil
	}
	S := full.SuperpassSize
	cuts := run.prefixCuts(S)
	first := firstCandidate(cuts, e.StartNs, full.MinDurFloorS, p.MinTrendN+1)
	if first < 0 {
		e.Reason = "no prefix long enough for the minimum-duration floor"
		return e, nil
	}
	conf := max(t.Confirm, 1)
	cand := len(cuts) - first + 1
	if t.MaxPrefixes > 0 && cand > t.MaxPrefixes {
		e.Step = (cand + t.MaxPrefixes - 1) / t.MaxPrefixes
	}
	streak, lastStreak := 0, 0
	var last StopCheck
	for k := first; k <= len(cuts); k += e.Step {
		c, err := run.CheckPrefix(p, S, k, t)
		if err != nil {
			return e, err
		}
		e.Evaluated++
		last = c
		if !c.Certified {
			streak = 0
			continue
		}
		if streak++; streak >= conf {
			e.Found, e.Stop = true, c
			break
		}
		lastStreak = streak
	}
	if !e.Found {
		switch {
		case last.Reason != "":
			e.Reason = "no prefix certifies; the last: " + last.Reason
		default:
			e.Reason = fmt.Sprintf("only the last %d prefix(es) certify, %d in a row needed", lastStreak, conf)
		}
		return e, nil
	}
	if span := e.EndNs - e.StartNs; span > 0 {
		e.StopAtS = float64(e.Stop.CutNs-e.StartNs) / 1e9
		e.SavedFrac = float64(e.EndNs-e.Stop.CutNs) / float64(span)
	}
	fo := full.Outcome()
	e.Compared = true
	e.Withdrawn = !fo.Found
	e.Agrees = !e.Withdrawn && within(fo.SteadyTPSSystem, e.Stop.TPSSystemCI) && within(fo.SteadyTPOTP50Ns, e.Stop.TPOTP50CI)
	return e, nil
}

// CheckEarliestStopOracle compares EarliestStopOf with the oracle on the
// run under both compats' parameters, the default rule and the
// exhaustive one (which searches a run whatever its full analysis),
// each result printed in full (NaN equal to NaN). It returns the number
// of prefixes the searches analysed and the run's full super-passes.
func CheckEarliestStopOracle(s *Samples, info RunInfo, exhaustive bool) (analysed, superPasses int, err error) {
	targets := []StopTarget{DefaultStopTarget()}
	if exhaustive {
		x := DefaultStopTarget()
		x.Exhaustive = true
		targets = append(targets, x)
	}
	for _, p := range []Params{DefaultParams(), ReferenceParams()} {
		run := NewRun(s, info)
		full, err := run.Analyze(p)
		if err != nil {
			return 0, 0, err
		}
		superPasses = full.NSuperPasses
		for _, t := range targets {
			want, err := NewRun(s, info).oracleEarliestStopOf(p, full, t)
			if err != nil {
				return 0, 0, err
			}
			got, err := run.EarliestStopOf(p, full, t)
			if err != nil {
				return 0, 0, err
			}
			if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
				return 0, 0, fmt.Errorf("compat %s, exhaustive %v:\n got    %s\n oracle %s", p.Compat, t.Exhaustive, g, w)
			}
			analysed += got.Evaluated
		}
	}
	return analysed, superPasses, nil
}

// LinearEarliestStop is the oracle's search (every Step-th prefix in
// order) on a run of any length, for comparisons with the geometric one.
func (run *Run) LinearEarliestStop(p Params, full *Result, t StopTarget) (EarliestStop, error) {
	return run.oracleEarliestStopOf(p, full, t)
}
