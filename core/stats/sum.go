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
	var s Summer
	s.Add(xs)
	return s.Sum()
}

// Summer is Sum over a sequence given in pieces: after Add(a), Add(b), …
// its Sum is Sum of their concatenation, bit for bit, so a list pooled
// from several can be summed without pooling it. The zero Summer is empty.
type Summer struct {
	f, c    float64
	started bool
}

// Add appends xs to the sequence.
func (s *Summer) Add(xs []float64) {
	if len(xs) == 0 {
		return
	}
	f, c := s.f, s.c
	if !s.started {
		zero := 0.0
		f, xs, s.started = zero+xs[0], xs[1:], true
	}
	for _, x := range xs {
		t := f + x
		if math.Abs(f) >= math.Abs(x) {
			c += (f - t) + x
		} else {
			c += (x - t) + f
		}
		f = t
	}
	s.f, s.c = f, c
}

// Sum returns the compensated sum of the values added (0 for none).
func (s *Summer) Sum() float64 {
	if s.c != 0 && !math.IsInf(s.c, 0) && !math.IsNaN(s.c) {
		return s.f + s.c
	}
	return s.f
}

// Mean returns the arithmetic mean Sum(xs)/len(xs) (detector §5.1), with the
// compensated Sum. Mean of an empty slice is NaN.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return Sum(xs) / float64(len(xs))
}
