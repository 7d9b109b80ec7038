package stats

import (
	"encoding/binary"
	"math"
	"testing"
)

// callAll calls every exported function on xs with ordinary and hostile
// parameters; it must never panic (package doc: undefined results are NaN).
func callAll(xs []float64) {
	Sum(xs)
	Mean(xs)
	PStdev(xs)
	Stdev(xs)
	CoV(xs)
	Median(xs)
	for _, p := range []float64{-1, 0, 0.5, 0.99, 1, 2, math.NaN()} {
		PercentileLower(xs, p)
		EarlyStoppingPercentile(xs, p, 0.99, 0)
	}
	AverageRanks(xs)
	OrdinalRanks(xs)
	NormalTwoSidedP(Mean(xs))
	TCritical95(len(xs) - 2)
	BatchMeansCI(xs)
	RatioCI(xs, xs)
	RatioCI(xs, xs[len(xs)/2:])
	if n := len(xs) / 2; n > 0 {
		RatioCI(xs[:n], xs[n:2*n])
	}
	for _, k := range []int{-1, 0, 1, 3, len(xs), len(xs) + 1} {
		BatchMeans(xs, k, true)
		BatchMeans(xs, k, false)
		MSER(xs, k)
		MSERKim(xs, k)
		Histogram(xs, k)
		NeweyWest(xs, k)
		HamedRaoHead(xs, k)
	}
	Summarize(xs)
	for _, a := range append(TrendAlgos, "bogus") {
		TrendVerdict(a, xs, Alpha)
		TrendVerdict(a, xs, math.NaN())
	}
	MannKendall(xs).Verdict(Alpha)
	HamedRao(xs).Verdict(Alpha)
	HamedRaoV143(xs).Verdict(Alpha)
	HamedRaoSignedGuarded(xs)
	SensSlope(xs)
	SensIntercept(xs, 1)
	TheilSenRelDrift(xs)
	OLS(xs)
	NeweyWest(xs, -1).Verdict(Alpha)
	SlopeVsScatter(xs).Verdict()
	RelDrift(xs)
	Pettitt(xs, Alpha)
	MSERArgmin(xs, len(xs))
	MSERArgmin(xs, -5)
	EarlyStoppingHMin(len(xs)-2, 0.9, 0.99, 0)
	EarlyStoppingMinQueries(Mean(xs), 0.99, 0)
	EarlyStoppingOverLatencyBudget(len(xs), 0.9, 0.99, 0)
	EarlyStoppingServerPass(len(xs), 1, 0.9, 0.99, 0)
	NeweyWestLags(len(xs))
}

func TestNoPanic(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	inputs := [][]float64{
		nil, {}, {nan}, {inf}, {-inf}, {1}, {1, 2}, {1, 2, 3}, {0, 0, 0, 0},
		{nan, nan, nan, nan, nan}, {1, nan, 3, 4, 5}, {inf, -inf, inf, -inf, 0},
		{1e308, -1e308, 1e308, 1e308, 5e-324}, {5e-324, 5e-324, 0, -5e-324},
		{math.Copysign(0, -1), 0, 0, math.Copysign(0, -1)},
		seq(4), seq(13), seq(64), append(seq(30), nan),
	}
	for _, xs := range inputs {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("panic on %v: %v", xs, r)
				}
			}()
			callAll(xs)
		}()
	}
}

// FuzzNoPanic feeds arbitrary doubles (8 bytes each) to every function.
func FuzzNoPanic(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 8*5))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 8*64 {
			b = b[:8*64]
		}
		xs := make([]float64, len(b)/8)
		for i := range xs {
			xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
		callAll(xs)
	})
}
