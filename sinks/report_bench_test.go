package sinks_test

import (
	"io"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// BenchmarkWriteReport writes the text report of the shared parity run
// conc_clean_ramp, the small run of issue 32's warm analyze: its
// allocations are fresh heap pages a short command faults in.
func BenchmarkWriteReport(b *testing.B) {
	r, run := analyzeRun(b, "conc_clean_ramp", core.DefaultParams())
	in := sinks.ReportInput{Result: r, RunPath: "parity/runs/conc_clean_ramp", Derived: []sinks.Derivation{
		{Name: "tokenizer", Value: "words", Source: "--tokenizer"},
		{Name: "dataset size", Value: strconv.Itoa(run.Info.DatasetSize), Source: run.Info.DatasetSizeSource},
	}}
	b.ReportAllocs()
	for b.Loop() {
		if err := sinks.WriteReport(io.Discard, in); err != nil {
			b.Fatal(err)
		}
	}
}
