package stats

import (
	"math"
	"slices"
)

// SensSlope returns the Theil–Sen slope of xs against t = 0…n−1 (detector
// §7.3; statistics.md §2): the median of all pairwise slopes
//
//	(x_j − x_i)/(j − i),  i < j
//
// (Median's even-count rule). Slopes of tied pairs count as 0. SensSlope is
// NaN for fewer than two values. Bit-exact with the reference.
//
// The reference forms all n(n−1)/2 slopes: 20,000 points take 1.6 GB. Up
// to sensAllPairsMax points SensSlope does the same; above, it selects the
// median slope exactly in O(n log n) expected time and O(n) memory
// (theilsen_select.go), the same float as the all-pairs median, for values
// in that method's domain — finite, |x| ≤ 2⁹⁶⁰, non-zero |x| ≥ 2⁻⁸⁰⁰ —
// except that a −0 counts as +0 there (only the sign of a zero median can
// tell). Outside the domain (NaN, ±Inf, extreme magnitudes) it forms all
// pairs up to sensOutOfDomainMax points and is NaN above.
func SensSlope(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return math.NaN()
	}
	if n > sensAllPairsMax {
		if selectDomain(xs) {
			return sensSlopeSelect(xs)
		}
		if n > sensOutOfDomainMax {
			return math.NaN()
		}
	}
	return sensSlopeAllPairs(xs)
}

// Where SensSlope switches from forming all pairs to selecting one.
const (
	// sensAllPairsMax: 32,640 slopes (255 KB), faster formed than selected.
	sensAllPairsMax = 256
	// sensOutOfDomainMax: 2.1 million slopes (17 MB), the most formed for
	// values outside the selection's domain.
	sensOutOfDomainMax = 2048
)

// sensSlopeSelect is SensSlope by exact selection (theilsen_select.go).
func sensSlopeSelect(xs []float64) float64 { return sensSlopeSelectBand(xs, 0) }

// sensSlopeSelectBand is sensSlopeSelect with the selector's maxBand set
// (0: its default); tests make it small to exercise the narrowing.
func sensSlopeSelectBand(xs []float64, maxBand int64) float64 {
	vals := slices.Clone(xs)
	for i, x := range vals {
		if x == 0 {
			vals[i] = 0 // −0 → +0: the domain's zeros are positive
		}
	}
	sel := newSlopeSelector(vals)
	if maxBand > 0 {
		sel.maxBand = maxBand
	}
	n := sel.pairs
	if n%2 == 1 {
		return sel.kth(n / 2)
	}
	lo, hi := sel.kth2(n/2-1, n/2)
	return (lo + hi) / 2
}

// sensSlopeAllPairs is SensSlope as the reference computes it: every
// pairwise slope, then their median. It is also the test oracle of
// sensSlopeSelect.
func sensSlopeAllPairs(xs []float64) float64 {
	n := len(xs)
	var buf [medianStackMax]float64
	slopes := buf[:0]
	if m := n * (n - 1) / 2; m > len(buf) {
		slopes = make([]float64, 0, m)
	}
	slopes = pairSlopes(slopes, xs)
	if n < 2 {
		return math.NaN() // Median of no slopes
	}
	// Median(slopes), selecting in slopes itself rather than in a copy
	// (they are this function's own); a zero or NaN median is redone from
	// the slopes in their order, as Median redoes it.
	m := medianSelect(slopes)
	if m == 0 || math.IsNaN(m) {
		slopes = pairSlopes(slopes, xs)
		slices.SortStableFunc(slopes, cmpFloat)
		m = medianSorted(slopes)
	}
	return m
}

// pairSlopes sets dst to the pairwise slopes of xs in the reference's
// order, (x_j − x_i)/(j − i) for i < j by i then j.
func pairSlopes(dst, xs []float64) []float64 {
	dst = dst[:0]
	n := len(xs)
	for i := 0; i < n-1; i++ {
		for j := i + 1; j < n; j++ {
			dst = append(dst, (xs[j]-xs[i])/float64(j-i))
		}
	}
	return dst
}

// SensIntercept returns the Conover intercept pymannkendall reports with
// Sen's slope, on the 0-based time axis:
//
//	median(x) − ((n−1)/2)·slope
func SensIntercept(xs []float64, slope float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	return Median(xs) - float64(float64(n-1)/2*slope)
}

// medianOrFloor returns Median(xs), or ZeroMedianFloor if it is exactly 0
// (the reference's `median or 1e-9`; a NaN median stays NaN).
func medianOrFloor(xs []float64) float64 {
	m := Median(xs)
	if m == 0 {
		return ZeroMedianFloor
	}
	return m
}

// TheilSenRelDrift returns the reference theil_sen's relative drift (detector
// §7.3): (SensSlope(xs)·(n−1)) / median(xs), the median floored at
// ZeroMedianFloor when it is 0. NaN for fewer than two values.
func TheilSenRelDrift(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return math.NaN()
	}
	return SensSlope(xs) * float64(n-1) / medianOrFloor(xs)
}
