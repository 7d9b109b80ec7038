package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// DriftTest compares, over the super-passes from the first plateau's start
// to the last one's end, a single line against the best fit by as many
// levels as there are plateaus (BIC = n·ln(RSS/n) + q·ln n, q = 2 for the
// line, 2k − 1 for k levels). Drift is true when the line wins and the gate
// finds a trend of at least the effect-size floor over [Lo, Hi): the
// plateaus are a drift chopped into pieces (deviation D5), not a staircase.
type DriftTest struct {
	// SP is the tested span [Lo, Hi) in absolute super-passes.
	SP               SPRange
	BICLine, BICStep float64
	Drift            bool
	Up               bool
}

// driftTest is the DriftTest of the gated tpot_p50 over [first plateau
// start, last plateau end) (post-relative; warmup super-passes precede
// them): a line against the best piecewise-constant fit with as many
// levels as there are plateaus (optimal segmentation, so the super-passes
// straddling a step do not count against the steps).
func driftTest(pct []*spPercentiles, plateaus []Plateau, warmup int, g gateConfig, v *memoView, stop *stopper) DriftTest {
	lo, hi := plateaus[0].Lo, plateaus[len(plateaus)-1].Hi
	dt := DriftTest{SP: absRange(warmup, lo, hi)}
	var xs, ys []float64
	for i := lo; i < hi; i++ {
		if pct[i].ok[mTPOTP50] {
			xs = append(xs, float64(i))
			ys = append(ys, pct[i].v[mTPOTP50])
		}
	}
	k := len(plateaus)
	if len(ys) < max(3, k) {
		dt.BICLine, dt.BICStep = math.NaN(), math.NaN()
		return dt
	}
	slope, rssLine := lineFit(xs, ys)
	mean := stats.Mean(ys)
	dt.BICLine = bic(rssLine, len(ys), 2, mean)
	dt.BICStep = bic(segmentSSE(ys, k, 1, stop), len(ys), 2*k-1, mean)
	dt.Up = slope > 0
	traj := trajectory(pct[lo:hi], mTPOTP50)
	trend := v.trend(g.gate, mTPOTP50, lo, hi, traj, g.minN, g.alpha) != stats.VerdictSteady &&
		math.Abs(relDrift(traj, nil)) >= g.relDriftMin
	dt.Drift = trend && dt.BICLine < dt.BICStep
	return dt
}

// bic is the Bayesian information criterion of a least-squares fit of n
// points with q parameters and residual sum of squares rss,
//
//	n·ln((rss + n·(1e−6·mean)²)/n) + q·ln n
//
// where the floor n·(1e−6·mean)² keeps an exact fit (rss = 0) finite and
// makes fits that differ by less than a millionth of the level tie on q.
func bic(rss float64, n, q int, mean float64) float64 {
	fn := float64(n)
	floor := fn * math.Pow(1e-6*mean, 2)
	return fn*math.Log((rss+floor)/fn) + float64(q)*math.Log(fn)
}

// segmentSSE is the least residual sum of squares of ys split into k
// contiguous non-empty segments, the first of at least minFirst points,
// each fitted by its mean (dynamic programming over prefix sums, O(k·n²));
// +Inf when no split exists. It polls stop every 64 rows (n is the
// super-passes of the plateaus: at 100,000 of them the table is minutes of
// work) and returns NaN once stop fails; the analysis is then abandoned.
func segmentSSE(ys []float64, k, minFirst int, stop *stopper) float64 {
	n := len(ys)
	s1 := make([]float64, n+1)
	s2 := make([]float64, n+1)
	for i, y := range ys {
		s1[i+1], s2[i+1] = s1[i]+y, s2[i]+y*y
	}
	cost := func(i, j int) float64 { // SSE of ys[i:j]
		m := float64(j - i)
		d := s1[j] - s1[i]
		return math.Max(0, (s2[j]-s2[i])-d*d/m)
	}
	prev := make([]float64, n+1)
	for j := range prev {
		prev[j] = math.Inf(1)
		if j >= max(minFirst, 1) {
			prev[j] = cost(0, j)
		}
	}
	for seg := 2; seg <= k; seg++ {
		cur := make([]float64, n+1)
		for j := range cur {
			cur[j] = math.Inf(1)
		}
		for j := seg; j <= n; j++ {
			if j&63 == 0 && stop.failed() {
				return math.NaN()
			}
			for i := seg - 1; i < j; i++ {
				if c := prev[i] + cost(i, j); c < cur[j] {
					cur[j] = c
				}
			}
		}
		prev = cur
	}
	return prev[n]
}

// lineFit is the least-squares line y = a + b·x: slope b and residual sum
// of squares (NaN slope when the xs are constant).
func lineFit(xs, ys []float64) (slope, rss float64) {
	mx, my := stats.Mean(xs), stats.Mean(ys)
	sxx, sxy := 0.0, 0.0
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	if sxx == 0 {
		return math.NaN(), math.NaN()
	}
	slope = sxy / sxx
	for i := range xs {
		e := ys[i] - (my + slope*(xs[i]-mx))
		rss += e * e
	}
	return slope, rss
}
