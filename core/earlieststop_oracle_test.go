package core

// The earliest-stop search of before issue 32's long-run search (D39),
// kept as the oracle of EarliestStopOf on runs of up to longRunStopSPs
// super-passes: every Step-th prefix in order, however long the run.

import "fmt"

// oracleEarliestStopOf is EarliestStopOf as it was (commit 303d51b): its
// search loop as written then, the gates before it and the comparison
// after it shared with EarliestStopOf (stopSearch, compare).
func (run *Run) oracleEarliestStopOf(p Params, full *Result, t StopTarget) (EarliestStop, error) {
	e, S, nCuts, first := run.stopSearch(p, full, t)
	if first < 0 {
		return e, nil
	}
	conf := max(t.Confirm, 1)
	streak, lastStreak := 0, 0
	var last StopCheck
	for k := first; k <= nCuts; k += e.Step {
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
	e.compare(full)
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
