package core

import (
	"math/rand/v2"
	"testing"
)

// TestStepScanMatchesPrefix: on windows growing from one start, the
// bounded scans (stepInGrowing, noiseStepInGrowing) give stepInPrefix's
// and noiseStepInPrefix's boolean at every length, on plateaus with and
// without steps (late, early, small, large, up and down), spikes, ramps,
// heavy noise and means near and below zero, whose splits the bounds must
// hand to the per-split test.
func TestStepScanMatchesPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 4))
	gens := map[string]func(i int) float64{
		"plateau":    func(int) float64 { return 20 + rng.NormFloat64() },
		"late step":  func(i int) float64 { return 20 + 3*float64(i/250) + rng.NormFloat64() },
		"small step": func(i int) float64 { return 20 + 0.4*float64(i/150) + 0.1*rng.NormFloat64() },
		"step down":  func(i int) float64 { return 20 - 2*float64(i/90) + 0.3*rng.NormFloat64() },
		"spikes":     func(int) float64 { return 20 + 8*float64(rng.IntN(60)/59) + 0.5*rng.NormFloat64() },
		"ramp":       func(i int) float64 { return 20 + 0.01*float64(i) + rng.NormFloat64() },
		"noisy":      func(int) float64 { return 20 * (1 + 0.5*rng.NormFloat64()) },
		"near zero":  func(int) float64 { return 0.5 + rng.NormFloat64() },
		"integers":   func(int) float64 { return float64(10 + rng.IntN(2)) },
		"constant":   func(int) float64 { return 7.5 },
	}
	n := 400
	steps, noiseSteps := 0, 0
	for name, gen := range gens {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = gen(i)
		}
		for _, lo := range []int{0, 37} {
			var w growingSeries
			var si stepIndex
			w.reset()
			for h := lo; h < n; h++ {
				w.push(xs[h])
				for _, band := range []float64{0.05, 0.01} {
					want := stepInPrefix(w.s1, w.s2, band)
					if got := stepInGrowing(&w, &si, lo, n-lo, band); got != want {
						t.Fatalf("%s [%d,%d) band %v: step %v, stepInPrefix %v", name, lo, h+1, band, got, want)
					}
					if want {
						steps++
					}
				}
				for _, sds := range []float64{3, 1} {
					want := noiseStepInPrefix(w.vals, w.s1, w.s2, sds, shiftMinRel, 4)
					if got := noiseStepInGrowing(&w, &si, lo, n-lo, sds, shiftMinRel, 4); got != want {
						t.Fatalf("%s [%d,%d) sds %v: noise step %v, noiseStepInPrefix %v", name, lo, h+1, sds, got, want)
					}
					if want {
						noiseSteps++
					}
				}
			}
		}
	}
	if steps == 0 || noiseSteps == 0 {
		t.Errorf("no step found (%d, %d): the test series do not exercise the scan", steps, noiseSteps)
	}
	t.Logf("%d steps, %d noise steps", steps, noiseSteps)
}
