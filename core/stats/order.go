package stats

import (
	"math"
	"slices"
)

// sortedCopy returns an ascending, stable-sorted copy of xs (equal values,
// such as −0 and +0, keep their input order as in Python's sorted).
func sortedCopy(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.SortStableFunc(s, cmpFloat)
	return s
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Median returns the median of xs (detector §5.3): the middle element of the
// stably sorted values for odd n, and (a + b)/2 of the two middle elements
// for even n. Median of an empty slice is NaN. xs is not modified. The order
// of NaN values is unspecified.
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := sortedCopy(xs)
	return medianSorted(s)
}

func medianSorted(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// PercentileLower returns the reference's percentile of an ascending slice
// (detector §5.4), an observed sample chosen by truncation:
//
//	sorted[trunc(p·(n−1))]
//
// with the product rounded to double first. There is no interpolation.
// The result is NaN if sorted is empty or p is NaN or outside [0, 1].
// The slice is not checked for order.
func PercentileLower(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	i := int(p * float64(n-1))
	return sorted[i]
}
