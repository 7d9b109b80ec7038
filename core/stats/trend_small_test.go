package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// smallSeries are the short series the diagnostics' rolling windows test
// (4–64 points): levels with noise, heavy ties, zeros of both signs, NaN
// and infinities.
func smallSeries(rng *rand.Rand) [][]float64 {
	var out [][]float64
	for range 400 {
		n := 1 + rng.IntN(70)
		xs := make([]float64, n)
		kind := rng.IntN(5)
		for i := range xs {
			switch kind {
			case 0:
				xs[i] = 1e7 + 1e5*rng.NormFloat64()
			case 1:
				xs[i] = float64(rng.IntN(4))
			case 2:
				xs[i] = math.Copysign(0, rng.NormFloat64()) + float64(rng.IntN(2))
			case 3:
				xs[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, 1, 1}[rng.IntN(6)]
			default:
				xs[i] = float64(i) * (1 + 0.01*rng.NormFloat64())
			}
		}
		out = append(out, xs)
	}
	return out
}

// TestTieTermPairsMatchesMap checks the pairwise tie count against the
// map count it replaces for short series.
func TestTieTermPairsMatchesMap(t *testing.T) {
	for _, xs := range smallSeries(rand.New(rand.NewPCG(16, 8))) {
		if got, want := tieTermPairs(xs), tieTermMap(xs); got != want {
			t.Fatalf("%v: tieTermPairs %d, map %d", xs, got, want)
		}
	}
}

// TestMedianStackMatchesHeap checks Median's stack copy against the heap
// path it shortcuts (a list one longer than the stack buffer, padded and
// cut back, takes the heap path with the same values).
func TestMedianStackMatchesHeap(t *testing.T) {
	for _, xs := range smallSeries(rand.New(rand.NewPCG(16, 9))) {
		got := Median(xs)
		s := slices.Clone(xs)
		want := medianSelect(s)
		if want == 0 || math.IsNaN(want) {
			copy(s, xs)
			slices.SortStableFunc(s, cmpFloat)
			want = medianSorted(s)
		}
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("%v: Median %v, want %v", xs, got, want)
		}
	}
}

// TestOLSFitIsOLS checks that olsFit is OLS but for SE, T and P.
func TestOLSFitIsOLS(t *testing.T) {
	for _, xs := range smallSeries(rand.New(rand.NewPCG(16, 10))) {
		a, b := OLS(xs), olsFit(xs)
		a.SE, a.T, a.P = b.SE, b.T, b.P
		same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
		if a.N != b.N || !same(a.Slope, b.Slope) || !same(a.Intercept, b.Intercept) || !same(a.RSS, b.RSS) ||
			!same(a.TSS, b.TSS) || !same(a.Sxy, b.Sxy) || a.Degenerate != b.Degenerate ||
			!slices.EqualFunc(a.Residuals, b.Residuals, same) {
			t.Fatalf("%v: olsFit %+v, OLS %+v", xs, b, a)
		}
	}
}

// TestTrendVerdictsMatchTrendVerdict checks the shared computation against
// TrendVerdict of each algorithm, on short and long series at several
// significance levels.
func TestTrendVerdictsMatchTrendVerdict(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 11))
	series := smallSeries(rng)
	for range 40 {
		xs := make([]float64, 70+rng.IntN(300))
		slope := rng.NormFloat64() * 1e-3
		for i := range xs {
			xs[i] = 1 + slope*float64(i) + 0.01*rng.NormFloat64()
		}
		series = append(series, xs)
	}
	for _, xs := range series {
		for _, alpha := range []float64{0.001, 0.05, 0.3} {
			got := TrendVerdicts(xs, alpha)
			for i, algo := range TrendAlgos {
				if want := TrendVerdict(algo, xs, alpha); got[i] != want {
					t.Fatalf("%v alpha %v: %s %s, TrendVerdict %s", xs, alpha, algo, got[i], want)
				}
			}
		}
	}
}

// TestSummarizeInPlaceMatchesSummarize checks the in-place summary against
// Summarize on the sorter's shapes (zeros of either and both signs, NaN).
func TestSummarizeInPlaceMatchesSummarize(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 12))
	var fs FloatSorter
	for trial := range 5 {
		for name, xs := range floatShapes(rng) {
			for _, l := range [][]float64{xs, xs[:3], xs[:0], repeatTo(xs, 20000, rng)} {
				want := Summarize(l)
				got := fs.SummarizeInPlace(slices.Clone(l))
				same := func(a, b float64) bool {
					return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
				}
				if got.Count != want.Count || !same(got.Mean, want.Mean) || !same(got.Min, want.Min) ||
					!same(got.Max, want.Max) || !same(got.P50, want.P50) || !same(got.P90, want.P90) ||
					!same(got.P99, want.P99) || !slices.EqualFunc(got.Histogram, want.Histogram, func(a, b Bin) bool {
					return same(a.Lo, b.Lo) && same(a.Hi, b.Hi) && a.Count == b.Count
				}) {
					t.Fatalf("%s trial %d n=%d: %+v, want %+v", name, trial, len(l), got, want)
				}
			}
		}
	}
}
