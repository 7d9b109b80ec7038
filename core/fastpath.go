package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Fast paths for the decisions the headline takes many times. Each one
// returns exactly what the core/stats function it stands for would, and
// falls back to that function whenever its shortcut cannot decide; the
// equivalence is tested in fastpath_test.go.

// olsSlope is stats.OLS(xs).Slope with the same operations (detector spec
// §7.4): ȳ = Sum/n, Sxx = Σ(t − x̄)² (exact), Sxy = Sum of the rounded
// products, slope = Sxy/Sxx (0 if Sxx = 0). tmp is scratch space.
func olsSlope(xs, tmp []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	xbar := float64(n-1) / 2.0
	ybar := stats.Sum(xs) / float64(n)
	tmp = tmp[:0]
	sxx := 0.0
	for t, y := range xs {
		d := float64(t) - xbar
		sxx += d * d
		tmp = append(tmp, d*(y-ybar))
	}
	if sxx == 0 {
		return 0
	}
	return stats.Sum(tmp) / sxx
}

// relDrift is stats.RelDrift: (slope·(n−1)) / median, the median floored
// at 1e−9; 0 below two values.
func relDrift(xs, tmp []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	m := stats.Median(xs)
	if m == 0 {
		m = stats.ZeroMedianFloor
	}
	return olsSlope(xs, tmp) * float64(n-1) / m
}

// covExceeds reports stats.CoV(xs) > bound (see covVersus).
func covExceeds(xs []float64, bound float64) bool { return covVersus(xs, bound) > 0 }

// covAtMost reports stats.CoV(xs) ≤ bound (see covVersus; a NaN CoV is
// never ≤ a bound).
func covAtMost(xs []float64, bound float64) bool { return covVersus(xs, bound) < 0 }

// covVersus compares stats.CoV(xs) with bound: +1 above it, −1 at or below
// it, 0 when neither holds (a NaN CoV or bound). It first estimates the
// CoV in double precision (compensated mean, two-pass deviation), whose
// absolute error is far below 1e−12 for realistic series, and computes the
// exact CoV only when the estimate is within a margin of the bound.
func covVersus(xs []float64, bound float64) int {
	n := len(xs)
	if n >= 2 {
		m := stats.Sum(xs) / float64(n)
		if !(m == 0 || math.IsNaN(m) || math.IsInf(m, 0) || math.IsNaN(bound)) {
			ss := 0.0
			for _, x := range xs {
				d := x - m
				ss += d * d
			}
			est := math.Sqrt(ss/float64(n)) / math.Abs(m)
			margin := 1e-9*math.Abs(bound) + 1e-12
			switch {
			case math.IsNaN(est) || math.IsInf(est, 0):
			case est > bound+margin:
				return 1
			case est < bound-margin:
				return -1
			}
		}
	}
	c := 0.0 // stats.CoV is 0 below two values
	if n >= 2 {
		c = stats.CoV(xs)
	}
	switch {
	case c > bound:
		return 1
	case c <= bound:
		return -1
	}
	return 0
}

// verdict is trendVerdict with the slope_vs_scatter shortcut: a series
// whose |relative drift| is below 0.15 cannot drift, so it is steady
// without computing the exact residual scatter.
func verdict(algo TrendGate, xs []float64, minN int, alpha float64, tmp []float64) stats.Verdict {
	if len(xs) >= minN && len(xs) >= stats.MinTrendN && algo == TrendSlopeVsScatter {
		if math.Abs(relDrift(xs, tmp)) < stats.RelDriftThreshold {
			return stats.VerdictSteady
		}
	}
	return trendVerdict(algo, xs, minN, alpha)
}
