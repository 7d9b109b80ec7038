package stats

import (
	"math"
	"slices"
)

// sortedCopy returns an ascending, stable-sorted copy of xs (equal values,
// such as −0 and +0, keep their input order as in Python's sorted).
func sortedCopy(xs []float64) []float64 {
	s := slices.Clone(xs)
	var fs FloatSorter
	fs.Sort(s)
	// Only zeros can be equal yet distinguishable: restore their input
	// order, which a stable sort would have kept (NaN order is unspecified).
	lo, hi := -1, -1
	for i, x := range s {
		if x == 0 {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	if lo >= 0 && hi-lo > 1 {
		k := lo
		for _, x := range xs {
			if x == 0 {
				s[k] = x
				k++
			}
		}
	}
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
	var buf [medianStackMax]float64 // a short list is selected on the stack
	var s []float64
	if n <= len(buf) {
		s = buf[:n]
		copy(s, xs)
	} else {
		s = slices.Clone(xs)
	}
	m := medianSelect(s)
	if m == 0 || math.IsNaN(m) {
		// Only a zero's sign can depend on the order of equal values: redo
		// with a stable sort so −0/+0 come out as Python's sorted leaves them.
		copy(s, xs)
		slices.SortStableFunc(s, cmpFloat)
		m = medianSorted(s)
	}
	return m
}

// medianStackMax is the longest list Median copies to the stack (the
// diagnostics' windows and their Sen slopes) rather than to the heap.
const medianStackMax = 128

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

// medianSelect returns the median of s by quickselect, reordering s. Any NaN
// in s makes the result NaN (the caller then falls back to sorting).
func medianSelect(s []float64) float64 {
	for _, x := range s {
		if x != x {
			return math.NaN()
		}
	}
	n := len(s)
	k := n / 2
	hi := SelectKth(s, k)
	if n%2 == 1 {
		return hi
	}
	lo := s[0]
	for _, x := range s[1:k] {
		if x > lo {
			lo = x
		}
	}
	return (lo + hi) / 2
}

// SelectKth reorders s so that s[k] is the k-th smallest value (0-based),
// every s[i] with i < k is ≤ s[k] and every s[i] with i > k is ≥ s[k], and
// returns s[k]: quickselect with a median-of-three pivot and Hoare
// partition, sorting small ranges, and sorting the remaining range after
// 64 rounds so adversarial input cannot make it quadratic.
// s must not contain NaN; k must be in [0, len(s)).
func SelectKth(s []float64, k int) float64 {
	lo, hi := 0, len(s)-1
	for rounds := 0; hi-lo > 16 && rounds < 64; rounds++ {
		mid := lo + (hi-lo)/2
		a, b, c := s[lo], s[mid], s[hi]
		pivot := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for s[i] < pivot {
				i++
			}
			for s[j] > pivot {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	slices.Sort(s[lo : hi+1])
	return s[k]
}

// PercentileRankFromTop is the rank, counted from the largest (1), of the
// sample PercentileLower picks from n: n − trunc(p·(n−1)). A rank of 1 or
// 2 means the percentile is the largest or the second-largest sample, an
// order statistic of the tail alone: p90 up to n = 11, p99 up to n = 101.
// It is 0 for n < 1 or p outside [0, 1].
func PercentileRankFromTop(n int, p float64) int {
	if n < 1 || !(p >= 0 && p <= 1) {
		return 0
	}
	return n - int(p*float64(n-1))
}
