package calibration

import (
	"math"
	"slices"
)

// Quantile returns the q-quantile of xs by linear interpolation between
// order statistics (R type 7, NumPy's default):
//
//	h = (n−1)·q;  Q = x₍⌊h⌋₎ + (h−⌊h⌋)·(x₍⌊h⌋+1₎ − x₍⌊h⌋₎)
//
// over the sorted values, 0-indexed. NaN values are ignored. Special
// cases are: NaN for no values or q outside [0, 1]. xs is not modified.
func Quantile(xs []float64, q float64) float64 {
	if q < 0 || q > 1 || math.IsNaN(q) {
		return math.NaN()
	}
	s := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	h := float64(len(s)-1) * q
	i := int(math.Floor(h))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}
