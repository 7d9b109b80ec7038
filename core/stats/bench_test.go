package stats

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchSeries returns n TPOT-like values (ns, ±10 % jitter) from a fixed seed.
func benchSeries(n int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 4e7 * (1 + 0.1*(rng.Float64()-0.5)) / 3
	}
	return xs
}

// benchBySize runs f as a sub-benchmark "n=N" on benchSeries(N) for
// each N of ns.
func benchBySize(b *testing.B, ns []int, f func(xs []float64)) {
	for _, n := range ns {
		xs := benchSeries(n)
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f(xs)
			}
		})
	}
}

func BenchmarkCoV(b *testing.B) {
	benchBySize(b, []int{6, 60, 1000, 100000}, func(xs []float64) { CoV(xs) })
}

func BenchmarkHamedRao(b *testing.B) {
	benchBySize(b, []int{12, 60, 300}, func(xs []float64) { HamedRao(xs) })
}

func BenchmarkTrendVerdicts(b *testing.B) {
	xs := benchSeries(60)
	for _, a := range TrendAlgos {
		b.Run(string(a), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				TrendVerdict(a, xs, Alpha)
			}
		})
	}
}

func BenchmarkPettitt(b *testing.B) {
	xs := benchSeries(60)
	b.ReportAllocs()
	for b.Loop() {
		Pettitt(xs, Alpha)
	}
}

func BenchmarkEarlyStoppingPercentile(b *testing.B) {
	for _, n := range []int{10000, 1000000} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i)
		}
		for _, p := range []float64{0.5, 0.99} {
			b.Run("n="+strconv.Itoa(n)+"/p="+strconv.FormatFloat(p, 'g', -1, 64), func(b *testing.B) {
				for b.Loop() {
					EarlyStoppingPercentile(xs, p, EarlyStoppingConfidence, EarlyStoppingTolerance)
				}
			})
		}
	}
}

// BenchmarkDiagnosticsVerdicts is the trend verdicts of a warm analyze's
// diagnostic tables for one metric of a 52-super-pass run (issue 32's
// streamed log): the whole series and its rolling windows of 4, 6 and 8.
func BenchmarkDiagnosticsVerdicts(b *testing.B) {
	xs := benchSeries(52)
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			TrendVerdicts(xs, Alpha)
		}
	})
	var rt RollingTrend // reused, as the diagnostic tables do
	b.Run("rolling", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, w := range []int{4, 6, 8} {
				rt.Verdicts(xs, w, Alpha, func(int, [5]Verdict) bool { return true })
			}
		}
	})
	// The rolling windows' verdicts alone, with and without the z-tests'
	// band (every p-value computed).
	for _, c := range []struct {
		name string
		band zBand
	}{{"band", newZBand(Alpha)}, {"p-values", zBand{alpha: Alpha}}} {
		b.Run("windows-"+c.name, func(b *testing.B) {
			var rw rollingWindow
			for b.Loop() {
				for _, w := range []int{4, 6, 8} {
					rw.init(xs, w)
					lags := NeweyWestLags(w)
					for lo := 0; lo+w <= len(xs); lo++ {
						if lo == 0 {
							rw.build(0)
						} else {
							rw.slide(lo)
						}
						rw.verdicts(lags, c.band)
					}
				}
			}
		})
	}
}
