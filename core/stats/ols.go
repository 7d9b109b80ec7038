package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// OLSResult is an ordinary least-squares fit of a series on t = 0…n−1.
type OLSResult struct {
	N         int
	Slope     float64 // Sxy/Sxx (0 if Sxx == 0)
	Intercept float64 // ȳ − Slope·x̄
	XBar      float64 // (n−1)/2
	YBar      float64 // compensated mean
	Sxx       float64 // Σ(t − x̄)² (exact)
	Sxy       float64 // Σ(t − x̄)(y_t − ȳ), compensated
	Residuals []float64
	RSS       float64 // Σe², compensated
	TSS       float64 // Σ(y − ȳ)², compensated
	// SE, T and P are the nonrobust slope statistics (statsmodels/R lm):
	// SE = √(RSS/(n−2)/Sxx), T = Slope/SE and P the two-sided Student-t
	// p-value with n−2 degrees of freedom. NaN for n < 3, and T and P are
	// NaN when SE is 0.
	SE, T, P float64
	// Degenerate marks an exact fit (a constant series or a straight line):
	// TSS == 0 or RSS ≤ 1e-20·TSS, the convention of stats.json. Its SE, T
	// and P are rounding noise and should not be interpreted; the trend
	// verdicts then follow the sign of the slope, as the reference does.
	Degenerate bool
}

// OLS returns the least-squares line through (t, xs[t]), t = 0…n−1, computed
// as the reference's helper (detector §7.4):
//
//	x̄ = (n−1)/2,  ȳ = Σy/n,  Sxx = Σ(t − x̄)²,  Sxy = Σ(t − x̄)(y_t − ȳ)
//	slope = Sxy/Sxx,  a = ȳ − slope·x̄,  e_t = y_t − (a + slope·t)
//
// with each product rounded and the sums compensated (Sum), so Slope,
// Intercept and Residuals are bit-exact with the reference. OLS of an empty
// series has NaN fields.
func OLS(xs []float64) OLSResult {
	r := olsFit(xs)
	if n := r.N; n >= 3 && r.Sxx > 0 {
		df := float64(n - 2)
		r.SE = math.Sqrt(r.RSS / df / r.Sxx)
		if r.SE > 0 {
			r.T = r.Slope / r.SE
			r.P = studentTwoSidedP(r.T, df)
		}
	}
	return r
}

// olsFit is OLS without the slope's SE, T and P (NaN): what Newey–West and
// slope-vs-scatter read, without the Student-t p-value's incomplete beta.
func olsFit(xs []float64) OLSResult { return olsFitInto(xs, make([]float64, len(xs))) }

// olsFitInto is olsFit with the residuals written to resid (as long as
// xs), which the result's Residuals then is.
func olsFitInto(xs, resid []float64) OLSResult {
	n := len(xs)
	nan := math.NaN()
	if n == 0 {
		return OLSResult{Slope: nan, Intercept: nan, XBar: nan, YBar: nan, Sxx: nan, Sxy: nan,
			RSS: nan, TSS: nan, SE: nan, T: nan, P: nan}
	}
	xbar := float64(n-1) / 2.0
	ybar := Mean(xs)
	var buf [smallSeriesMax]float64
	tmp := buf[:0]
	if n > len(buf) {
		tmp = make([]float64, n)
	}
	tmp = tmp[:n]
	for t := range n {
		d := float64(t) - xbar
		tmp[t] = d * d // exact: half-integer squares
	}
	sxx := Sum(tmp)
	for t, y := range xs {
		tmp[t] = (float64(t) - xbar) * (y - ybar)
	}
	sxy := Sum(tmp)
	slope := 0.0
	if sxx != 0 {
		slope = sxy / sxx
	}
	a := ybar - float64(slope*xbar) // float64(): never fused (see libm.go)
	for t, y := range xs {
		resid[t] = y - (a + float64(slope*float64(t)))
	}
	for t, e := range resid {
		tmp[t] = e * e
	}
	rss := Sum(tmp)
	for t, y := range xs {
		d := y - ybar
		tmp[t] = d * d
	}
	tss := Sum(tmp)
	return OLSResult{
		N: n, Slope: slope, Intercept: a, XBar: xbar, YBar: ybar, Sxx: sxx, Sxy: sxy,
		Residuals: resid, RSS: rss, TSS: tss, SE: nan, T: nan, P: nan,
		Degenerate: tss == 0 || rss <= 1e-20*tss,
	}
}

// studentTwoSidedP returns P(|T_df| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).
func studentTwoSidedP(t, df float64) float64 {
	if math.IsNaN(t) || !(df > 0) {
		return math.NaN()
	}
	if math.IsInf(t, 0) {
		return 0
	}
	x := df / (df + float64(t*t))
	return mathext.RegIncBeta(df/2, 0.5, x)
}

// RelDrift returns the reference's relative drift (detector §7.7): the OLS
// fitted total change over the median,
//
//	(slope·(n−1)) / median(xs)
//
// with the median replaced by ZeroMedianFloor when it is exactly 0. RelDrift
// is 0 for fewer than two values, as in the reference. Bit-exact.
func RelDrift(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	return olsFit(xs).Slope * float64(n-1) / medianOrFloor(xs)
}
