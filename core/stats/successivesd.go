package stats

import "math"

// SuccessiveDiffSD returns a robust standard deviation of the noise of a
// series from its successive differences Δ_i = xs[i+1] − xs[i]:
//
//	1.4826 · median(|Δ − median(Δ)|) / √2
//
// 1.4826·MAD estimates the SD of normal Δ, and Δ of independent noise has
// √2 times the noise's SD. A level step or a slow trend moves the median of
// Δ or a single Δ only, so the estimate is the series' super-pass-to-
// super-pass noise, not its shape (von Neumann 1941; Rousseeuw & Croux
// 1993 for the MAD). It is 0 for fewer than three values (fewer than two
// differences have no spread).
func SuccessiveDiffSD(xs []float64) float64 {
	if len(xs) < 3 {
		return 0
	}
	d := make([]float64, len(xs)-1)
	for i := range d {
		d[i] = xs[i+1] - xs[i]
	}
	med := Median(d)
	for i := range d {
		d[i] = math.Abs(d[i] - med)
	}
	return 1.4826 * Median(d) / math.Sqrt2
}
