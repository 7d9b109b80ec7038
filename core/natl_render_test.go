package core_test

import (
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// TestAnalyzeAgenticTakesNATL: the agentic profile takes the NATL path in
// Analyze and prints the not-supported banner (§13).
func TestAnalyzeAgenticTakesNATL(t *testing.T) {
	r, err := core.NewRun(&core.Samples{}, core.RunInfo{LoadPattern: "agentic_inference"}).Analyze(core.ReferenceParams())
	if err != nil || r.Path != core.PathNATL || r.NATL == nil || r.SuperpassSize != 32 {
		t.Fatalf("result %+v err %v", r, err)
	}
	const wantCaveat = "[profile: agentic] agentic steady-state detection is NOT yet supported and requires further study."
	if r.Caveat() != wantCaveat {
		t.Errorf("caveat %q", r.Caveat())
	}
	want := "{\n  \"n_trajectories\": 0,\n  \"superpass_trajectories\": 32,\n  \"n_super_passes\": 0,\n" +
		"  \"distribution\": {\n    \"p10\": 0.0,\n    \"p50\": 0.0,\n    \"p90\": 0.0,\n    \"p99\": 0.0,\n" +
		"    \"mean\": 0.0,\n    \"cov\": 0.0\n  },\n  \"sp_median\": [],\n  \"across_cov\": 0.0,\n" +
		"  \"batch_means_se_pct\": 0.0,\n  \"found\": false\n}"
	got, err := resultjson.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("NATL JSON\n%s\nwant\n%s", got, want)
	}
}
