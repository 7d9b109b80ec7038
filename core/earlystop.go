package core

import "github.com/steadysweep/steadysweep/core/stats"

// EarlyStopGrid returns the report percentile grid at or above the
// median, in the grid convention (0–100) and the order the estimates are
// reported (seed early-stopping.md).
func EarlyStopGrid() []float64 { return []float64{99.9, 99, 97, 95, 90, 80, 75, 50} }

// earlyStopP99 is the index of 99 in EarlyStopGrid.
const earlyStopP99 = 1

// EarlyStopEstimate is one series' LoadGen-parity estimates: Values[i] is
// the estimate of EarlyStopGrid()[i] and OK[i] false below that
// percentile's floor (JSON null).
type EarlyStopEstimate struct {
	N      int
	Values []float64
	OK     []bool
}

// EarlyStopSeries are the estimates of TTFT, TPOT and end-to-end latency
// (ns).
type EarlyStopSeries struct{ TTFT, TPOT, Latency EarlyStopEstimate }

// EarlyStopping holds the estimates over the tracked run and over the
// steady window (nil without a window).
type EarlyStopping struct {
	Total  EarlyStopSeries
	Steady *EarlyStopSeries
}

// overLatencyBudget is LoadGen's over-latency budget t(n, p) at c = 0.99,
// d = 0; 0 below the floor.
func overLatencyBudget(n int, p float64) int {
	t, ok := stats.EarlyStoppingOverLatencyBudget(n, p, stats.EarlyStoppingConfidence, stats.EarlyStoppingTolerance)
	if !ok {
		return 0
	}
	return t
}

// earlyStopEstimate returns, for every grid percentile p, LoadGen's
// SingleStream estimate at confidence 0.99 and tolerance 0 of the
// ascending values sorted,
//
//	sorted[n − t],  t = max{ i ≥ 1 : n ≥ h_min(i, p/100) + i }
//
// (stats.EarlyStoppingPercentile, with the budget t memoised on the run);
// below the floor h_min(1) + 1 (p99: 662, p90: 64, p50: 11) the estimate is
// absent.
func (run *Run) earlyStopEstimate(sorted []float64) EarlyStopEstimate {
	grid := EarlyStopGrid()
	e := EarlyStopEstimate{N: len(sorted), Values: make([]float64, len(grid)), OK: make([]bool, len(grid))}
	for i, p := range grid {
		if t := run.earlyStopBudget(len(sorted), p/100); t > 0 {
			e.Values[i], e.OK[i] = sorted[len(sorted)-t], true
		}
	}
	return e
}

// clone returns a copy that shares nothing with e.
func (e EarlyStopEstimate) clone() EarlyStopEstimate {
	e.Values, e.OK = append([]float64(nil), e.Values...), append([]bool(nil), e.OK...)
	return e
}

func (s EarlyStopSeries) clone() EarlyStopSeries {
	return EarlyStopSeries{TTFT: s.TTFT.clone(), TPOT: s.TPOT.clone(), Latency: s.Latency.clone()}
}
