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
	decided := 0
	for _, xs := range series {
		m := floorMedian(xs)
		want := theilSenVerdictOracle(xs, m)
		if got := theilSenVerdict(xs, m); got != want {
			t.Errorf("n=%d median %v: verdict %s, all pairs %s (slope %v)", len(xs), m, got, want, sensSlopeAllPairs(xs))
		}
		if selectDomain(xs) {
			if v, ok := theilSenVerdictByCount(xs, m); ok {
				decided++
				if v != want {
					t.Errorf("n=%d: counted %s, all pairs %s", len(xs), v, want)
				}
			}
		}
	}
	if decided < len(series)/2 {
		t.Errorf("counts decided only %d of %d series", decided, len(series))
	}
	t.Logf("%d series, %d decided by counts", len(series), decided)
}

// TestTheilSenSteadyInterval: the bisection's ends are the last steady
// floats: the next float outwards is not steady.
func TestTheilSenSteadyInterval(t *testing.T) {
	for _, m := range []float64{1, -3.5, ZeroMedianFloor, 1e7} {
		n := 1000
		steady := func(s float64) bool { return theilSenVerdictOf(s, n, m) == VerdictSteady }
		zero := floatKey(0)
		sA := keyFloat(searchKey(floatKey(math.Inf(-1)), zero, func(k uint64) bool { return steady(keyFloat(k)) }))
		sB := keyFloat(searchKey(zero, floatKey(math.Inf(1)), func(k uint64) bool { return !steady(keyFloat(k)) }) - 1)
		if !steady(sA) || steady(math.Nextafter(sA, math.Inf(-1))) || !steady(sB) || steady(math.Nextafter(sB, math.Inf(1))) {
			t.Errorf("m=%v: interval [%v, %v] is not the steady one", m, sA, sB)
		}
	}
}
