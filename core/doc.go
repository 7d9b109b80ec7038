// Package core is the steady-state detector: from the performance-tracked
// samples of one benchmark run (Samples, RunInfo) and a parameter set
// (Params) it finds the run's steady window and summarises it.
//
// A Run holds one run's samples, its super-pass rollups (one per size) and
// every memo its analyses share; (*Run).Analyze(Params) is the one entry
// point, and it runs one pipeline, each stage once:
//
//	resolve   validate the parameters, pick the profile (§2.4) and the
//	          strategy (Params.Compat, Params.Method)           run.go
//	series    the rollup at the super-pass size (§4) and the part of it
//	          the strategy windows                              run.go
//	warmup    the adaptive or fixed crop (§8)                   warmup.go
//	select    plateaus (§10.2), the reported window and its
//	          summaries (§10.4–§10.7)                           selection.go
//	finish    steadysweep's assessment: totals, tail cut, load
//	          mode, status, verdict, submission block           assessment.go
//
// The agentic profile takes the NATL path (§13, natl.go) instead of
// series to select. A strategy is a small interface (compat.go) with three
// implementations: the reference's behaviour at 40b78bfe (ReferenceParams,
// specified in shared/spec/detector.md, cited by §), steadysweep's own
// (DefaultParams; docs/deviations.md) and the peer baselines (total,
// fixed-pct, mser5; baselines.go). Files are named for concepts and hold
// both behaviours of a concept side by side: warmup.go, plateau.go,
// levelshift.go, selection.go, status.go, …
//
// The package computes; it renders nothing. The reference's JSON and text
// and steadysweep's JSON, point.yaml and augmented summary are written by
// sinks/resultjson, sinks/reftext and sinks/submission from a Result. The
// statistics come from core/stats. The package does no I/O and keeps no
// state of its own: everything a Run computes is owned by the Run.
package core
