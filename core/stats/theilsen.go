package stats

import "math"

// SensSlope returns the Theil–Sen slope of xs against t = 0…n−1 (detector
// §7.3; statistics.md §2): the median of all pairwise slopes
//
//	(x_j − x_i)/(j − i),  i < j
//
// (Median's even-count rule). Slopes of tied pairs count as 0. SensSlope is
// NaN for fewer than two values. Bit-exact with the reference.
func SensSlope(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return math.NaN()
	}
	slopes := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n-1; i++ {
		for j := i + 1; j < n; j++ {
			slopes = append(slopes, (xs[j]-xs[i])/float64(j-i))
		}
	}
	return Median(slopes)
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
