package stats

import "math"

// The published Hamed–Rao (1998) variants (statistics.md §3). They differ from
// the reference detector's HamedRao: the ranks are average ranks of the series
// detrended by Sen's slope, and the autocorrelation band is Φ⁻¹(0.975)/√n.
//
//	β       = SensSlope(x);  x'_i = x_i − β·i (i = 1…n)
//	r       = AverageRanks(x'),  ρ_k = biased ACF of r
//	sni     = Σ_{k significant} (n−k)(n−k−1)(n−k−2)·ρ_k
//	n/n*    = 1 + 2·sni/(n(n−1)(n−2))        (signed, paper form)
//	n/n*    = 1 + 2·|sni|/(n(n−1)(n−2))      (pymannkendall HEAD)
//	VarS    = Var₀(S)·n/n*
//
// A lag k is significant if |ρ_k| > Φ⁻¹(0.975)/√n (a value on the bound is
// excluded). These match the vectors' keys within floating-point tolerance
// (the ACF's summation order differs from numpy's).

// hrInternals are the intermediate values of the published Hamed–Rao
// correction (stats.json hamed_rao_internals).
type hrInternals struct {
	slope   float64   // Sen's slope used for detrending
	bound   float64   // Φ⁻¹(0.975)/√n
	zeroVar bool      // the ranks of the detrended series are all equal
	lags    []int     // significant lags, increasing
	rho     []float64 // their autocorrelations
	sni     float64   // Σ (n−k)(n−k−1)(n−k−2)·ρ_k over significant k
}

// hamedRaoInternals computes the published correction's internals over lags
// 1…maxLag (maxLag ≤ 0 or ≥ n means n−1).
func hamedRaoInternals(xs []float64, maxLag int) hrInternals {
	n := len(xs)
	if maxLag <= 0 || maxLag > n-1 {
		maxLag = n - 1
	}
	in := hrInternals{slope: SensSlope(xs), bound: z975 / math.Sqrt(float64(n))}
	det := make([]float64, n)
	for i, x := range xs {
		det[i] = x - float64(in.slope*float64(i+1))
	}
	r := AverageRanks(det)
	in.zeroVar = true
	for _, x := range r {
		if x != r[0] {
			in.zeroVar = false
			break
		}
	}
	if in.zeroVar {
		return in
	}
	rho, _ := rankACF(r, maxLag, nil)
	for k := 1; k <= maxLag; k++ {
		if math.Abs(rho[k-1]) > in.bound {
			in.lags = append(in.lags, k)
			in.rho = append(in.rho, rho[k-1])
			w := float64(n-k) * float64(n-k-1) * float64(n-k-2)
			in.sni += float64(w * rho[k-1])
		}
	}
	return in
}

func hamedRaoPublished(xs []float64, maxLag int, abs, nanOnZeroVar bool) MannKendallResult {
	n := len(xs)
	s := mkS(xs)
	v0 := mkVariance(xs)
	if n < 3 {
		return mkResult(n, s, math.NaN(), math.NaN())
	}
	in := hamedRaoInternals(xs, maxLag)
	sni := in.sni
	if in.zeroVar && nanOnZeroVar {
		// The ACF is 0/0: no lag counts (n/n* = 1), but v1.4.3's variance is NaN.
		return mkResult(n, s, math.NaN(), 1)
	}
	if abs {
		sni = math.Abs(sni)
	}
	c := 1 + 2*sni/(float64(n)*float64(n-1)*float64(n-2))
	return mkResult(n, s, v0*c, c)
}

// HamedRaoHead returns the Hamed–Rao test as pymannkendall's git HEAD
// computes it (stats.json keys hamed_rao_head_abs, and hamed_rao_head_abs_lag3
// with maxLag = 3): n/n* = 1 + 2·|sni|/(n(n−1)(n−2)), so the variance is only
// ever inflated, and zero rank variance (constant or exactly linear series)
// gives n/n* = 1. maxLag ≤ 0 uses every lag 1…n−1. For n < 3 VarS, Z and P
// are NaN.
func HamedRaoHead(xs []float64, maxLag int) MannKendallResult {
	return hamedRaoPublished(xs, maxLag, true, false)
}

// HamedRaoV143 returns the Hamed–Rao test as pymannkendall v1.4.3 (the last
// PyPI release), R modifiedmk::mmkh and the paper compute it (stats.json key
// hamed_rao_v143_signed): the signed n/n*. VarS is NaN when the ranks of the
// detrended series have zero variance (0/0); a negative n/n* gives a negative
// VarS. In both cases Z and P are NaN unless S == 0 (then Z = 0, P = 1), as
// in the reference.
func HamedRaoV143(xs []float64) MannKendallResult {
	return hamedRaoPublished(xs, 0, false, true)
}

// HamedRaoSignedGuarded returns the paper's signed Hamed–Rao test with
// pymannkendall HEAD's zero-rank-variance guard (n/n* = 1 there); it equals R
// modifiedmk::mmkh wherever that is defined (stats.json key
// hamed_rao_signed_guarded_own).
func HamedRaoSignedGuarded(xs []float64) MannKendallResult {
	return hamedRaoPublished(xs, 0, false, false)
}
