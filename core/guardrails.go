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
	xs := make([]float64, 0, len(means))
	for k := 0; k+minN <= len(means); k++ {
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
