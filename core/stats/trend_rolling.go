package stats

import "math"

// RollingTrendVerdicts calls fn(lo, TrendVerdicts(xs[lo:lo+w], alpha)) for
// every window lo = 0 … len(xs)−w in order, until fn returns false (the
// diagnostics' rolling windows, detector §9: 10,000 super-passes make
// 10,000 windows per metric and size).
//
// Consecutive windows share w−1 values, so what depends only on the
// window's values as a set slides from one window to the next instead of
// being sorted again: the values in stable order (by value, then index —
// the order OrdinalRanks and Median sort into), from which the ordinal
// ranks, the tie groups and the median are read off, and the sorted
// pairwise slopes, whose median is Sen's slope (w − 1 slopes leave and
// w − 1 join per window). Every float is the expression TrendVerdicts
// evaluates, on the same values, so the verdicts are TrendVerdicts'
// (TestRollingTrendVerdicts is the oracle). A window holding a NaN or an
// infinity, and windows shorter than MinTrendN or longer than
// smallSeriesMax, go through TrendVerdicts itself.
func RollingTrendVerdicts(xs []float64, w int, alpha float64, fn func(lo int, v [5]Verdict) bool) {
	new(RollingTrend).Verdicts(xs, w, alpha, fn)
}

// RollingTrend is RollingTrendVerdicts with its sliding state kept for
// the next call: one value serves any number of calls, one at a time,
// its buffers grown to the largest window seen (a table of ten metrics
// and three window sizes made thirty sets of seven small buffers, each
// size class fresh memory).
type RollingTrend struct {
	rw   rollingWindow
	band zBand // the z-tests' band at the level of the last call
}

// Verdicts is RollingTrendVerdicts(xs, w, alpha, fn) on rt's state.
func (rt *RollingTrend) Verdicts(xs []float64, w int, alpha float64, fn func(lo int, v [5]Verdict) bool) {
	n := len(xs)
	if w <= 0 || w > n {
		return
	}
	if w < MinTrendN || w > smallSeriesMax {
		for lo := 0; lo+w <= n; lo++ {
			if !fn(lo, TrendVerdicts(xs[lo:lo+w], alpha)) {
				return
			}
		}
		return
	}
	rw := &rt.rw
	rw.init(xs, w)
	if !(rt.band.alpha == alpha && rt.band.ok) {
		rt.band = newZBand(alpha)
	}
	nwLags := NeweyWestLags(w)
	bad := 0 // non-finite values in the window
	for _, x := range xs[:w-1] {
		if !isFinite(x) {
			bad++
		}
	}
	valid := false // rw holds the previous window
	for lo := 0; lo+w <= n; lo++ {
		win := xs[lo : lo+w]
		if !isFinite(win[w-1]) {
			bad++
		}
		if lo > 0 && !isFinite(xs[lo-1]) {
			bad--
		}
		var v [5]Verdict
		switch {
		case bad > 0:
			v, valid = TrendVerdicts(win, alpha), false
		default:
			if valid {
				rw.slide(lo)
			} else {
				rw.build(lo)
				valid = true
			}
			v = rw.verdicts(nwLags, rt.band)
		}
		if !fn(lo, v) {
			return
		}
	}
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// rollingWindow is the sliding state of RollingTrendVerdicts: the window
// [lo, lo+w) of xs, its values in stable order (vals, with their indices
// into xs in idx) and its pairwise slopes sorted.
type rollingWindow struct {
	xs        []float64
	w, lo     int
	vals      []float64
	idx       []int
	slopes    []float64
	ranks     []float64
	acf, dev  []float64
	resid     []float64
	pairCount int
}

// Reserve grows rt's buffers for windows of up to w values, so that the
// calls of a table (window sizes in any order, say 4, 6, 8) grow them
// once, not at each larger size.
func (rt *RollingTrend) Reserve(w int) {
	if w >= MinTrendN && w <= smallSeriesMax {
		rt.rw.reserve(w)
	}
}

// reserve grows the buffers for a window of w values, the five float
// lists of w values cut from one array.
func (r *rollingWindow) reserve(w int) {
	if cap(r.vals) < w {
		f := make([]float64, 5*w)
		r.vals, r.ranks, r.acf = f[:0:w], f[w:2*w:2*w], f[2*w:3*w:3*w]
		r.dev, r.resid = f[3*w:4*w:4*w], f[4*w:5*w:5*w]
		r.idx = make([]int, 0, w)
	}
	if pc := w * (w - 1) / 2; cap(r.slopes) < pc {
		r.slopes = make([]float64, 0, pc)
	}
}

// init sets the window size w over xs, reusing the buffers of an earlier
// init when they are large enough.
func (r *rollingWindow) init(xs []float64, w int) {
	r.xs, r.w = xs, w
	r.pairCount = w * (w - 1) / 2
	r.reserve(w)
	r.vals, r.idx, r.slopes = r.vals[:0], r.idx[:0], r.slopes[:0]
	r.ranks, r.acf, r.dev, r.resid = r.ranks[:w], r.acf[:w-1], r.dev[:w], r.resid[:w]
}

// build fills the state for the window at lo from scratch.
func (r *rollingWindow) build(lo int) {
	r.lo = lo
	r.vals, r.idx, r.slopes = r.vals[:0], r.idx[:0], r.slopes[:0]
	for i := lo; i < lo+r.w; i++ {
		r.insertValue(i)
		for j := lo; j < i; j++ {
			r.insertSlope(r.slope(j, i))
		}
	}
}

// slide moves the state from the window at lo−1 to the one at lo.
func (r *rollingWindow) slide(lo int) {
	p, q := lo-1, lo+r.w-1 // leaves, joins
	for j := p + 1; j < q; j++ {
		r.removeSlope(r.slope(p, j))
	}
	for i, x := range r.idx {
		if x == p {
			r.vals = append(r.vals[:i], r.vals[i+1:]...)
			r.idx = append(r.idx[:i], r.idx[i+1:]...)
			break
		}
	}
	r.insertValue(q)
	for i := lo; i < q; i++ {
		r.insertSlope(r.slope(i, q))
	}
	r.lo = lo
}

// slope is the computed slope of the pair i < j, as sensSlopeAllPairs
// computes it.
func (r *rollingWindow) slope(i, j int) float64 { return (r.xs[j] - r.xs[i]) / float64(j-i) }

// insertValue inserts index q, larger than every index held, after the
// values equal to its own (stable order).
func (r *rollingWindow) insertValue(q int) {
	v := r.xs[q]
	k := len(r.vals)
	for k > 0 && r.vals[k-1] > v {
		k--
	}
	r.vals = append(r.vals, 0)
	r.idx = append(r.idx, 0)
	copy(r.vals[k+1:], r.vals[k:])
	copy(r.idx[k+1:], r.idx[k:])
	r.vals[k], r.idx[k] = v, q
}

// insertSlope inserts a slope into the sorted slopes.
func (r *rollingWindow) insertSlope(s float64) {
	k := upperBound(r.slopes, s)
	r.slopes = append(r.slopes, 0)
	copy(r.slopes[k+1:], r.slopes[k:])
	r.slopes[k] = s
}

// removeSlope removes one slope equal to s (equal finite floats are the
// same float, up to the sign of a zero, which no verdict reads).
func (r *rollingWindow) removeSlope(s float64) {
	lo, hi := 0, len(r.slopes)
	for lo < hi { // the first slope ≥ s
		mid := int(uint(lo+hi) >> 1)
		if r.slopes[mid] < s {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	r.slopes = append(r.slopes[:lo], r.slopes[lo+1:]...)
}

// upperBound is the first index of sorted holding a value > v.
func upperBound(sorted []float64, v float64) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if sorted[mid] <= v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// verdicts is TrendVerdicts of the window held.
func (r *rollingWindow) verdicts(nwLags int, band zBand) [5]Verdict {
	w := r.w
	win := r.xs[r.lo : r.lo+w]
	s := mkSPairs(win)
	var tie int64
	for i := 0; i < w; {
		j := i + 1
		for j < w && r.vals[j] == r.vals[i] {
			j++
		}
		t := int64(j - i)
		tie += t * (t - 1) * (2*t + 5)
		i = j
	}
	v0 := mkVarianceOf(int64(w), tie)
	for pos, i := range r.idx {
		r.ranks[i-r.lo] = float64(pos + 1)
	}
	c, _ := hamedRaoCorrection(r.ranks, nil, r.acf, r.dev)
	m := medianSorted(r.vals) // Median: the stable order's middle
	if m == 0 {
		m = ZeroMedianFloor
	}
	ts := theilSenVerdictOf(medianSorted(r.slopes), w, m)
	return verdictsOf(w, s, v0, c, olsFitInto(win, r.resid), nwLags, m, ts, band)
}
