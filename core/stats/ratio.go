package stats

import "math"

// RatioCI returns the ratio estimator R = Σy / Σx of k paired batch totals
// (y_i, x_i) and its two-sided 95 % confidence interval by the delta
// method, the interval of the regenerative and batch-means methods of
// simulation output analysis for a ratio of means (Crane & Iglehart 1975,
// "Simulating stable stochastic systems III", Oper. Res. 23(1); Cochran
// 1977, Sampling Techniques, 3rd ed., ch. 6, the ratio estimator's
// variance):
//
//	R   = Σy / Σx
//	s²  = Σ (y_i − R·x_i)² / (k − 1)
//	se  = s / (x̄·√k),   x̄ = Σx / k
//	lo, hi = R ∓ TCritical95(k − 1)·se
//
// The residuals y_i − R·x_i weigh each batch by its own denominator, so a
// batch with a tiny x_i contributes a tiny residual instead of dominating
// the interval as the mean of the per-batch ratios y_i/x_i would. The
// interval is centred on R and contains it. It is not truncated: a caller
// whose ratio cannot be negative decides what a lower bound ≤ 0 means.
//
// Special cases are:
//
//	R = NaN                 if k == 0, len(y) != len(x), Σx ≤ 0 or any value is not finite
//	lo = hi = NaN           if k < 2 (no variance) or R is NaN
func RatioCI(y, x []float64) (r, lo, hi float64) {
	nan := math.NaN()
	k := len(y)
	if k == 0 || len(x) != k {
		return nan, nan, nan
	}
	for i := range y {
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) || math.IsNaN(x[i]) || math.IsInf(x[i], 0) {
			return nan, nan, nan
		}
	}
	sy, sx := Sum(y), Sum(x)
	if !(sx > 0) {
		return nan, nan, nan
	}
	r = sy / sx
	if k < 2 {
		return r, nan, nan
	}
	res := make([]float64, k)
	for i := range y {
		d := y[i] - r*x[i]
		res[i] = d * d
	}
	s := math.Sqrt(Sum(res) / float64(k-1))
	se := s / (sx / float64(k) * math.Sqrt(float64(k)))
	hw := TCritical95(k-1) * se
	return r, r - hw, r + hw
}
