package stats

import "math"

// NeweyWestResult is an OLS slope with a Newey–West (HAC, Bartlett kernel)
// standard error.
type NeweyWestResult struct {
	N     int
	Slope float64 // OLS slope (detector §7.4)
	Lags  int     // bandwidth L used
	// SE is √(Ω/Sxx²), or 0 when Ω ≤ 0 (as the reference). T = Slope/SE and
	// P = NormalTwoSidedP(T) (statsmodels' default normal p-value); both are
	// NaN when SE is 0.
	SE, T, P float64
	// Degenerate marks an exact fit (see OLSResult.Degenerate); SE, T and P
	// are then rounding noise.
	Degenerate bool
}

// NeweyWestLags returns the Newey–West (1994) rule-of-thumb bandwidth the
// reference and statsmodels use,
//
//	L = max(1, ⌊4·(n/100)^(2/9)⌋)
//
// computed with GlibcPow as the reference's double pow, so it is 15 at
// n = 51 200 where Go's math.Pow would give 16 (detector §7.5).
func NeweyWestLags(n int) int {
	l := int(math.Floor(4 * GlibcPow(float64(n)/100.0, 2.0/9.0)))
	return max(1, l)
}

// NeweyWest returns the OLS slope of xs on t = 0…n−1 with a Newey–West
// standard error, as the reference computes it (detector §7.5; statsmodels
// cov_type HAC without small-sample correction, statistics.md §5):
//
//	u_t = (t − x̄)·e_t
//	Ω   = Σu_t² + Σ_{ℓ=1}^{min(L,n−1)} (2·(1 − ℓ/(L+1)))·Σ_{t=ℓ}^{n−1} u_t·u_{t−ℓ}
//	Var = Ω / (Sxx·Sxx)
//
// with compensated inner sums and a running outer sum. maxLags < 0 selects
// NeweyWestLags(n); maxLags == 0 uses no lag terms. For n < 2 SE, T and P are
// NaN. The arithmetic follows the reference's order, so the result is
// bit-exact with it.
func NeweyWest(xs []float64, maxLags int) NeweyWestResult {
	return neweyWestFrom(olsFit(xs), maxLags)
}

// neweyWestFrom is NeweyWest given the series' fit.
func neweyWestFrom(ols OLSResult, maxLags int) NeweyWestResult {
	r := neweyWestNoP(ols, maxLags)
	if r.SE != 0 && !math.IsNaN(r.SE) {
		r.P = NormalTwoSidedP(r.T)
	}
	return r
}

// neweyWestNoP is neweyWestFrom without the p-value (NaN), which Verdict
// does not read (it uses the reference's expression of p).
func neweyWestNoP(ols OLSResult, maxLags int) NeweyWestResult {
	n := ols.N
	nan := math.NaN()
	r := NeweyWestResult{N: n, Slope: ols.Slope, SE: nan, T: nan, P: nan, Degenerate: ols.Degenerate}
	if maxLags < 0 {
		maxLags = NeweyWestLags(n)
	}
	r.Lags = maxLags
	if n < 2 || ols.Sxx == 0 {
		return r
	}
	var ubuf, pbuf [smallSeriesMax]float64
	u, prod := ubuf[:0], pbuf[:0]
	if n > smallSeriesMax {
		u, prod = make([]float64, 0, n), make([]float64, 0, n)
	}
	u, prod = u[:n], prod[:n]
	for t, e := range ols.Residuals {
		u[t] = (float64(t) - ols.XBar) * e
	}
	for t, v := range u {
		prod[t] = v * v
	}
	omega := Sum(prod)
	for l := 1; l <= min(maxLags, n-1); l++ {
		w := 1.0 - float64(l)/(float64(maxLags)+1.0)
		p := prod[:0]
		for t := l; t < n; t++ {
			p = append(p, u[t]*u[t-l])
		}
		omega += float64((2.0 * w) * Sum(p))
	}
	v := omega / (ols.Sxx * ols.Sxx)
	r.SE = 0
	if v > 0 {
		r.SE = math.Sqrt(v)
	}
	if r.SE != 0 {
		r.T = r.Slope / r.SE
	}
	return r
}

// Verdict returns the reference's newey_west verdict (detector §7.5):
// VerdictInsufficient for N < MinTrendN; the direction of the slope when
// SE == 0 (a perfectly straight line); otherwise up/down when the reference's
// p = 2·(1 − Φ(|T|)) is below alpha, else steady.
func (r NeweyWestResult) Verdict(alpha float64) Verdict { return r.Significance().Verdict(alpha) }

// Significance is Verdict as a function of alpha (its p-value computed
// once).
func (r NeweyWestResult) Significance() Significance {
	s, z := r.zTest()
	if !s.Fixed {
		s.P = normalTwoSidedPRef(z)
	}
	return s
}

// zTest is Significance without its p-value: the fixed verdict, or the
// effect and the statistic (T) whose two-sided normal p-value decides it.
func (r NeweyWestResult) zTest() (Significance, float64) {
	if r.N < MinTrendN {
		return Significance{Fixed: true, V: VerdictInsufficient}, 0
	}
	if math.IsNaN(r.SE) {
		return Significance{Fixed: true, V: VerdictSteady}, 0 // Sxx == 0: cannot happen for n ≥ 2
	}
	if r.SE == 0 {
		return Significance{Fixed: true, V: direction(r.Slope)}, 0
	}
	return Significance{Effect: r.Slope}, r.T
}
