package stats

import "math"

// theil_sen's verdict of a long series without selecting its median slope.
//
// The verdict is a function of the median slope M alone (m, the floored
// median of the values, and n fixed): steady when |fl(fl(M·(n−1))/m)| <
// RelDriftThreshold, else the direction of that relative drift. That
// expression is monotone in M (rounding is monotone), so the steady slopes
// are one interval [sA, sB] of floats around 0, found by bisection over the
// float line evaluating the very expression. Whether M lies below, inside
// or above it is a question of ranks: the k-th smallest computed slope is
// below θ exactly when more than k computed slopes are, and the selector
// counts exact slopes below a threshold in O(n log n) (countBelow). Exact
// and computed slopes differ by at most 2.1u relative, so the count of
// exact slopes below θ(1 ∓ 2⁻⁴⁸) bounds the count of computed slopes below
// θ from both sides; when a bound leaves a rank undecided (the median
// within about 2⁻⁴⁸ of a boundary, or straddling one with the two middle
// slopes of an even count) the median is selected after all. Four counts
// instead of a selection's dozen or more: the verdict is the one the
// all-pairs median gives, by construction.

// theilSenVerdictOf is theil_sen's verdict from a Sen slope: steady if
// |slope·(n−1)/m| < RelDriftThreshold, else the direction of that
// relative drift (m is the floored median, never 0).
func theilSenVerdictOf(slope float64, n int, m float64) Verdict {
	rel := slope * float64(n-1) / m
	if math.Abs(rel) < RelDriftThreshold {
		return VerdictSteady
	}
	return direction(rel)
}

// theilSenVerdict is theilSenVerdictOf(SensSlope(xs), len(xs), m), by
// counting slopes instead of selecting their median: the selector's
// counts when the selection would run (theilSenVerdictByCount), the
// computed slopes themselves when all pairs would be formed
// (theilSenVerdictByPairs: no slope stored, no selection).
func theilSenVerdict(xs []float64, m float64) Verdict {
	n := len(xs)
	if n > sensAllPairsMax && selectDomain(xs) {
		if v, ok := theilSenVerdictByCount(xs, m); ok {
			return v
		}
	} else if n <= sensAllPairsMax {
		if v, ok := theilSenVerdictByPairs(xs, m); ok {
			return v
		}
	}
	return theilSenVerdictOf(SensSlope(xs), n, m)
}

// steadySlopes returns the interval [sA, sB] of the slopes theil_sen
// calls steady for n values of floored median m: sA the least steady
// float ≤ 0, sB the greatest ≥ 0 (0 is steady), found by bisection over
// the float line; ok is false when m is not a finite non-zero number or
// the interval is not a finite one around 0.
func steadySlopes(n int, m float64) (sA, sB float64, ok bool) {
	if math.IsNaN(m) || math.IsInf(m, 0) || m == 0 {
		return 0, 0, false
	}
	steady := func(s float64) bool { return theilSenVerdictOf(s, n, m) == VerdictSteady }
	zero := floatKey(0)
	sA = keyFloat(searchKey(floatKey(math.Inf(-1)), zero, func(k uint64) bool { return steady(keyFloat(k)) }))
	sB = keyFloat(searchKey(zero, floatKey(math.Inf(1)), func(k uint64) bool { return !steady(keyFloat(k)) }) - 1)
	if !(sA < 0 && sB > 0) || math.IsInf(sA, 0) || math.IsInf(sB, 0) {
		return 0, 0, false
	}
	return sA, sB, true
}

// middleVerdict is theil_sen's verdict from where the median of pairs
// slopes lies, given pos(k): where the k-th smallest computed slope lies
// (−1 below sA, 0 in [sA, sB], +1 above sB; ok false when left open).
// It is not ok when a position is open or the two middle slopes of an
// even count lie on two sides of a boundary (their mean must then be
// computed).
func middleVerdict(pairs int64, m float64, pos func(k int64) (int, bool)) (Verdict, bool) {
	k2 := pairs / 2
	k1 := k2
	if pairs%2 == 0 {
		k1 = k2 - 1
	}
	p1, ok1 := pos(k1)
	p2, ok2 := pos(k2)
	if !ok1 || !ok2 || p1 != p2 {
		// The median (a + b)/2 of slopes on two sides of a boundary: select.
		return VerdictInsufficient, false
	}
	// fl((a + b)/2) lies in [a, b], so on the side both middle slopes are.
	switch p1 {
	case 0:
		return VerdictSteady, true
	case 1:
		return direction(math.Copysign(1, m)), true // slope > sB > 0
	}
	return direction(-math.Copysign(1, m)), true // slope < sA < 0
}

// pairsMaxAbs bounds the values theilSenVerdictByPairs judges: their
// slopes, and the sum of two of them in the even median's mean, stay
// finite (|slope| ≤ 2¹⁰⁰¹), so fl((a + b)/2) lies in [a, b].
const pairsMaxAbs = 0x1p1000

// theilSenVerdictByPairs decides theil_sen's verdict of xs by counting
// its computed slopes — (x_j − x_i)/(j − i), the floats pairSlopes forms —
// below sA and up to sB (steadySlopes): the k-th smallest slope is below
// sA when more than k are, in [sA, sB] when more than k are at most sB.
// ok is false outside |x| ≤ pairsMaxAbs (NaN and ±Inf included), and
// when the two middle slopes of an even count straddle a boundary.
func theilSenVerdictByPairs(xs []float64, m float64) (Verdict, bool) {
	n := len(xs)
	for _, x := range xs {
		if !(math.Abs(x) <= pairsMaxAbs) {
			return VerdictInsufficient, false
		}
	}
	sA, sB, ok := steadySlopes(n, m)
	if !ok || n < 2 {
		return VerdictInsufficient, false
	}
	var below, atMost int64 // #{s < sA}, #{s ≤ sB}
	for i := 0; i < n-1; i++ {
		xi := xs[i]
		for j := i + 1; j < n; j++ {
			s := (xs[j] - xi) / float64(j-i)
			if s <= sB {
				atMost++
				if s < sA {
					below++
				}
			}
		}
	}
	return middleVerdict(int64(n)*int64(n-1)/2, m, func(k int64) (int, bool) {
		switch {
		case below > k:
			return -1, true
		case atMost > k:
			return 0, true
		}
		return 1, true
	})
}

// theilSenVerdictByCount decides theil_sen's verdict of xs (in the
// selection's domain) by counting slopes against the steady interval's
// ends; ok is false when the counts leave it open.
func theilSenVerdictByCount(xs []float64, m float64) (Verdict, bool) {
	n := len(xs)
	sA, sB, ok := steadySlopes(n, m)
	if !ok {
		return VerdictInsufficient, false
	}
	vals := make([]float64, n)
	for i, x := range xs {
		vals[i] = x
		if x == 0 {
			vals[i] = 0 // −0 → +0, as the selection (only a zero's sign differs)
		}
	}
	sel := newSlopeCounter(vals)
	// Counts of exact slopes below sA∓ and sB⁺∓ (sB⁺ the float after sB):
	// #{computed slopes < θ} lies in [count(θ−), count(θ+)]. Each is made
	// when first needed (a clearly steady or drifting median needs two or
	// three).
	var counts [4]int64
	var done [4]bool
	count := func(i int) int64 {
		if !done[i] {
			theta := sA
			if i >= 2 {
				theta = math.Nextafter(sB, math.Inf(1))
			}
			d := math.Abs(theta) * marginScale
			if i%2 == 0 {
				d = -d
			}
			counts[i], done[i] = sel.countBelow(theta+d, false), true
		}
		return counts[i]
	}
	aLo, aHi := func() int64 { return count(0) }, func() int64 { return count(1) }
	bLo, bHi := func() int64 { return count(2) }, func() int64 { return count(3) }
	// pos returns where the k-th smallest computed slope lies: −1 below sA,
	// 0 in [sA, sB], +1 above sB; ok false when a count leaves it open.
	pos := func(k int64) (int, bool) {
		switch {
		case aLo() > k: // more than k slopes below sA
			return -1, true
		case aHi() > k: // open
			return 0, false
		case bLo() > k: // at most k below sA, more than k ≤ sB
			return 0, true
		case bHi() <= k: // at most k slopes ≤ sB
			return 1, true
		}
		return 0, false
	}
	return middleVerdict(sel.pairs, m, pos)
}

// searchKey returns the least k in [lo, hi] with f(k) true, f monotone
// (false then true); hi when none below it is.
func searchKey(lo, hi uint64, f func(uint64) bool) uint64 {
	for lo < hi {
		mid := lo + (hi-lo)/2
		if f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
