package resultjson_test

import (
	"io"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// BenchmarkWrite writes the JSON of the committed run testdata/goodrun,
// analysed under compat reference and under steadysweep, to io.Discard:
// the tree, the encoding and the diagnostic tables' text, without the
// file system (issue 32: a warm analyze's --json). Its diagnostic tables
// are computed before the timer starts, as analyze does before writing.
//
//	nice go test -run '^$' -bench Write -benchmem -cpu 1 -count 5 ./sinks/resultjson/
func BenchmarkWrite(b *testing.B) {
	for _, c := range []struct {
		name   string
		params core.Params
	}{{"reference", core.ReferenceParams()}, {"steadysweep", core.DefaultParams()}} {
		b.Run(c.name, func(b *testing.B) {
			r, err := sinkstest.GoodRun(b).Analyze(c.params)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Diagnostics(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := resultjson.Write(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
