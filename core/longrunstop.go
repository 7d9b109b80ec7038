package core

import (
	"fmt"
	"math"
)

// The earliest-stop search of a long run (D39). The linear search
// analyses up to MaxPrefixes prefixes of up to the whole run each, so its
// cost grows with the square of the run (a soak test of 10,000
// super-passes of one sample searched 200 prefixes of up to 10,000 for
// minutes). Above longRunStopSPs full super-passes the search is bounded
// to a few analyses of the whole run:
//
//   - it runs only when the full run itself meets the rule (or t is
//     exhaustive): a prefix holds fewer super-passes than the full run, so
//     its intervals are rarely narrower; on planted truth a stop behind a
//     full run that misses the rule is one in fifty (docs/deviations.md).
//   - the prefixes probed are k₀ = first and k_{i+1} = max(k_i + step,
//     ⌈stopGridRatio·k_i⌉), up to the last full super-pass: a geometric
//     grid, so the probes cost about stopGridRatio/(stopGridRatio − 1)
//     analyses of the stop's length.
//   - a probe that certifies is confirmed as the linear search confirms,
//     by the t.Confirm − 1 prefixes step, 2·step… before it; the stop is
//     the first confirmed probe, found to a resolution of stopGridRatio.
//
// Runs of up to longRunStopSPs super-passes (every parity and accuracy
// run) keep the linear search (TestEarliestStopOracle).

// longRunStopSPs is the most full super-passes a run's linear search
// takes; longer runs are searched on the geometric grid.
const longRunStopSPs = 512

// stopGridRatio is the ratio of consecutive probes of the geometric grid:
// the probes up to a stop at k cost ≈ 5 analyses of k, the confirmations
// two more, and the stop is at most 25 % later than the grid's first
// confirmed prefix would be.
const stopGridRatio = 1.25

// geometricStop is the search of a run of more than longRunStopSPs full
// super-passes (first…last the candidate prefix lengths): it sets
// e.Found and e.Stop, or e.Reason, and counts e.Evaluated.
func (run *Run) geometricStop(p Params, S, first, last int, t StopTarget, e *EarliestStop) error {
	e.Geometric = true
	if !t.Exhaustive && !e.Full.Certified {
		e.Reason = fmt.Sprintf("the full run does not meet the stop rule (%s); the prefixes of a run of more than %d "+
			"super-passes are searched only when it does", e.Full.Reason, longRunStopSPs)
		return nil
	}
	conf := max(t.Confirm, 1)
	checked := map[int]StopCheck{}
	check := func(k int) (StopCheck, error) {
		if c, ok := checked[k]; ok {
			return c, nil
		}
		c, err := run.CheckPrefix(p, S, k, t)
		if err != nil {
			return c, err
		}
		e.Evaluated++
		checked[k] = c
		return c, nil
	}
	var probe StopCheck
	for k := first; ; k = nextProbe(k, e.Step, last) {
		c, err := check(k)
		if err != nil {
			return err
		}
		probe = c
		confirmed := c.Certified
		for j := 1; j < conf && confirmed; j++ {
			if k-j*e.Step < first {
				confirmed = false
				break
			}
			cj, err := check(k - j*e.Step)
			if err != nil {
				return err
			}
			confirmed = cj.Certified
		}
		if confirmed {
			e.Found, e.Stop = true, c
			return nil
		}
		if k >= last {
			break
		}
	}
	if probe.Reason != "" {
		e.Reason = "no prefix certifies; the last: " + probe.Reason
	} else {
		e.Reason = fmt.Sprintf("no probed prefix certifies with the %d before it", conf-1)
	}
	return nil
}

// nextProbe is the geometric grid's probe after k: stopGridRatio·k
// rounded up, at least step further, at most last.
func nextProbe(k, step, last int) int {
	return min(last, max(k+step, int(math.Ceil(stopGridRatio*float64(k)))))
}
