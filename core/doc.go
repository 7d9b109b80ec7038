// Package core is the steady-state detector: from the performance-tracked
// samples of one benchmark run (Samples, RunInfo) and a parameter set
// (Params) it finds the run's steady window and summarises it.
//
// With ReferenceParams the detector reproduces the Python reference
// (mlcommons/endpoints steady_state_diagnostics.py at 40b78bfe, specified
// in shared/spec/detector.md, cited by §) exactly: its JSON bytes
// (Result.ReferenceJSON) and its text report (Result.ReferenceText). The
// stages, each a function named for what it computes:
//
//	Rollup              super-passes of S samples by issue rank (§4)
//	AutoWarmup          the adaptive warmup crop (§8)
//	trajectory          per-super-pass percentiles of ten metrics (§6)
//	diagnosticTables    CoV and drift tables per window size (§9)
//	windowAdmissible    admissibility of a window (§10.1)
//	segmentPlateaus     grow-from-left plateaus (§10.2)
//	minSteadyDuration   the min-duration gate of a plateau (§10.3)
//	buildSteadyState    plateau selection, found and reason (§10.4)
//	detectLevelShift    Pettitt-corroborated level shift (§10.5)
//	globalTrend         the tail trend and drifting_up (§10.6)
//	windowTPS           per-user and system TPS with CIs (§10.7)
//	NATLPairs, NATLSummary  the agentic NATL path (§13)
//
// Analyze runs everything; Rollup and AnalyzeRollups split it so that the
// rollups of a run are built once per super-pass size and analysed under
// many parameter sets (the rollups are read-only and carry caches of their
// sorted lists). The statistics come from core/stats. The package does no
// I/O and has no mutable globals.
package core
