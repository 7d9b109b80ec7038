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
// Newey–West (slope, bandwidth, standard error), slope versus scatter,
// RelDrift, Pettitt (K, change point and p), the histogram, the batch-means
// interval and the early-stopping integers follow the reference's operation
// order and are bit-identical to it under Python 3.12 on glibc x86-64. The
// reference's libm calls are reproduced by GlibcExp and GlibcPow, ports of
// glibc's exp and pow (FMA build), so Pettitt's p, log-mode histogram edges,
// the squares of the batch-means variance and the Newey–West bandwidth match
// too. Only the normal p-values go through Go's math.Erf/math.Erfc, which
// differ from glibc's erf by at most an ulp (§5.7); they are never output and
// only compared with α, so a verdict can differ only when p is within about
// 1e-16 of α. Products that the reference rounds separately are wrapped in
// float64() so that no Go compiler fuses them into FMA instructions.
//
// Degenerate series. For a constant series or an exact straight line (the
// vectors' const10, const50, inc4) OLS and NeweyWest set Degenerate, their
// residuals vanish so SE is 0 and T and P are NaN (the vectors' null), and the
// verdicts follow the reference: Mann–Kendall with Var(S) ≤ 0 and Newey–West
// with SE = 0 take the sign of S or of the slope (steady for a constant, up
// or down for a perfect line); CoV and RelDrift of a constant are 0.
//
// The published variants (HamedRaoHead, HamedRaoV143, HamedRaoSignedGuarded,
// OLS standard errors, MSER) match their references (pymannkendall,
// modifiedmk, statsmodels, kim-convergence) within the tolerances of
// vectors/README.md, not bit for bit.
package stats
