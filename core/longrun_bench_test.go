package core

// Run with: nice go test -run '^$' -bench 'LongRun' -benchtime 1x ./core/
// (issue 32: a soak test with a small dataset has thousands of
// super-passes; the target is 10,000 super-passes of 20 samples in ≤ 2 s
// and of one sample in ≤ 5 s).

import (
	"fmt"
	"testing"
)

// BenchmarkLongRun analyses a steady run of 10,000 super-passes (the
// synthetic closed-loop run of syntheticSamples) under the default
// parameters and under --compat reference, with the outcome and the
// diagnostics a report prints.
func BenchmarkLongRun(b *testing.B) {
	for _, S := range []int{20, 1} {
		s := syntheticSamples(10000, S)
		for _, c := range []struct {
			name string
			p    Params
		}{{"ours", DefaultParams()}, {"reference", ReferenceParams()}} {
			b.Run(fmt.Sprintf("S=%d/%s", S, c.name), func(b *testing.B) {
				p := c.p
				p.SuperpassSize = S
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					run := NewRun(s, RunInfo{DatasetSize: S})
					r, err := run.Analyze(p)
					if err != nil {
						b.Fatal(err)
					}
					_ = r.Outcome()
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// BenchmarkLongRunDiagnostics computes the diagnostic tables (§9) of the
// runs of BenchmarkLongRun under the default parameters: 10 metrics ×
// three window sizes of rolling windows over 10,000 super-passes and the
// whole-run trend tests (issue 32: the reports' share of a long run).
//
//	nice go test -run '^$' -bench 'LongRunDiagnostics' -benchtime 1x -cpu 1 ./core/
func BenchmarkLongRunDiagnostics(b *testing.B) {
	for _, S := range []int{20, 1} {
		b.Run(fmt.Sprintf("S=%d", S), func(b *testing.B) {
			p := DefaultParams()
			p.SuperpassSize = S
			r, err := NewRun(syntheticSamples(10000, S), RunInfo{DatasetSize: S}).Analyze(p)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for b.Loop() {
				r.diagDone = false
				if _, err := r.Diagnostics(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
