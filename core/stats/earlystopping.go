package stats

import "gonum.org/v1/gonum/mathext"

// MLPerf LoadGen early stopping (statistics.md §9; seed early-stopping.md;
// LoadGen loadgen/early_stopping.cc and results.cc at b66003e).

// Early-stopping constants hard-coded by LoadGen's EarlyStopping.
const (
	EarlyStoppingConfidence = 0.99
	EarlyStoppingTolerance  = 0.0
)

// earlyStoppingOdds returns the chance of at most t over-latency queries in
// h+t queries when the over-latency rate is 1 − (p − d),
//
//	odds(h, t) = I_{p−d}(h, t+1) = P[Binomial(h+t, 1−p+d) ≤ t]
func earlyStoppingOdds(h, t int, p, d float64) float64 {
	return mathext.RegIncBeta(float64(h), float64(t+1), p-d)
}

func earlyStoppingValid(p, confidence, tolerance float64) bool {
	x := p - tolerance
	return x > 0 && x < 1 && confidence > 0 && confidence < 1
}

// EarlyStoppingHMin returns LoadGen's h_min(t): the smallest h ≥ 1 with
//
//	I_{p−d}(h, t+1) < 1 − c      (strict, as LoadGen's code)
//
// for percentile p (a fraction, 0.99 for p99), confidence c and tolerance d:
// the number of under-latency queries needed to absorb t over-latency ones.
// The odds decrease in h, so a galloping then bisecting search finds it.
// EarlyStoppingHMin returns −1 for t < 0, p − d outside (0, 1) or c outside
// (0, 1). Examples (c = 0.99, d = 0): h_min(0, 0.99) = 459,
// h_min(1, 0.99) = 661.
func EarlyStoppingHMin(t int, p, confidence, tolerance float64) int {
	if t < 0 || !earlyStoppingValid(p, confidence, tolerance) {
		return -1
	}
	target := 1 - confidence
	pass := func(h int) bool { return earlyStoppingOdds(h, t, p, tolerance) < target }
	if pass(1) {
		return 1
	}
	lo, hi := 1, 2 // pass(lo) is false
	for !pass(hi) {
		lo = hi
		if hi > 1<<52 {
			return -1
		}
		hi *= 2
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if pass(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// EarlyStoppingMinQueries returns the smallest number of queries for which
// an early-stopping estimate of percentile p exists, h_min(1) + 1 (the seed's
// floors: p50 11, p90 64, p99 662, p99.9 6 636, p99.99 66 381 at c = 0.99,
// d = 0). It returns −1 for invalid arguments.
func EarlyStoppingMinQueries(p, confidence, tolerance float64) int {
	h := EarlyStoppingHMin(1, p, confidence, tolerance)
	if h < 0 {
		return -1
	}
	return h + 1
}

// EarlyStoppingOverLatencyBudget returns LoadGen's SingleStream t for n
// queries: the largest t ≥ 1 with n ≥ h_min(t) + t, and ok = false (t = 0)
// when n < EarlyStoppingMinQueries. The odds decrease in h, so
// n ≥ h_min(t) + t exactly when the odds at h = n − t already pass,
//
//	I_{p−d}(n − t, t+1) = P[Binomial(n, 1−p+d) ≤ t] < 1 − c,
//
// which increases with t: the search gallops then bisects over t, one
// odds evaluation a step instead of a search for h_min(t).
func EarlyStoppingOverLatencyBudget(n int, p, confidence, tolerance float64) (t int, ok bool) {
	if !earlyStoppingValid(p, confidence, tolerance) {
		return 0, false
	}
	target := 1 - confidence
	fits := func(t int) bool { return n-t >= 1 && earlyStoppingOdds(n-t, t, p, tolerance) < target }
	if !fits(1) {
		return 0, false
	}
	lo, hi := 1, 2 // fits(lo)
	for fits(hi) {
		lo = hi
		hi *= 2
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true
}

// EarlyStoppingPercentile returns LoadGen's SingleStream early-stopping
// estimate of percentile p (a fraction) from n ascending latencies:
//
//	sorted[n − t],  t = EarlyStoppingOverLatencyBudget(n, p, c, d)
//
// the t-th largest sample, an upper confidence bound (level c) on the true
// p-quantile. ok is false, with a zero value, when n is below the floor
// EarlyStoppingMinQueries or the arguments are invalid. Example: n = 10 000,
// p = 0.99 gives t = 77, sorted[9923]. The slice is not checked for order.
func EarlyStoppingPercentile[T ~float64 | ~int64](sorted []T, p, confidence, tolerance float64) (value T, ok bool) {
	t, ok := EarlyStoppingOverLatencyBudget(len(sorted), p, confidence, tolerance)
	if !ok {
		return value, false
	}
	return sorted[len(sorted)-t], true
}

// EarlyStoppingServerPass reports LoadGen's Server early-stopping check: with
// t of n latencies over the target, the run passes iff n ≥ h_min(t) + t
// (p99, c = 0.99: t = 0 needs 459 queries, t = 10 needs 2 010).
func EarlyStoppingServerPass(n, t int, p, confidence, tolerance float64) bool {
	h := EarlyStoppingHMin(t, p, confidence, tolerance)
	return h >= 0 && n >= h+t
}
