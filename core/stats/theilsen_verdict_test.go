package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// theilSenVerdictOracle is theil_sen's verdict as TrendVerdicts computed
// it before the counting shortcut: the all-pairs median slope (the
// reference's computation), then the relative drift.
func theilSenVerdictOracle(xs []float64, m float64) Verdict {
	return theilSenVerdictOf(sensSlopeAllPairs(xs), len(xs), m)
}

// floorMedian is TrendVerdicts' m: the median, ZeroMedianFloor for 0.
func floorMedian(xs []float64) float64 {
	m := Median(xs)
	if m == 0 {
		m = ZeroMedianFloor
	}
	return m
}

// TestTheilSenVerdictByCount: the counted verdict equals the all-pairs
// median's on random series of every shape (randomSeries) and on ramps
// whose relative drift lies at, just inside and just outside ±0.15 (with
// and without noise, so the median slope sits on a boundary of the steady
// interval and the counts must hand over to the selection), for sizes
// above the selection threshold; most are decided by the counts alone.
func TestTheilSenVerdictByCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 9))
	sizes := []int{257, 258, 301, 640, 1001}
	if testing.Short() {
		sizes = sizes[:3]
	}
	checkTheilSenVerdicts(t, "counted", verdictSeries(rng, sizes), func(xs []float64, m float64) (Verdict, bool) {
		if !selectDomain(xs) {
			return VerdictInsufficient, false
		}
		return theilSenVerdictByCount(xs, m)
	})
}

// TestTheilSenVerdictByPairs: the verdict from the computed slopes'
// counts equals the all-pairs median's on the same kinds of series for
// sizes up to the selection threshold (the diagnostics' whole-run
// series), and on series with a NaN, an infinity or a huge value, which
// it leaves to the median.
func TestTheilSenVerdictByPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 10))
	series := verdictSeries(rng, []int{4, 5, 6, 7, 8, 12, 31, 52, 64, 100, 255, 256})
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0x1p1001, -math.MaxFloat64} {
		xs := []float64{1, 2, 3, 4, 5, 6}
		xs[2] = bad
		series = append(series, xs)
		if _, ok := theilSenVerdictByPairs(xs, floorMedian(xs)); ok {
			t.Errorf("%v: decided by the pairs' counts outside their domain", xs)
		}
	}
	checkTheilSenVerdicts(t, "pairs", series, theilSenVerdictByPairs)
}

// verdictSeries is randomSeries of each size, and ramps whose relative
// drift lies at, just inside and just outside ±0.15, with and without
// noise.
func verdictSeries(rng *rand.Rand, sizes []int) [][]float64 {
	var series [][]float64
	for _, n := range sizes {
		for _, xs := range randomSeries(rng, n) {
			series = append(series, xs)
		}
		for _, rel := range []float64{0.15, 0.15 * (1 - 1e-15), 0.15 * (1 + 1e-15), 0.1499, 0.1501, -0.15, -0.1501} {
			// x_i = a + c·i with c·(n−1)/median = rel, median = a + c(n−1)/2.
			a := 100.0
			c := rel * a / (float64(n-1) * (1 - rel/2))
			for _, noise := range []float64{0, 1e-12, 0.5} {
				xs := make([]float64, n)
				for i := range xs {
					xs[i] = a + c*float64(i) + noise*rng.NormFloat64()
				}
				series = append(series, xs)
			}
		}
	}
	return series
}

// checkTheilSenVerdicts compares theilSenVerdict, and decide where it
// decides, with the all-pairs median's verdict on every series; decide
// must settle at least half of them.
func checkTheilSenVerdicts(t *testing.T, name string, series [][]float64, decide func([]float64, float64) (Verdict, bool)) {
	t.Helper()
	decided := 0
	for _, xs := range series {
		m := floorMedian(xs)
		want := theilSenVerdictOracle(xs, m)
		if got := theilSenVerdict(xs, m); got != want {
			t.Errorf("n=%d median %v: verdict %s, all pairs %s (slope %v)", len(xs), m, got, want, sensSlopeAllPairs(xs))
		}
		if v, ok := decide(xs, m); ok {
			decided++
			if v != want {
				t.Errorf("n=%d: %s %s, all pairs %s", len(xs), name, v, want)
			}
		}
	}
	if decided < len(series)/2 {
		t.Errorf("%s decided only %d of %d series", name, decided, len(series))
	}
	t.Logf("%d series, %d decided by %s", len(series), decided, name)
}

// TestTheilSenSteadyInterval: the bisection's ends are the last steady
// floats: the next float outwards is not steady.
func TestTheilSenSteadyInterval(t *testing.T) {
	for _, m := range []float64{1, -3.5, ZeroMedianFloor, 1e7} {
		n := 1000
		steady := func(s float64) bool { return theilSenVerdictOf(s, n, m) == VerdictSteady }
		sA, sB, ok := steadySlopes(n, m)
		if !ok || !steady(sA) || steady(math.Nextafter(sA, math.Inf(-1))) || !steady(sB) || steady(math.Nextafter(sB, math.Inf(1))) {
			t.Errorf("m=%v: interval [%v, %v] is not the steady one", m, sA, sB)
		}
	}
}
