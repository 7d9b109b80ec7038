package sweep

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
)

// TestReferenceRowsHaveTotals: a reference-preset row used to leave its
// total_* columns null although the whole-run numbers are computable
// (issue 26). Each is now the run's whole-run totals, and equal to the
// steadysweep row's at the same super-pass size: one computation behind
// both presets' columns.
func TestReferenceRowsHaveTotals(t *testing.T) {
	runs, errs := corpora.Discover([]string{filepath.Join("testdata", "runs")}, nil, nil)
	if len(errs) > 0 || len(runs) == 0 {
		t.Fatalf("testdata: %d runs, %v", len(runs), errs)
	}
	load := DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}})
	for _, ref := range runs {
		lr, err := load(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		cr := core.NewRun(lr.Samples, lr.Info)
		rp := core.ReferenceParams()
		rr, err := cr.Analyze(rp)
		if err != nil {
			t.Fatal(err)
		}
		sp := core.DefaultParams()
		sp.SuperpassSize = rr.SuperpassSize
		sr, err := cr.Analyze(sp)
		if err != nil {
			t.Fatal(err)
		}
		ro, so := rr.Outcome(), sr.Outcome()
		got := []float64{ro.TotalTTFTP50Ns, ro.TotalTTFTP99Ns, ro.TotalTPOTP50Ns, ro.TotalTPOTP99Ns, ro.TotalTPSPerUser, ro.TotalTPSSystem}
		want := []float64{so.TotalTTFTP50Ns, so.TotalTTFTP99Ns, so.TotalTPOTP50Ns, so.TotalTPOTP99Ns, so.TotalTPSPerUser, so.TotalTPSSystem}
		names := []string{"total_ttft_p50_ns", "total_ttft_p99_ns", "total_tpot_p50_ns", "total_tpot_p99_ns", "total_tps_per_user", "total_tps_system"}
		for i := range got {
			if math.IsNaN(got[i]) || got[i] <= 0 {
				t.Errorf("%s: reference %s = %v, want the whole-run value", ref.Rel, names[i], got[i])
			} else if got[i] != want[i] {
				t.Errorf("%s: reference %s = %v, steadysweep's at S=%d %v", ref.Rel, names[i], got[i], sp.SuperpassSize, want[i])
			}
		}
	}
}
