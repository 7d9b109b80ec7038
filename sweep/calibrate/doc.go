// Package calibrate scores a sweep's parameter sets against planted truth
// and recommends defaults (design §6: defaults are set from sweeps over
// recorded runs).
//
// Calibrate reads every row of OUT/rows (package sinks), finds each run's
// truth.json (corpora/synth.Truth) beside its run_path, and scores each
// config_id over the runs that have one. Runs without truth.json are
// skipped and counted; rows with status "error" are counted and listed,
// never scored.
//
// # Verdict vocabulary
//
// Truth labels are synth's expected_verdict.verdict: steady, anomaly,
// drifting_up, drifting_down, not_found, insufficient_passes,
// partial_dataset, not_supported. A row is mapped to the same words
// (Label):
//
//	status                 verdict        → label
//	error                  —                error (not scored)
//	partial_dataset        —                partial_dataset
//	insufficient_passes    —                insufficient_passes
//	not_supported          —                not_supported
//	insufficient_duration  —                short
//	windowable or ""       STEADY STATE     steady
//	windowable or ""       anomaly          anomaly
//	windowable or ""       drifting_up      drifting_up
//	windowable or ""       drifting_down    drifting_down
//	windowable or ""       not found        not_found
//
// Status "" is the reference compat mode, which has no coverage status.
// "short" (a plateau exists but is shorter than the min-duration floor)
// has no truth counterpart. A row agrees with its truth when the labels
// are equal, or when the config gates on min_duration, truth has a
// plateau that only the gate rejects (found_no_min_duration and not
// found), truth says steady or anomaly, and the row says short or
// not_found: the gate did what it is for.
//
// # Metrics per config
//
//   - Found rate: rows with found=true among eligible runs. A run is
//     eligible when truth says a steady window must be reported under the
//     config's gate: expected_verdict.found if min_duration is on,
//     found_no_min_duration if it is off. The plateau found rate uses
//     found_no_min_duration for every config.
//   - TPOT error: |steady_tpot_p50_ns − planted| / planted over rows that
//     report a window and a steady TPOT (found or not). Planted is the
//     planted level (planted.tpot_level_ms_per_sp) of the truth
//     super-passes the window covers, taking only the flat ones
//     (planted.flat_sps) when the window covers any: the flat plateau
//     level, ramp and shifted super-passes excluded; the median of those
//     levels. Window indices are converted to truth super-passes through
//     issue positions (superpass_size_used vs truth superpass_size).
//     Quantiles interpolate linearly between order statistics (Quantile).
//     The plateau error is the same over runs with found_no_min_duration
//     only.
//   - Confident-but-wrong: found rows whose TPOT error exceeds MaxErr (5 %),
//     or whose truth has no steady state to find (not_found, drifting_up,
//     drifting_down, insufficient_passes, partial_dataset); the rate is
//     over found rows. not_supported truths are excluded from the second
//     clause: steadysweep's offline mode finds completion-rate plateaus
//     the generator does not plant.
//   - Window-start error: window_start_sp (in truth super-passes) minus
//     ⌈planted warmup_end_sp⌉, over found rows whose truth has a plateau
//     and a warmup end; 0 for a detector that starts at the first
//     super-pass after the admission ramp. Signed median and median of
//     absolute values.
//
// # Head-to-head by truth class
//
// Every config a preset names (default, reference, the baselines total,
// fixed-pct and mser5, the peer detectors aiperf, vllm-bench, sglang and
// guidellm; docs/peers.md) and the recommended one get a row per truth
// class (ClassScore; the class of an accuracy-suite run is its name
// without the index and sizes, else the truth's name): runs, found among
// the class's planted plateaus (or the false finds where it plants none),
// TPOT error p50 and p95 as above, confident-but-wrong, and the rows
// reporting a level shift (anomaly_detected) or a drift (verdict
// drifting_up or drifting_down). The report and the HTML page show it
// after the ranking.
//
// # Ranking
//
// Configs are ordered lexicographically (Rank): confident-but-wrong rate,
// ascending, compared in steps of CBWTolerance (1 percentage point); then
// found rate, descending; then median TPOT error, ascending; then
// agreement rate, descending; then the number of parameters changed from
// the compat's defaults, ascending (a full tie goes to the defaults); then
// config_id. An undefined metric (no
// found rows, no eligible runs, no error values) sorts after every
// defined one. The first config is recommended.
//
// # Records and renderers
//
// The package computes; sinks/calibration renders. The report is a plain
// record (calibration.Report, its configs calibration.ConfigScore) that
// the scoring here fills from per-config accumulators (configAcc,
// classAcc: the record plus the samples its quantiles are taken over);
// the Markdown report, the terminal table, the PNG, calibration.parquet
// and the HTML page are calibration.Report's methods.
package calibrate
