package core

import "slices"

// EarlyStopGrid is the report percentile grid at or above the median, in
// the grid convention (0–100) and the order the estimates are reported
// (seed early-stopping.md).
var EarlyStopGrid = []float64{99.9, 99, 97, 95, 90, 80, 75, 50}

// EarlyStopEstimate is one series' LoadGen-parity estimates: Values[i] is
// the estimate of EarlyStopGrid[i] and OK[i] false below that
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

// earlyStopEstimate sorts xs in place and returns, for every grid
// percentile p, LoadGen's SingleStream estimate at confidence 0.99 and
// tolerance 0,
//
//	sorted[n − t],  t = max{ i ≥ 1 : n ≥ h_min(i, p/100) + i }
//
// (stats.EarlyStoppingPercentile, with the budget t memoised); below the floor h_min(1) + 1 (p99:
// 662, p90: 64, p50: 11) the estimate is absent.
func earlyStopEstimate(xs []float64) EarlyStopEstimate {
	slices.Sort(xs)
	e := EarlyStopEstimate{N: len(xs), Values: make([]float64, len(EarlyStopGrid)), OK: make([]bool, len(EarlyStopGrid))}
	for i, p := range EarlyStopGrid {
		if t := earlyStopBudget(len(xs), p/100); t > 0 {
			e.Values[i], e.OK[i] = xs[len(xs)-t], true
		}
	}
	return e
}

// earlyStoppingOf computes the estimates over the pooled samples of sps.
func earlyStoppingOf(sps []SuperPass) EarlyStopSeries {
	return EarlyStopSeries{
		TTFT:    earlyStopEstimate(pooled(sps, func(sp *SuperPass) []float64 { return sp.TTFT })),
		TPOT:    earlyStopEstimate(pooled(sps, func(sp *SuperPass) []float64 { return sp.TPOT })),
		Latency: earlyStopEstimate(pooled(sps, func(sp *SuperPass) []float64 { return sp.Latency })),
	}
}
