package core

import (
	"math"
	"math/rand/v2"
	"testing"
)

// oracleSplitPoint is splitPoint as it was before issue 32's long runs:
// the RSS of every split computed from scratch (O(n²)).
func oracleSplitPoint(pct []*spPercentiles, lo, hi int) int {
	idx, ys := tpotMeans(pct, lo, hi)
	if len(ys) < 2 {
		return -1
	}
	best, bestRSS := -1, math.Inf(1)
	for k := 1; k < len(ys); k++ {
		r := sse(ys[:k]) + sse(ys[k:])
		if r < bestRSS {
			best, bestRSS = idx[k], r
		}
	}
	return best
}

// tpotSeries is a post-warmup series whose TPOT means are ys (NaN: a
// super-pass without TPOT).
func tpotSeries(ys []float64) []*spPercentiles {
	out := make([]*spPercentiles, len(ys))
	for i, y := range ys {
		out[i] = &spPercentiles{tpotMean: y}
		out[i].ok[mTPOTP50] = !math.IsNaN(y)
	}
	return out
}

// TestSplitPointOracle: the prefix-sum split equals the direct scan's on
// series where the least RSS is sharp (steps), flat (pure noise: many
// near-ties), exactly tied (constants, symmetric data), large offsets
// against small noise (cancellation in the prefix sums), integers, gaps
// without TPOT, and values outside the bounds' domain; and most long
// series leave few candidates.
func TestSplitPointOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 3))
	gens := map[string]func(i, n int) float64{
		"noise":        func(int, int) float64 { return 20e6 + 1e5*rng.NormFloat64() },
		"step":         func(i, n int) float64 { return 20e6 + 2e6*float64(i*3/n) + 1e5*rng.NormFloat64() },
		"small step":   func(i, n int) float64 { return 20e6 + 3e4*float64(i*2/n) + 1e5*rng.NormFloat64() },
		"exact levels": func(i, n int) float64 { return 10 + 5*float64(i*2/n) },
		"constant":     func(int, int) float64 { return 3.25 },
		"symmetric":    func(i, n int) float64 { return float64(min(i, n-1-i)) },
		"big offset":   func(int, int) float64 { return 1e15 + rng.NormFloat64() },
		"integers":     func(int, int) float64 { return float64(rng.IntN(3)) },
		"ramp":         func(i, _ int) float64 { return float64(i) * 0.125 },
		"gaps":         func(i, n int) float64 { return [2]float64{math.NaN(), 7 + float64(i*2/n)}[min(rng.IntN(4), 1)] },
		"tiny":         func(i, n int) float64 { return 1e-200 * float64(1+i*2/n) },
		"huge":         func(i, n int) float64 { return 1e200 * float64(1+i*2/n) },
		"zeros":        func(i, n int) float64 { return float64(i*2/n) * rng.Float64() },
	}
	sizes := []int{2, 3, 64, 65, 66, 100, 333, 1000, 4000}
	if testing.Short() {
		sizes = sizes[:7]
	}
	candidates, long := 0, 0
	for name, gen := range gens {
		for _, n := range sizes {
			ys := make([]float64, n)
			for i := range ys {
				ys[i] = gen(i, n)
			}
			pct := tpotSeries(ys)
			for _, span := range [][2]int{{0, n}, {n / 3, n}, {1, n - 1}} {
				if got, want := splitPoint(pct, span[0], span[1]), oracleSplitPoint(pct, span[0], span[1]); got != want {
					t.Errorf("%s n=%d [%d,%d): split %d, oracle %d", name, n, span[0], span[1], got, want)
				}
			}
			if n >= 1000 && name != "tiny" && name != "huge" && name != "gaps" {
				ks := splitCandidates(ys)
				t.Logf("%s n=%d: %d candidates", name, n, len(ks))
				if ks == nil {
					t.Errorf("%s n=%d: no candidates (outside the domain?)", name, n)
				}
				if name != "constant" && name != "big offset" { // rounding noise ties every split
					candidates += len(ks)
					long++
				}
			}
		}
	}
	if long > 0 && candidates > long*100 {
		t.Errorf("%d candidates over %d long series: the bounds are too loose", candidates, long)
	}
	t.Logf("%d candidates over %d long series", candidates, long)
}
