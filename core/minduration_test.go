package core_test

import (
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestMinDurFloorFromRunConfig: the min-duration floor defaults to the
// run's configured minimum duration (config.yaml's min_duration_ms, in
// RunInfo.MinDurationS). synth clean_ramp plants a plateau that clears
// 600 s (truth expected_verdict.found); told the run was configured for
// 100 s more than that plateau lasts, our defaults gate it as
// insufficient_duration with that floor, while the reference keeps its
// fixed 600 s and an explicit MinDurFloorS wins over the run's.
func TestMinDurFloorFromRunConfig(t *testing.T) {
	s, info, tr := genRun(t, "clean_ramp", 1, nil)
	if !tr.ExpectedVerdict.Found {
		t.Fatalf("truth: clean_ramp should clear the 600 s floor: %+v", tr.ExpectedVerdict)
	}
	analyze := func(info core.RunInfo, p core.Params) *core.Result {
		t.Helper()
		r, err := core.NewRun(s, info).Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	info.MinDurationS = 0
	base := analyze(info, core.DefaultParams())
	if o := base.Outcome(); o.Status != core.StatusWindowable || base.MinDurFloorS != core.DefaultMinDurFloorS ||
		base.MinDurFloorFromRun {
		t.Fatalf("no configured minimum: status %s, floor %v (from run %v); want windowable at 600 s",
			o.Status, base.MinDurFloorS, base.MinDurFloorFromRun)
	}
	long := base.Outcome().WindowDurationS + 100
	info.MinDurationS = long

	r := analyze(info, core.DefaultParams())
	o := r.Outcome()
	if r.MinDurFloorS != long || !r.MinDurFloorFromRun || o.Status != core.StatusInsufficientDuration {
		t.Errorf("configured %v s: floor %v (from run %v), status %s; want the run's floor and insufficient_duration",
			long, r.MinDurFloorS, r.MinDurFloorFromRun, o.Status)
	}
	for _, sw := range r.Steady.Shorts {
		if sw.TFloorS != long {
			t.Errorf("plateau gate floor %v, want %v", sw.TFloorS, long)
		}
	}
	if r.Params.MinDurFloorS != 0 {
		t.Errorf("Result.Params.MinDurFloorS = %v, want the parameter as given (0)", r.Params.MinDurFloorS)
	}

	ref := analyze(info, core.ReferenceParams())
	if ref.MinDurFloorS != 600 || ref.MinDurFloorFromRun || !ref.Steady.Found {
		t.Errorf("reference: floor %v (from run %v), found %v; want its fixed 600 s and the plateau found",
			ref.MinDurFloorS, ref.MinDurFloorFromRun, ref.Steady.Found)
	}

	p := core.DefaultParams()
	p.MinDurFloorS = 600
	explicit := analyze(info, p)
	if explicit.MinDurFloorS != 600 || explicit.MinDurFloorFromRun || explicit.Outcome().Status != core.StatusWindowable {
		t.Errorf("explicit 600 s: floor %v (from run %v), status %s; want 600 s and windowable",
			explicit.MinDurFloorS, explicit.MinDurFloorFromRun, explicit.Outcome().Status)
	}
}
