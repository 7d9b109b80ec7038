package stats

import "math"

// ciZ95 is the reference's z for the Hamed–Rao autocorrelation band.
const ciZ95 = 1.96

// smallSeriesMax is the longest series whose trend tests keep their
// scratch on the stack (the diagnostics' rolling windows are 4–8 points).
const smallSeriesMax = 64

// z975 is Φ⁻¹(0.975) as scipy's norm.ppf gives it; the published Hamed–Rao
// implementations use it for the band at α = 0.05.
const z975 = 1.959963984540054

// HamedRao returns the Mann–Kendall test with the reference's Hamed–Rao
// variance correction (detector §7.2) — not the published variant:
//
//   - r = OrdinalRanks(xs) of the raw (not detrended) series, d = r − r̄,
//     D = Σd² (exact: quarter-integers).
//   - ρ_k = Σ_{t=k}^{n−1} d_t·d_{t−k} / D for every lag k = 1…n−1.
//   - F = running Σ over k with |ρ_k| > 1.96/√n of (n−k)(n−k−1)(n−k−2)·ρ_k.
//   - C = 1 + (2/(n(n−1)(n−2)))·F, replaced by 1 if C ≤ 0.
//   - VarS = Var₀(S)·C.
//
// For n < 3 the correction is undefined and C is 1. The arithmetic follows
// the reference's order, so S, VarS and Correction are bit-exact.
func HamedRao(xs []float64) MannKendallResult {
	r, _ := HamedRaoStop(xs, nil)
	return r
}

// HamedRaoStop is HamedRao polling stop (when not nil) every 64 lags of
// its autocorrelations (or every stage of their transform); once stop
// reports true it returns ok = false and a result to discard. The
// autocorrelations are O(n²) by the direct loop below 512 points and
// O(n log n) above, by an exact transform with the loop's floats
// (rankacf_ntt.go).
func HamedRaoStop(xs []float64, stop func() bool) (r MannKendallResult, ok bool) {
	if stop != nil && stop() {
		return MannKendallResult{}, false // S and its variance are O(n log n) each
	}
	return hamedRaoFrom(xs, mkS(xs), mkVariance(xs), stop)
}

// hamedRaoFrom is HamedRaoStop given xs's S and uncorrected variance.
func hamedRaoFrom(xs []float64, s int, v0 float64, stop func() bool) (r MannKendallResult, ok bool) {
	c, ok := hamedRaoCorrectionOf(xs, stop)
	if !ok {
		return MannKendallResult{}, false
	}
	return mkResult(len(xs), s, v0*c, c), true
}

// hamedRaoCorrectionOf is the variance factor C of xs (1 below three
// values); ok is false once stop reports true.
func hamedRaoCorrectionOf(xs []float64, stop func() bool) (c float64, ok bool) {
	n := len(xs)
	if n < 3 {
		return 1.0, true
	}
	// A short series' ranks and autocorrelations live on the stack.
	var rbuf, acfBuf, devBuf [smallSeriesMax]float64
	var idxBuf [smallSeriesMax]int
	var ranks, acf, dev []float64
	var idx []int
	if n <= smallSeriesMax {
		ranks, acf, dev, idx = rbuf[:n], acfBuf[:n-1], devBuf[:n], idxBuf[:n]
	} else {
		ranks, acf, dev, idx = make([]float64, n), make([]float64, n-1), make([]float64, n), make([]int, n)
	}
	return hamedRaoCorrection(ordinalRanksInto(xs, ranks, idx), stop, acf, dev)
}

// hamedRaoCorrection returns the variance factor C of the ordinal ranks
// of a series of n ≥ 3 values (HamedRao's steps 2–5), with acf (n−1 long)
// and dev (n long) as scratch; ok is false once stop reports true.
func hamedRaoCorrection(ranks []float64, stop func() bool, acf, dev []float64) (c float64, ok bool) {
	n := len(ranks)
	rho, ok := rankACFInto(ranks, n-1, stop, acf, dev)
	if !ok {
		return 0, false
	}
	bound := ciZ95 / math.Sqrt(float64(n))
	f := 0.0
	for k := 1; k < n; k++ {
		r := rho[k-1]
		if math.Abs(r) <= bound {
			continue
		}
		w := int64(n-k) * int64(n-k-1) * int64(n-k-2)
		f += float64(float64(w) * r) // float64(): never fused
	}
	nn := int64(n) * int64(n-1) * int64(n-2)
	c = 1.0 + float64((2.0/float64(nn))*f)
	if c <= 0 {
		c = 1.0
	}
	return c, true
}

// rankACF returns the biased autocorrelations ρ_1…ρ_maxLag of the ranks r
// with the common denominator D = Σ(r − r̄)²; all zeros if D == 0.
// It polls stop (when not nil) every 64 lags and reports ok = false once
// stop reports true.
func rankACF(r []float64, maxLag int, stop func() bool) (acf []float64, ok bool) {
	return rankACFInto(r, maxLag, stop, make([]float64, maxLag), make([]float64, len(r)))
}

// rankACFInto is rankACF into acf (maxLag long, zeroed here), with dev (as
// long as r) as scratch.
func rankACFInto(r []float64, maxLag int, stop func() bool, acf, dev []float64) ([]float64, bool) {
	n := len(r)
	clear(acf)
	if n == 0 {
		return acf, true
	}
	mean := Sum(r) / float64(n)
	for i, x := range r {
		dev[i] = x - mean
	}
	den := 0.0
	for _, d := range dev {
		den += d * d // exact: quarter-integers
	}
	if den == 0 {
		return acf, true
	}
	if transformable(dev, maxLag) {
		if !rankACFTransform(dev, den, acf[:min(maxLag, n-1)], stop) {
			return nil, false
		}
		return acf, true
	}
	if !rankACFLoop(dev, den, acf[:min(maxLag, n-1)], stop) {
		return nil, false
	}
	return acf, true
}

// rankACFLoop is acf[k−1] = Σ_{t=k}^{n−1} dev_t·dev_{t−k} / den for k =
// 1…len(acf), lag by lag (O(n) each), polling stop every 64 lags; false
// once stop reports true.
func rankACFLoop(dev []float64, den float64, acf []float64, stop func() bool) bool {
	n := len(dev)
	for k := 1; k <= len(acf) && k < n; k++ {
		if k&63 == 0 && stop != nil && stop() {
			return false
		}
		num := 0.0
		for t := k; t < n; t++ {
			num += dev[t] * dev[t-k]
		}
		acf[k-1] = num / den
	}
	return true
}
