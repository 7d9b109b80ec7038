package core

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// growingSeries holds a gated metric's values over a window that grows
// from one start, with what the admissibility tests need kept up to date
// as it grows (issue 32: a plateau of P super-passes cost O(P²) when every
// grown window was tested from scratch):
//
//   - the values in order and sorted (the median without a selection);
//   - the prefix sums Σx and Σx² as hasStep and hasNoiseStep form them
//     (the same additions in the same order, so the same bits);
//   - double-double running sums of x, x² and t·x (t = 0, 1, … from the
//     window's start), from which the CoV and the OLS slope are estimated
//     in O(1) to about 1e−30 relative.
//
// A decision the estimate leaves within a margin far above its error
// (covMargin, driftMargin) is taken by the exact O(n) function, so every
// decision is the exact function's.
type growingSeries struct {
	vals, sorted []float64
	s1, s2       []float64 // s1[i], s2[i]: Σ and Σ² of vals[:i]
	sum, sumSq   ddFloat
	sumTX        ddFloat
	nonFinite    bool // a value is NaN or ±Inf: the estimates are not used
}

// reserve gives the series room for n values, its four lists cut from one
// array: grown by append from empty, each left a slice of every
// power-of-two size behind (fresh memory in as many size classes, a
// page fault or two each), and a longer window still appends past it.
func (w *growingSeries) reserve(n int) {
	buf := make([]float64, 4*n+2)
	w.vals, w.sorted = buf[:0:n], buf[n:n:2*n]
	w.s1, w.s2 = buf[2*n:2*n:3*n+1], buf[3*n+1:3*n+1:4*n+2]
}

func (w *growingSeries) reset() {
	w.vals, w.sorted = w.vals[:0], w.sorted[:0]
	w.s1, w.s2 = append(w.s1[:0], 0), append(w.s2[:0], 0)
	w.sum, w.sumSq, w.sumTX, w.nonFinite = ddFloat{}, ddFloat{}, ddFloat{}, false
}

func (w *growingSeries) push(x float64) {
	if len(w.s1) == 0 {
		w.reset()
	}
	t := float64(len(w.vals))
	w.vals = append(w.vals, x)
	i, _ := slices.BinarySearch(w.sorted, x)
	w.sorted = slices.Insert(w.sorted, i, x)
	n := len(w.s1) - 1
	w.s1, w.s2 = append(w.s1, w.s1[n]+x), append(w.s2, w.s2[n]+x*x)
	w.sum.add(x)
	w.sumSq.addProd(x, x)
	w.sumTX.addProd(t, x)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		w.nonFinite = true
	}
}

// median is stats.Median(vals): the middle value, or the mean of the two
// middle values, of the sorted values (a zero or NaN is recomputed by
// stats.Median, whose signed-zero order follows Python's stable sort).
func (w *growingSeries) median() float64 {
	n := len(w.sorted)
	var m float64
	if n%2 == 1 {
		m = w.sorted[n/2]
	} else {
		m = (w.sorted[n/2-1] + w.sorted[n/2]) / 2
	}
	if m == 0 || m != m {
		return stats.Median(w.vals)
	}
	return m
}

// covMargin is how far (relative to the bound, plus an absolute 1e−12)
// the estimated CoV must lie from a bound for the estimate to decide; the
// estimate's error is below 1e−15 relative for any finite series.
const covMargin = 1e-8

// covVersus is covVersus(vals, bound): +1 when the CoV exceeds bound, −1
// when it is at most bound, 0 when neither holds.
func (w *growingSeries) covVersus(bound float64) int {
	n := float64(len(w.vals))
	if len(w.vals) >= 2 && !w.nonFinite && !math.IsNaN(bound) && !math.IsInf(bound, 0) && w.sum.hi != 0 {
		// n·Σx² − (Σx)² = n²·variance, exact to double-double rounding.
		d := w.sumSq.mulFloat(n).sub(w.sum.square())
		if d.hi >= 0 {
			est := math.Sqrt(d.hi) / math.Abs(w.sum.hi)
			margin := covMargin*math.Abs(bound) + 1e-12
			switch {
			case est > bound+margin:
				return 1
			case est < bound-margin:
				return -1
			}
		}
	}
	return covVersus(w.vals, bound)
}

// driftMargin is covMargin for the relative drift: how far (relative to
// the floor, plus an absolute 1e−12) the estimate must lie from it.
const driftMargin = 1e-8

// driftAtLeast reports |relDrift(vals)| ≥ floor. tmp is scratch space
// for the exact computation.
func (w *growingSeries) driftAtLeast(floor float64, tmp []float64) bool {
	n := len(w.vals)
	if n >= 3 && !w.nonFinite && !math.IsNaN(floor) {
		fn := float64(n)
		// Sxy = Σ t·x − x̄·Σx with x̄ = (n−1)/2 (exact); Sxx = n(n²−1)/12.
		sxy := w.sumTX.sub(w.sum.mulFloat((fn - 1) / 2)).hi
		sxx := fn * (fn*fn - 1) / 12
		m := w.median()
		if m == 0 {
			m = stats.ZeroMedianFloor
		}
		if est := math.Abs(sxy / sxx * (fn - 1) / m); !math.IsNaN(est) && !math.IsInf(est, 0) {
			margin := driftMargin*math.Abs(floor) + 1e-12
			switch {
			case est > floor+margin:
				return true
			case est < floor-margin:
				return false
			}
		}
	}
	return math.Abs(relDrift(w.vals, tmp)) >= floor
}

// ddFloat is a double-double number hi + lo (|lo| ≤ ulp(hi)/2): about 106
// bits of significand, enough for running sums whose differences cancel
// most of their digits.
type ddFloat struct{ hi, lo float64 }

// twoSum returns s = fl(a+b) and the exact error e = a + b − s (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bv := s - a
	return s, (a - (s - bv)) + (b - bv)
}

// renorm returns hi + lo as a normalised ddFloat (|lo| ≤ ulp(hi)/2).
func renorm(hi, lo float64) ddFloat {
	s := hi + lo
	return ddFloat{s, lo - (s - hi)}
}

func (x *ddFloat) add(y float64) {
	s, e := twoSum(x.hi, y)
	*x = renorm(s, e+x.lo)
}

// addProd adds a·b exactly (math.FMA gives the product's rounding error).
func (x *ddFloat) addProd(a, b float64) {
	p := a * b
	e := math.FMA(a, b, -p)
	x.add(p)
	x.add(e)
}

func (x ddFloat) sub(y ddFloat) ddFloat {
	s, e := twoSum(x.hi, -y.hi)
	return renorm(s, e+x.lo-y.lo)
}

func (x ddFloat) mulFloat(f float64) ddFloat {
	p := x.hi * f
	return renorm(p, math.FMA(x.hi, f, -p)+x.lo*f)
}

func (x ddFloat) square() ddFloat {
	p := x.hi * x.hi
	return renorm(p, math.FMA(x.hi, x.hi, -p)+2*x.hi*x.lo)
}
