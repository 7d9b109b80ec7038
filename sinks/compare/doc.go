// Package compare says whether two analyses differ beyond noise: for each
// steady metric (TTFT and TPOT p50/p90/p99, per-user and system TPS), A's
// value, B's, the difference B − A and its 95 % confidence interval, and
// whether the interval excludes zero.
//
// Method. Each side's reported window is a run of k super-passes; each
// super-pass yields one value of the metric (its percentile of TTFT or
// TPOT, 1e9 / its mean TPOT, its output tokens over its issue span): the
// batch means the reported TPS intervals are built from (detector spec
// §10.7). With s² their sample variance (k − 1 denominator),
//
//	diff = b − a                               (the reported values)
//	se   = √(s²_A/k_A + s²_B/k_B)
//	ν    = se⁴ / ((s²_A/k_A)²/(k_A−1) + (s²_B/k_B)²/(k_B−1))   (Welch)
//	CI   = diff ∓ t95(⌊ν⌋)·se
//
// t95 is the reference's two-sided 95 % table (stats.TCritical95: df 1…30,
// 1.96 beyond), ⌊ν⌋ rounding the degrees of freedom down, so the interval
// errs wide. The interval is centred on the difference of the reported
// values, as the system TPS interval is on its value.
//
// A metric cannot be compared — and no number is printed for it, only the
// reason — when either side has no steady value (no window, or a null
// the analysis explains), fewer than two super-passes with the metric in
// its window, a reported interval that is null, or no spread at all
// between super-passes (se = 0).
//
// Sides come from a run analysed in-process (FromResult) or from a sweep's
// rows and series (ReadSweep); both go through the same series rows
// (sinks.SeriesRowOf), so the two paths compute the same numbers.
package compare
