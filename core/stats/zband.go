package stats

import "math"

// zBand decides normalTwoSidedPRef(z) < alpha at one alpha from |z| alone
// outside a narrow band around the critical value, and by the p-value
// itself inside it: the rolling windows' three z-tests (mann_kendall,
// mk_hamed_rao, newey_west) then skip erf for all but the rare window
// whose statistic lies within a thousandth of the critical value.
//
// The reference's p is 2·(1 − Φ(|z|)), a decreasing function of |z|,
// computed within a few 2⁻⁵³ (absolute) of its exact value. z* is a float
// at which the computed p crosses alpha (bisection over the float line);
// below lo = z*·(1 − 2⁻¹⁰) the exact p exceeds alpha by at least
// 2φ(z)·z*·2⁻¹⁰ — more than 10⁻¹² for alpha in [minBandAlpha,
// maxBandAlpha], a thousand times any rounding of the computed p — and
// above hi = z*·(1 + 2⁻¹⁰) it falls short of alpha by as much, so the
// computed p is on the same side there. Outside that range of alpha (a
// p near 0 is 1 − Φ cancelled to a few ulps) no band is used.
type zBand struct {
	alpha, lo, hi float64
	ok            bool
}

// The levels a band is made for.
const (
	minBandAlpha = 1e-8
	maxBandAlpha = 0.9
)

// newZBand is the band of level alpha (not ok outside [minBandAlpha,
// maxBandAlpha]: every test then computes its p-value).
func newZBand(alpha float64) zBand {
	b := zBand{alpha: alpha}
	if !(alpha >= minBandAlpha && alpha <= maxBandAlpha) {
		return b
	}
	z := SearchFloats(0, 40, func(z float64) bool { return normalTwoSidedPRef(z) < alpha })
	b.lo, b.hi, b.ok = z*(1-0x1p-10), z*(1+0x1p-10), true
	return b
}

// below reports normalTwoSidedPRef(z) < alpha (false for a NaN z).
func (b zBand) below(z float64) bool {
	az := math.Abs(z)
	switch {
	case b.ok && az < b.lo:
		return false
	case b.ok && az > b.hi:
		return true
	}
	return normalTwoSidedPRef(z) < b.alpha
}

// verdict is the verdict at the band's level of a z-test (zTest: its
// fixed verdict, or significance and effect from z): Significance.Verdict
// without the p-value when z lies outside the band.
func (b zBand) verdict(s Significance, z float64) Verdict {
	if s.Fixed {
		return s.V
	}
	if b.below(z) {
		return direction(s.Effect) // significantVerdict: up, down, or steady for a zero effect
	}
	return VerdictSteady
}
