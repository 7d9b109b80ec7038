package stats

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// sameFloat is bit equality (NaN equal to NaN).
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// randomSeries are the shapes the selection must get exactly right: noise,
// trends, heavy ties (integer values, few levels, constant stretches),
// collinear points (every slope equal), mixed signs and magnitudes across
// the domain.
func randomSeries(rng *rand.Rand, n int) map[string][]float64 {
	gen := func(f func(i int) float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = f(i)
		}
		return xs
	}
	return map[string][]float64{
		"noise":       gen(func(int) float64 { return rng.NormFloat64() }),
		"ramp+noise":  gen(func(i int) float64 { return 100 + 0.3*float64(i) + rng.NormFloat64() }),
		"decay":       gen(func(i int) float64 { return 50*math.Exp(-float64(i)/40) + 0.1*rng.Float64() }),
		"integers":    gen(func(int) float64 { return float64(rng.IntN(7)) }),
		"two levels":  gen(func(i int) float64 { return float64(i*3/n) * 1.5 }),
		"constant":    gen(func(int) float64 { return 42.125 }),
		"collinear":   gen(func(i int) float64 { return 3 + 0.1*float64(i) }),
		"exact ramp":  gen(func(i int) float64 { return float64(2 * i) }),
		"mixed sign":  gen(func(int) float64 { return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(30)-15)) }),
		"magnitudes":  gen(func(int) float64 { return math.Ldexp(1+rng.Float64(), rng.IntN(1600)-790) }),
		"step":        gen(func(i int) float64 { return 10 + 5*float64(i/(n/3+1)) + 0.01*rng.NormFloat64() }),
		"zeros+noise": gen(func(int) float64 { return float64(max(0, rng.IntN(5)-3)) * rng.Float64() }),
	}
}

// TestSensSlopeSelectMatchesAllPairs: the exact selection returns the same
// float as the reference's all-pairs median (kept as the oracle), on random
// series of every shape and size from 2 to 700.
func TestSensSlopeSelectMatchesAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 5))
	sizes := []int{2, 3, 4, 5, 7, 8, 16, 31, 64, 100, 257, 500, 700}
	if testing.Short() {
		sizes = sizes[:10]
	}
	checked := 0
	for _, n := range sizes {
		for name, xs := range randomSeries(rng, n) {
			if !selectDomain(xs) {
				t.Fatalf("%s n=%d: generator left the domain", name, n)
			}
			want := sensSlopeAllPairs(xs)
			// The default band, and a band of 16 pairs: every size then
			// goes through the sampling rounds and the cluster paths.
			for _, band := range []int64{0, 16} {
				if got := sensSlopeSelectBand(xs, band); !sameFloat(got, want) {
					t.Errorf("%s n=%d band %d: select %v (%#x), all pairs %v (%#x)", name, n, band, got, math.Float64bits(got), want, math.Float64bits(want))
				}
			}
			checked++
		}
	}
	t.Logf("%d series", checked)
}

// TestSensSlopeSelectParity: on every slice (every start and length ≥ 2)
// of every trajectory of the reference's parity outputs, selection and
// all pairs agree bit for bit — the reference's own values, through both
// algorithms.
func TestSensSlopeSelectParity(t *testing.T) {
	dir := requireShared(t, filepath.Join("parity", "expected"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	slices := 0
	for _, path := range files {
		if strings.Contains(filepath.Base(path), ".cli.") || filepath.Base(path) == "index.json" {
			continue
		}
		doc := loadJSON(t, path)
		traj, ok := doc["trajectories"].(map[string]any)
		if !ok {
			continue
		}
		for metric, v := range traj {
			xs := floats(t, v)
			for lo := 0; lo < len(xs); lo++ {
				for hi := lo + 2; hi <= len(xs); hi++ {
					w := xs[lo:hi]
					if !selectDomain(w) {
						continue
					}
					slices++
					want := sensSlopeAllPairs(w)
					for _, band := range []int64{0, 16} {
						if got := sensSlopeSelectBand(w, band); !sameFloat(got, want) {
							t.Errorf("%s %s[%d:%d] band %d: select %v, all pairs %v", filepath.Base(path), metric, lo, hi, band, got, want)
						}
					}
				}
			}
		}
	}
	if slices == 0 {
		t.Fatal("no trajectory slices checked")
	}
	t.Logf("%d trajectory slices", slices)
}

// TestSensSlopeLarge reproduces issue 17 item 5 at the statistic: 20,000
// points (dataset size 1, or --superpass-size 1) made the reference's
// 2·10⁸ slopes, 1.6 GB, and ran out of memory in diagnostics; the
// selection allocates a few MB. Its two middle slopes are checked by a
// streaming pass over all pairs: each has as many computed slopes below it
// as its rank, and the median is their mean.
func TestSensSlopeLarge(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 3_000
	}
	rng := rand.New(rand.NewPCG(20_000, 1))
	for _, name := range []string{"ramp+noise", "integers", "collinear"} {
		xs := randomSeries(rng, n)[name]
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got := SensSlope(xs)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%s n=%d: allocated %d MB", name, n, alloc>>20)
		}
		sel := newSlopeSelector(xs)
		pairs := sel.pairs // even for these n
		ranks := []int64{pairs/2 - 1, pairs / 2}
		mid := []float64{sel.kth(ranks[0]), sel.kth(ranks[1])}
		var below, atMost [2]int64
		for i := range n - 1 {
			for j := i + 1; j < n; j++ {
				v := (xs[j] - xs[i]) / float64(j-i)
				for r, m := range mid {
					if v < m {
						below[r]++
					}
					if v <= m {
						atMost[r]++
					}
				}
			}
		}
		for r := range mid {
			if !(below[r] <= ranks[r] && ranks[r] < atMost[r]) {
				t.Errorf("%s n=%d: slope %v as rank %d has %d below and %d at most", name, n, mid[r], ranks[r], below[r], atMost[r])
			}
		}
		if want := (mid[0] + mid[1]) / 2; !sameFloat(got, want) {
			t.Errorf("%s n=%d: SensSlope %v, middle slopes' mean %v", name, n, got, want)
		}
	}
}

// TestSensSlopeOutsideDomain: NaN, ±Inf and extreme magnitudes keep the
// all-pairs result up to 2048 points, and are NaN (undefined) above.
func TestSensSlopeOutsideDomain(t *testing.T) {
	small := []float64{1, 2, math.Inf(1), 4, 5}
	if got, want := SensSlope(small), sensSlopeAllPairs(small); !sameFloat(got, want) {
		t.Errorf("small with +Inf: %v, want %v", got, want)
	}
	big := make([]float64, 3000)
	for i := range big {
		big[i] = float64(i)
	}
	if got := SensSlope(big); got != 1 {
		t.Errorf("3000-point ramp: %v, want 1", got)
	}
	big[7] = math.NaN()
	if got := SensSlope(big); !math.IsNaN(got) {
		t.Errorf("3000 points with a NaN: %v, want NaN", got)
	}
	big[7] = 1e300
	if got := SensSlope(big); !math.IsNaN(got) {
		t.Errorf("3000 points with 1e300: %v, want NaN", got)
	}
}

func TestCmpYExact(t *testing.T) {
	// y_a − y_b = (x_a − x_b) − θ(a − b) with x − θt of tiny exact
	// difference that rounding to double would hide.
	xs := []float64{1, 1 + 0x1p-52, 0}
	if got := cmpY(xs, 0x1p-52, 1, 0); got != 0 {
		t.Errorf("exact tie: %d", got)
	}
	if got := cmpY(xs, 0x1p-53, 1, 0); got != 1 {
		t.Errorf("just above: %d", got)
	}
	if got := cmpY(xs, 0x1p-52+0x1p-104, 1, 0); got != -1 {
		t.Errorf("just below: %d", got)
	}
	if got := expansionSign(1e300, -1e300, 1e-300, -1e-301); got != 1 {
		t.Errorf("expansion sign: %d", got)
	}
}

// BenchmarkSensSlope compares all pairs (the reference) with selection.
//
//	go test -run '^$' -bench '^BenchmarkSensSlope$' -cpu 1 ./core/stats
func BenchmarkSensSlope(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{500, 5_000, 20_000} {
		xs := randomSeries(rng, n)["ramp+noise"]
		if n <= 5_000 {
			b.Run("allpairs/n="+itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sensSlopeAllPairs(xs)
				}
			})
		}
		b.Run("select/n="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sensSlopeSelect(xs)
			}
		})
	}
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// TestMannKendallSMatchesPairs: the O(n log n) S equals the all-pairs sum
// on every shape, with NaN, ±Inf and ±0 mixed in.
func TestMannKendallSMatchesPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	for _, n := range []int{513, 600, 1000, 2500} {
		for name, xs := range randomSeries(rng, n) {
			if got, want := mkS(xs), mkSPairs(xs); got != want {
				t.Errorf("%s n=%d: S %d, all pairs %d", name, n, got, want)
			}
			odd := slices.Clone(xs)
			for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, math.NaN(), math.Inf(1)} {
				odd[rng.IntN(n)] = v
			}
			if got, want := mkS(odd), mkSPairs(odd); got != want {
				t.Errorf("%s n=%d with NaN/Inf/±0: S %d, all pairs %d", name, n, got, want)
			}
		}
	}
}

// TestTrendVerdictsLargeSeries: the five trend verdicts of one diagnostics
// row on 20,000 super-passes — where theil_sen alone formed 2·10⁸ slopes
// (1.6 GB) — allocate a few MB.
func TestTrendVerdictsLargeSeries(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 5_000
	}
	xs := randomSeries(rand.New(rand.NewPCG(3, 7)), n)["ramp+noise"]
	for _, a := range TrendAlgos {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		v := TrendVerdict(a, xs, Alpha)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%s on %d points: %d MB allocated", a, n, alloc>>20)
		}
		if v != VerdictUp {
			t.Errorf("%s on a rising ramp: %s", a, v)
		}
	}
}

// TestHamedRaoStop: HamedRaoStop without a stop is HamedRao to the bit;
// with one it polls before S, then every 64 lags below 512 points (400:
// 399 lags, 7 polls) or once per stage of the two transforms above
// (1000 points: 2048-point transforms of 11 stages, 23 polls), and gives
// up at the first true.
func TestHamedRaoStop(t *testing.T) {
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64((i*7919)%1009) + float64(i)/10
	}
	want := HamedRao(xs)
	got, ok := HamedRaoStop(xs, func() bool { return false })
	if !ok || got != want {
		t.Fatalf("HamedRaoStop(never) = %+v, %v; HamedRao = %+v", got, ok, want)
	}
	polls := 0
	if _, ok := HamedRaoStop(xs, func() bool { polls++; return polls == 3 }); ok || polls != 3 {
		t.Errorf("stopped at the 3rd poll: ok %v after %d polls", ok, polls)
	}
	polls = 0
	HamedRaoStop(xs, func() bool { polls++; return false })
	if polls != 1+2*11 {
		t.Errorf("%d polls over 999 lags by the transform, want %d (one before S, one per stage)", polls, 1+2*11)
	}
	polls = 0
	HamedRaoStop(xs[:400], func() bool { polls++; return false })
	if polls != 1+399/64 {
		t.Errorf("%d polls over 399 lags, want %d (one before S, one every 64 lags)", polls, 1+399/64)
	}
}
