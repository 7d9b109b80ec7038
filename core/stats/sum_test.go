package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// neumaier is Sum's documented formula on one slice, written out
// independently: the oracle of the tests below.
func neumaier(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	f, c := 0.0+xs[0], 0.0
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

// TestSummerMatchesSumOfConcatenation: a Summer fed a list in random
// pieces (empty ones included) returns the bits Sum and the formula give
// on the whole list, on every shape (cancellation, zeros of both signs,
// infinities, NaN).
func TestSummerMatchesSumOfConcatenation(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 16))
	shapes := floatShapes(rng)
	shapes["cancel"] = []float64{1e16, 1, -1e16, 1, 3e-300, -0.5}
	shapes["neg-zero"] = []float64{math.Copysign(0, -1)}
	shapes["inf-first"] = []float64{math.Inf(1), 2, 3}
	shapes["empty"] = nil
	for name, xs := range shapes {
		want := neumaier(xs)
		if got := Sum(xs); !sameFloat(got, want) {
			t.Errorf("%s: Sum %v, want %v", name, got, want)
		}
		for trial := range 20 {
			var s Summer
			for rest := xs; ; {
				k := 0
				if len(rest) > 0 {
					k = rng.IntN(len(rest) + 1)
				}
				s.Add(rest[:k])
				rest = rest[k:]
				if len(rest) == 0 && (k == 0 || trial%2 == 0) {
					break
				}
			}
			if got := s.Sum(); !sameFloat(got, want) {
				t.Fatalf("%s (trial %d): Summer %v, want %v", name, trial, got, want)
			}
		}
	}
}
