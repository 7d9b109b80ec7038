package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// mserStart is the MSER choice among the trims [s, hi) of the window
// [lo, hi) keeping at least minN super-passes: the first s minimising the
// standard error SE(s) = σ/√n of the per-super-pass TPOT means (empty
// super-passes skipped; White 1997, design §5.5 "select by precision").
// It returns s with SE(lo) and SE(s); s = lo when nothing is computable.
//
// σ is the exact PStdev, O(n) per trim. To stay O(n) over all trims
// (issue 32) every trim's SE is first estimated from double-double suffix
// sums (error far below 1e−14 of the level), and the exact SE is computed
// only for the untrimmed window and the trims whose estimate is within
// mserMargin of the least estimate: the others are certainly larger than
// the least SE, so the first minimum is among those computed.
func mserStart(pct []*spPercentiles, lo, hi, minN int, stop *stopper) (s int, seFull, seBest float64) {
	var means []float64
	for i := lo; i < hi; i++ {
		if pct[i].ok[mTPOTP50] {
			means = append(means, pct[i].tpotMean)
		} else {
			means = append(means, math.NaN())
		}
	}
	s, seFull, seBest = lo, math.NaN(), math.Inf(1)
	candidate := mserCandidates(means, minN)
	xs := make([]float64, 0, len(means))
	for k := 0; k+minN <= len(means); k++ {
		if k > 0 && candidate != nil && !candidate[k] {
			continue
		}
		if stop.failed() {
			break
		}
		xs = xs[:0]
		for _, v := range means[k:] {
			if !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		if len(xs) < 2 {
			continue
		}
		se := stats.PStdev(xs) / math.Sqrt(float64(len(xs)))
		if k == 0 {
			seFull = se
		}
		if se < seBest {
			s, seBest = lo+k, se
		}
	}
	if math.IsInf(seBest, 1) {
		seBest = math.NaN()
	}
	return s, seFull, seBest
}

// mserMargin is how far above the least estimated SE (relative, plus
// 1e−13 of the largest |mean| for a near-zero σ) a trim's estimate may lie
// and still be computed exactly.
const mserMargin = 1e-8

// mserCandidates marks the trims k (k + minN ≤ len(means)) whose SE may be
// the least: nil (every trim) when a mean is infinite.
func mserCandidates(means []float64, minN int) []bool {
	m := len(means)
	est := make([]float64, m)
	var sum, sumSq ddFloat
	c, scale := 0, 0.0
	for k := m - 1; k >= 0; k-- {
		if x := means[k]; !math.IsNaN(x) {
			if math.IsInf(x, 0) {
				return nil
			}
			sum.add(x)
			sumSq.addProd(x, x)
			c++
			scale = math.Max(scale, math.Abs(x))
		}
		est[k] = math.Inf(1)
		if c >= 2 {
			// σ = √(c·Σx² − (Σx)²)/c, SE = σ/√c.
			fc := float64(c)
			d := sumSq.mulFloat(fc).sub(sum.square()).hi
			est[k] = math.Sqrt(math.Max(0, d)) / fc / math.Sqrt(fc)
		}
	}
	least := math.Inf(1)
	for k := 0; k+minN <= m; k++ {
		least = math.Min(least, est[k])
	}
	limit := least*(1+mserMargin) + 1e-13*scale
	out := make([]bool, m)
	for k := range out {
		out[k] = est[k] <= limit
	}
	return out
}

// guardrails fills the MSER, OLS/Newey–West corroboration and certifying
// ensemble settings of the reported window post[lo:hi] (post-relative).
func (a *analysis) guardrails(lo, hi int) {
	pct, p, rep := a.res.pct, a.p, &a.assess.Selection
	g := a.memo.guard(pct, lo, hi)
	rep.Certifying = certifying(g.cov, rep.Ensemble)
	start, _, _ := a.memo.mserStart(pct, lo, hi, p.MinTrendN, a.stop)
	rep.MSERStart, rep.MSERAgrees = NoSPIndex, start == lo
	if start >= 0 {
		rep.MSERStart = absSP(a.res.Warmup, start)
	}
	if len(trajectory(pct[lo:hi], mTPOTP50)) >= 3 {
		rep.OLSP, rep.NeweyWestP = g.olsP, g.nwP
		plateau := rep.States[mTPOTP50] == StatePlateau
		agree := func(pv float64) bool { return math.IsNaN(pv) || (pv >= p.Alpha) == plateau }
		rep.Corroborated = agree(rep.OLSP) && agree(rep.NeweyWestP)
	}
}
