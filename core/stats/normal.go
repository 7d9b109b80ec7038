package stats

import "math"

// NormalTwoSidedP returns the two-sided p-value of a standard normal
// statistic z,
//
//	p = 2·(1 − Φ(|z|)) = erfc(|z|/√2)
//
// computed with erfc, which stays accurate in the tail where the reference's
// 1 − Φ cancels to 0 (|z| ≳ 8.3). NormalTwoSidedP(NaN) is NaN.
func NormalTwoSidedP(z float64) float64 {
	return math.Erfc(math.Abs(z) / math.Sqrt2)
}

// normalTwoSidedPRef is the reference's own expression (detector §5.6),
//
//	Φ(z) = 0.5·(1 + erf(z/√2)),  p = 2·(1 − Φ(|z|))
//
// used where only the comparison p < α matters, so that the verdicts follow
// the reference's rounding (up to erf's last bit, §5.7).
func normalTwoSidedPRef(z float64) float64 {
	phi := 0.5 * (1 + math.Erf(math.Abs(z)/math.Sqrt2))
	return 2 * (1 - phi)
}
