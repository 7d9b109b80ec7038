// Package stats provides the numeric primitives and statistical tests of the
// steady-state detector: compensated sums, exactly rounded population standard
// deviation, the reference's percentile and rank conventions, trend tests
// (Mann–Kendall, Hamed–Rao, Theil–Sen, OLS, Newey–West, slope versus scatter),
// the Pettitt change-point test, MSER truncation, batch-means confidence
// intervals and the MLPerf LoadGen early-stopping estimate.
//
// Each function reproduces one statistic as the Python reference detector
// (mlcommons/endpoints steady_state_diagnostics.py at 40b78bfe) computes it, or,
// where the reference has no such statistic, as the published implementation
// named in its doc comment. Section numbers (§) refer to the shared
// specification spec/detector.md unless the comment says statistics.md.
//
// Functions do no I/O and never panic on any input: an undefined result is NaN
// (as in gonum's stat package) unless the doc comment states the reference's
// own convention (for example CoV of fewer than two values is 0).
//
// Bit-exactness. Sum, Mean, PStdev, CoV, Median, PercentileLower, the ranks,
// Mann–Kendall S and its variance, the Hamed–Rao correction, Theil–Sen, OLS,
// Newey–West, slope versus scatter, RelDrift, Pettitt K and change point,
// MSER and the early-stopping integers follow the reference's operation order
// and are bit-identical to it. Results that pass through a libm function differ
// from glibc by at most a few ulp (§5.7): p-values (math.Erf/math.Erfc),
// Pettitt's p (math.Exp), log-mode histogram edges (math.Pow) and batch-means
// intervals (y*y instead of glibc pow(y, 2)).
package stats
