package core

import "math"

// splitPoint returns the index k in (lo, hi) minimising the residual sum
// of squares of a two-level fit of the per-super-pass TPOT means of
// post[lo:hi] (empty super-passes skipped): the first super-pass of the
// second level. −1 when fewer than two super-passes have TPOT.
//
// The fit's RSS at each split is sse(head) + sse(tail), as the reference
// design computed it: O(n) per split, O(n²) in all — minutes at 10,000
// super-passes of one sample. Above splitDirectMax points the RSS of every
// split comes instead from prefix sums in O(n), each with a bound on its
// distance from the computed one (splitCandidates); only the splits that
// bound cannot rule out — the near-minimal ones, a handful — are computed
// as before. So the split is the one the direct scan picks, ties to the
// first, bit for bit.
func splitPoint(pct []*spPercentiles, lo, hi int) int {
	idx, ys := tpotMeans(pct, lo, hi)
	if len(ys) < 2 {
		return -1
	}
	ks := splitCandidates(ys)
	best, bestRSS := -1, math.Inf(1)
	consider := func(k int) {
		if r := sse(ys[:k]) + sse(ys[k:]); r < bestRSS {
			best, bestRSS = idx[k], r
		}
	}
	if ks == nil {
		for k := 1; k < len(ys); k++ {
			consider(k)
		}
		return best
	}
	for _, k := range ks {
		consider(k)
	}
	return best
}

// splitDirectMax is the longest series splitPoint scans directly.
const splitDirectMax = 64

// splitCandidates returns, in increasing order, the splits k of ys (1 ≤
// k < n) whose computed RSS, sse(ys[:k]) + sse(ys[k:]), can be the least:
// every other split's is provably larger. nil means every split (short
// series, or values outside the domain of the bounds: non-finite, or of
// magnitude above 1e100 or, non-zero, below 1e-100).
//
// With d_i = fl(y_i − c) (c ≈ the mean) and naive prefix sums P1, P2 of d
// and d², A_k = Σ over both parts of (S2 − S1²/m) approximates the exact
// RSS R_k within F, from the standard bounds of recursive summation
// (|error| ≤ γ_n·Σ|terms|, γ_n ≈ n·u) applied to the prefix sums, their
// differences, the squares and quotients, and the perturbation of
// rounding d (‖η‖ ≤ u·√Q moves an SSE by at most 3u·Q). The computed RSS
// is within E_k of R_k: sse's compensated mean is off by at most about
// 5u·max|y|, its squares by 3u relative, its naive sum by (m−1)u
// relative, so E_k ≈ (n+5)u·R_k + n·(5u·max|y|)². A split with A_k − F −
// E_k above min_j(A_j + F + E_j) has a computed RSS above the least one.
// Every bound is taken with room (×1.2 or more).
func splitCandidates(ys []float64) []int {
	n := len(ys)
	if n <= splitDirectMax {
		return nil
	}
	maxAbs, sum := 0.0, 0.0
	for _, y := range ys {
		a := math.Abs(y)
		if !(a <= 1e100) || (a != 0 && a < 1e-100) {
			return nil
		}
		maxAbs = math.Max(maxAbs, a)
		sum += y
	}
	c := sum / float64(n)
	p1, p2 := make([]float64, n+1), make([]float64, n+1)
	dAbs, q := 0.0, 0.0
	for i, y := range ys {
		d := y - c
		p1[i+1], p2[i+1] = p1[i]+d, p2[i]+d*d
		dAbs += math.Abs(d)
		q += d * d
	}
	const u = 0x1p-53
	fn := float64(n)
	e1 := (2*fn + 4) * u * dAbs * 1.01
	e2 := (2*fn + 4) * u * q * 1.01
	seg := e2 + 5*u*q + 2*dAbs*e1 + e1*e1 + 3*u*dAbs*dAbs
	tiny := 1e-290 // underflow's absolute errors, with room
	f := 1.25*(2*seg+u*q) + tiny
	dMu := 5 * u * maxAbs * 1.01
	eAbs := 2*fn*dMu*dMu*1.25 + tiny
	eRel := 1.25 * (fn + 5) * u
	if math.IsInf(f, 0) || math.IsNaN(f) || math.IsInf(eAbs, 0) {
		return nil
	}
	approx := make([]float64, n)
	bound := math.Inf(1)
	for k := 1; k < n; k++ {
		s1l, s1r := p1[k], p1[n]-p1[k]
		s2l, s2r := p2[k]-p2[0], p2[n]-p2[k]
		a := (s2l - s1l*s1l/float64(k)) + (s2r - s1r*s1r/float64(n-k))
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil // not reached in the domain
		}
		approx[k] = a
		hi := a + f
		bound = math.Min(bound, hi+eRel*hi+eAbs)
	}
	var out []int
	for k := 1; k < n; k++ {
		lo := approx[k] - f
		if lo-eRel*math.Max(approx[k]+f, 0)-eAbs <= bound {
			out = append(out, k)
		}
	}
	return out
}
