package core

import "testing"

// BenchmarkAnalyzeRollupsOurs is BenchmarkAnalyzeRollups under compat
// steadysweep (our selection, totals, early stopping, guardrails), the
// unit of work of a sweep row.
func BenchmarkAnalyzeRollupsOurs(b *testing.B) {
	sps := Rollup(syntheticSamples(60, 150), 150)
	info := RunInfo{DatasetSize: 150}
	p := DefaultParams()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := analyzeRollups(sps, info, p); err != nil {
			b.Fatal(err)
		}
	}
}
