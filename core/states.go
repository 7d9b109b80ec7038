package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// MetricState is a tracked metric's state over a window (design §5.5); ""
// when the metric has fewer than MinTrendN points (no data is never a
// plateau).
type MetricState string

// The states of a metric.
const (
	StatePlateau      MetricState = "Plateau"
	StateDriftingUp   MetricState = "Drifting Up"
	StateDriftingDown MetricState = "Drifting Down"
	StateNone         MetricState = ""
)

// MetricStates returns the states with data, in documentation order.
func MetricStates() []MetricState {
	return []MetricState{StatePlateau, StateDriftingUp, StateDriftingDown}
}

func (s MetricState) String() string { return string(s) }

// Valid reports whether s is one of MetricStates or StateNone.
func (s MetricState) Valid() bool { _, err := ParseMetricState(string(s)); return err == nil }

// ParseMetricState returns the MetricState spelled s ("" is StateNone).
func ParseMetricState(s string) (MetricState, error) {
	return parseEnum("state", s, append(MetricStates(), StateNone))
}

// stateOf classifies a trajectory given the gate's verdict v on it: none
// below minN points, Drifting Up/Down when the gate finds a trend of at
// least the effect-size floor, else Plateau.
func stateOf(traj []float64, v stats.Verdict, p Params, tmp []float64) MetricState {
	switch {
	case v == stats.VerdictInsufficient:
		return StateNone
	case v == stats.VerdictUp && math.Abs(relDrift(traj, tmp)) >= p.TrendRelDriftMin:
		return StateDriftingUp
	case v == stats.VerdictDown && math.Abs(relDrift(traj, tmp)) >= p.TrendRelDriftMin:
		return StateDriftingDown
	}
	return StatePlateau
}

// statesOver returns every tracked metric's state over pct[lo:hi].
func statesOver(pct []*spPercentiles, lo, hi int, p Params, memo *memoView) [NumMetrics]MetricState {
	var out [NumMetrics]MetricState
	if lo < 0 || hi > len(pct) || lo >= hi {
		return out
	}
	buf := make([]float64, 2*(hi-lo))
	traj, tmp := buf[:0:hi-lo], buf[hi-lo:hi-lo]
	for m := range NumMetrics {
		traj = traj[:0]
		for _, pc := range pct[lo:hi] { // trajectory, into one buffer: the tests keep none of it
			if pc.ok[m] {
				traj = append(traj, pc.v[m])
			}
		}
		out[m] = stateOf(traj, memo.trend(p.TrendGate, m, lo, hi, traj, p.MinTrendN, p.Alpha), p, tmp)
	}
	return out
}
