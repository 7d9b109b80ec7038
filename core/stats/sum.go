package stats

import "math"

// Sum returns the sum of xs computed as Python 3.12's built-in sum over floats
// (detector §5.1): a Neumaier-compensated sum
//
//	f = x_0, c = 0
//	for each further x: t = f + x
//	    c += (f - t) + x  if |f| >= |x|
//	    c += (x - t) + f  otherwise
//	    f = t
//	result = f + c if c != 0 and c is finite, else f
//
// The first term is added to +0 as Python's integer start value is, so
// Sum([-0]) is +0. Sum of an empty slice is 0.
func Sum(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	zero := 0.0
	f := zero + xs[0]
	c := 0.0
	for _, x := range xs[1:] {
		t := f + x
		if math.Abs(f) >= math.Abs(x) {
			c += (f - t) + x
		} else {
			c += (x - t) + f
		}
		f = t
	}
	if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
		return f + c
	}
	return f
}

// Mean returns the arithmetic mean Sum(xs)/len(xs) (detector §5.1), with the
// compensated Sum. Mean of an empty slice is NaN.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return Sum(xs) / float64(len(xs))
}
