package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// The settling curve (issue 29, steadysweep only): TPOT that approaches its
// asymptote exponentially — or ramps linearly into a flat part — and
// settles late in the run is neither a drift nor a staircase. Segmented
// as levels, its slow tail forms short plateaus that climb towards the
// asymptote, so the run reads "drifting up across 2 short plateaus" or the
// window sits on the approach and the rest of it is reported as a level
// shift. The select stage therefore fits a settling curve to the
// post-warmup tpot_p50 before segmenting: when it explains the series
// better than a constant, a line and 2–3 levels, the plateaus are searched
// only where the curve has settled, and a curve still moving at the run's
// end is no steady state.

// Settling is the settling-curve record of the post-warmup tpot_p50
// series.
type Settling struct {
	// Detected: a settling curve beats a constant, a line and 2–3 levels
	// (BIC, by settleBICMargin) and moves by at least shiftMinRel of its
	// level.
	Detected bool
	// Settled: the curve comes within settleTol of its asymptote with at
	// least MinTrendN super-passes, and a quarter of the series, left;
	// Start is the first of them, absolute (the series' end when not
	// settled); start the same post-warmup, the detector's index (set
	// Start from it with absSP).
	Settled bool
	Start   SPIndex
	start   int
	// Kind is "exp" (level − A·e^{−t/τ}) or "hinge" (a line into a flat
	// part); Tau is τ in super-passes (NaN for a hinge).
	Kind string
	Tau  float64
	// Up is the curve's direction; RelAmp its total relative change.
	Up     bool
	RelAmp float64
	// BICCurve and BICAlt are the curve's BIC and the best of a constant,
	// a line and 2–3 levels.
	BICCurve, BICAlt float64
}

// settleTol is how close to its asymptote the settling curve must be for
// the series to count as settled: a quarter of a percent, half of the
// ±0.5 % band within which planted truth calls a run of super-passes a
// plateau, so a window starting there is biased by at most that much.
const settleTol = 0.0025

// settleBICMargin is how much lower the settling curve's BIC must be than
// the alternatives' (Kass & Raftery 1995: a difference of 2–6 is positive
// evidence): a line or levels with noise that happens to flatten at the
// end must not pass for an approach.
const settleBICMargin = 2

// settlingCurve fits the settling curves to the tpot_p50 of the
// post-warmup super-passes (those with a value) and reports whether one
// explains them (Settling). minN is the least number of settled points.
func settlingCurve(pct []*spPercentiles, minN int, stop *stopper) Settling {
	st := Settling{start: len(pct), Tau: math.NaN(), BICCurve: math.NaN(), BICAlt: math.NaN()}
	var idx []int
	var ys []float64
	for i, p := range pct {
		if p.ok[mTPOTP50] {
			idx = append(idx, i)
			ys = append(ys, p.v[mTPOTP50])
		}
	}
	// A long series is fitted on block means (settleMaxPoints at most), so
	// the fits stay O(n) however fine the super-passes.
	idx, ys = blockMeans(idx, ys, settleMaxPoints)
	n := len(ys)
	if n < 2*minN {
		return st
	}
	mean := stats.Mean(ys)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	_, rssLine := lineFit(xs, ys)
	st.BICAlt = math.Min(math.Min(bic(sse(ys), n, 1, mean), bic(rssLine, n, 2, mean)), bestStepBIC(ys, 3, 1, stop))

	tau, level, amp, rssExp := expApproach(ys)
	c, a, b, rssHinge := hingeFit(ys, minN, stop)
	settle := n
	switch {
	case rssExp <= rssHinge && !math.IsNaN(rssExp):
		st.Kind, st.Tau, st.BICCurve = "exp", tau, bic(rssExp, n, 3, mean)
		st.Up, st.RelAmp = amp < 0, math.Abs(amp/level)
		// |amp|·e^{−t/τ} ≤ settleTol·|level|
		settle = int(math.Ceil(tau * math.Log(math.Abs(amp)/(settleTol*math.Abs(level)))))
	case !math.IsNaN(rssHinge):
		st.Kind, st.BICCurve = "hinge", bic(rssHinge, n, 3, mean)
		st.Up, st.RelAmp = b > 0, math.Abs(b*float64(c)/(a+b*float64(c)))
		settle = c
	default:
		return st
	}
	st.Detected = st.BICCurve < st.BICAlt-settleBICMargin && st.RelAmp >= shiftMinRel
	if !st.Detected {
		return st
	}
	settle = max(settle, 0)
	if n-settle >= max(minN, n/4) {
		st.Settled, st.start = true, idx[settle]
	}
	return st
}

// settleMaxPoints bounds the points the settling fits see (blockMeans).
const settleMaxPoints = 512

// blockMeans averages ys in consecutive blocks of ⌈n/max⌉ points when
// there are more than max, each block indexed by its first point's index;
// otherwise it returns its arguments.
func blockMeans(idx []int, ys []float64, maxPoints int) ([]int, []float64) {
	n := len(ys)
	if n <= maxPoints {
		return idx, ys
	}
	b := (n + maxPoints - 1) / maxPoints
	var bi []int
	var by []float64
	for lo := 0; lo < n; lo += b {
		hi := min(lo+b, n)
		bi = append(bi, idx[lo])
		by = append(by, stats.Mean(ys[lo:hi]))
	}
	return bi, by
}

// expApproach is the least-squares exponential approach
// y_t = level + amp·e^{−t/τ} (t = 0 … n−1): for each τ of a geometric grid
// from 0.5 to 4n super-passes (ratio 1.15) the linear fit in e^{−t/τ},
// the best τ kept. rss is NaN for fewer than three points.
func expApproach(ys []float64) (tau, level, amp, rss float64) {
	n := len(ys)
	rss, tau, level, amp = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if n < 3 {
		return
	}
	xs := make([]float64, n)
	my := stats.Mean(ys)
	for t := 0.5; t <= 4*float64(n); t *= 1.15 {
		for i := range xs {
			xs[i] = math.Exp(-float64(i) / t)
		}
		slope, r := lineFit(xs, ys)
		if math.IsNaN(r) || !(math.IsNaN(rss) || r < rss) {
			continue
		}
		rss, tau, amp = r, t, slope
		level = my - slope*stats.Mean(xs)
	}
	return tau, level, amp, rss
}

// hingeFit is the least-squares "ramp, then flat" fit
// y_t = a + b·min(t, c) over the breaks c = 1 … n − minFlat, returning the best break and its coefficients; rss is NaN when
// there is no break or once stop fails (O(n²) in all).
func hingeFit(ys []float64, minFlat int, stop *stopper) (c int, a, b, rss float64) {
	n := len(ys)
	rss = math.NaN()
	xs := make([]float64, n)
	for k := 1; k <= n-minFlat; k++ {
		if k&63 == 0 && stop.failed() {
			return 0, 0, 0, math.NaN()
		}
		for t := range xs {
			xs[t] = math.Min(float64(t), float64(k))
		}
		slope, r := lineFit(xs, ys)
		if math.IsNaN(r) || !(math.IsNaN(rss) || r < rss) {
			continue
		}
		c, b, rss = k, slope, r
		a = stats.Mean(ys) - slope*stats.Mean(xs)
	}
	return c, a, b, rss
}
