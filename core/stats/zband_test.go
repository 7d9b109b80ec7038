package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestZBandMatchesP: below(z) is normalTwoSidedPRef(z) < alpha, for levels
// inside and outside the banded range, on statistics spread over [−12,
// 12], within a thousand ulps of the band's edges and of the critical
// value, and NaN and ±Inf.
func TestZBandMatchesP(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 11))
	for _, alpha := range []float64{1e-12, 1e-8, 1e-4, 0.01, 0.05, 0.1, 0.5, 0.9, 0.95} {
		b := newZBand(alpha)
		if b.ok != (alpha >= minBandAlpha && alpha <= maxBandAlpha) {
			t.Fatalf("alpha %v: band ok %v", alpha, b.ok)
		}
		zs := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}
		for range 20000 {
			zs = append(zs, 24*rng.Float64()-12)
		}
		if b.ok {
			crit := SearchFloats(0, 40, func(z float64) bool { return normalTwoSidedPRef(z) < alpha })
			for _, c := range []float64{b.lo, b.hi, crit} {
				z := c
				for range 1000 {
					zs = append(zs, z, -z)
					z = math.Nextafter(z, math.Inf(-1))
				}
				z = c
				for range 1000 {
					zs = append(zs, z, -z)
					z = math.Nextafter(z, math.Inf(1))
				}
			}
		}
		for _, z := range zs {
			if got, want := b.below(z), normalTwoSidedPRef(z) < alpha; got != want {
				t.Errorf("alpha %v z %v: band says %v, p %v", alpha, z, got, normalTwoSidedPRef(z))
			}
		}
	}
}
