// Package bench measures steadysweep against its anchors: the bufio
// line-split floor for ingest, the Hugging Face Rust tokenizer for token
// counting, the Python reference detector for a whole analysis, and the
// targets of the sweep engine.
//
// The package holds the shared pieces (generated runs, the sweep grid,
// statistics, child-process measurement, machine description) and the
// cross-package Go micro-benchmarks (bench_test.go); bench/cmd/benchall
// runs every measurement and rewrites bench/RESULTS.md:
//
//	make bench
//
// Per-package micro-benchmarks stay with their packages (columnar,
// columnar/tokenizer, core, core/stats, corpora/synth).
package bench
