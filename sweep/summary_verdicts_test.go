package sweep

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
)

// TestSummaryCountsVerdicts: the sweep's summary line counts the rows by
// verdict beside the status counts, so windowable rows that drift or hold
// a level shift are visible (issue 26: "9 windowable" hid them). Over the
// 18 parity runs, the verdict counts in the line are the verdict column
// of the rows read back from the part files.
func TestSummaryCountsVerdicts(t *testing.T) {
	runs := parityRuns(t)
	out := t.TempDir()
	sum, err := Run(context.Background(), Options{Runs: runs, Configs: []core.Params{core.DefaultParams()}, Out: out,
		Load: DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}}), Analyze: DefaultAnalyzer, Series: DefaultSeries})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	eachRecord(t, out+"/rows", memory.DefaultAllocator, func(_ string, rec arrow.RecordBatch) {
		v := rec.Column(rec.Schema().FieldIndices("verdict")[0]).(*array.String)
		for i := range int(rec.NumRows()) {
			got[v.Value(i)]++
		}
	})
	line := sum.String()
	kinds := 0
	for verdict, n := range got {
		if verdict == "" {
			continue
		}
		kinds++
		if !strings.Contains(line, verdict+" "+strconv.Itoa(n)) {
			t.Errorf("the summary %q does not count %d %s rows", line, n, verdict)
		}
	}
	if got["drifting_up"]+got["anomaly"] == 0 || kinds < 3 {
		t.Errorf("verdicts read back %v: the parity runs should give drifting and anomaly rows", got)
	}
}
