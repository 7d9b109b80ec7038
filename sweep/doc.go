// Package sweep runs the steady-state detector over many runs and many
// parameter sets and writes one Parquet row per run × parameter set.
//
// The pieces, in the order a sweep uses them:
//
//   - Grid (ParseGrid, Grid.Configs): the parameter sets — presets
//     (default, reference, total, fixed-pct, mser5) times the cartesian
//     product of the grid file's axes and --set flags.
//   - Shard (ParseShard): which runs this process owns, by a hash of each
//     run's path relative to its root; shards need no coordinator.
//   - Run: a bounded worker pool that loads each run once (Loader),
//     analyses it with every parameter set (Analyzer), and hands the rows to
//     a single writer goroutine (package sinks). A failing or panicking run
//     becomes rows with status "error"; it never stops the sweep.
//   - Progress: a live status line on a terminal, a summary otherwise.
//
// Output layout and schema: see package sinks.
package sweep
