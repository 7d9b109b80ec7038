package core_test

import (
	"math"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestMinDurFloorFromRunConfig: T_floor = min(600 s, the run's configured
// min_duration_ms) when config.yaml sets one, else 600 s (design §5.5,
// issue 28); an explicit MinDurFloorS wins; the reference keeps its fixed
// 600 s. Both runs are planted (synth truth.json: the first flat plateau's
// issue span, plateau_span_s):
//
//   - long_context_poisson at 1.05 requests/s for 13 passes plants an
//     853 s plateau, the window the detector finds; configured for 880 s
//     it is found (the floor is 600 s, not 880 s: issue 28's held-out
//     Poisson run), and --min-duration-floor 1200 still rejects it;
//   - clean_ramp with 87-sample super-passes for 8 passes plants an
//     ≈ 130 s plateau; configured for 120 s it is found with a 120 s floor,
//     and without a configured minimum (or under the reference) the 600 s
//     floor rejects it.
func TestMinDurFloorFromRunConfig(t *testing.T) {
	analyze := func(s *core.Samples, info core.RunInfo, p core.Params) *core.Result {
		t.Helper()
		r, err := core.NewRun(s, info).Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	s, info, tr := genRun(t, "long_context_poisson", 1, func(sp *synth.Spec) { sp.Passes, sp.QPS = 13, 1.05 })
	if !tr.ExpectedVerdict.Found {
		t.Fatalf("truth: the planted plateau (%.1f s) should clear 600 s", tr.ExpectedVerdict.PlateauSpanS)
	}
	info.MinDurationS = 880
	r := analyze(s, info, core.DefaultParams())
	if w := r.Outcome().WindowDurationS; math.Abs(w-851) > 10 {
		t.Fatalf("window %.1f s, want ≈ 851 s (the plateau the detector finds)", w)
	}
	if o := r.Outcome(); !o.Found || o.Status != core.StatusWindowable || r.MinDurFloorS != 600 || r.MinDurFloorFromRun {
		t.Errorf("configured 880 s, %.0f s plateau: found %v, status %s, floor %v (from run %v); want found at a 600 s floor",
			tr.ExpectedVerdict.PlateauSpanS, o.Found, o.Status, r.MinDurFloorS, r.MinDurFloorFromRun)
	}
	if r.Params.MinDurFloorS != 0 {
		t.Errorf("Result.Params.MinDurFloorS = %v, want the parameter as given (0)", r.Params.MinDurFloorS)
	}
	p := core.DefaultParams()
	p.MinDurFloorS = 1200 // a flag or sweep parameter still overrides
	if o := analyze(s, info, p).Outcome(); o.Found || o.Status != core.StatusInsufficientDuration {
		t.Errorf("--min-duration-floor 1200 on a %.0f s plateau: found %v, status %s, window %v s; want insufficient_duration",
			tr.ExpectedVerdict.PlateauSpanS, o.Found, o.Status, o.WindowDurationS)
	}

	s, info, tr = genRun(t, "clean_ramp", 1, func(sp *synth.Spec) { sp.DatasetSize, sp.Passes = 87, 8 })
	if span := tr.ExpectedVerdict.PlateauSpanS; math.Abs(span-130) > 5 {
		t.Fatalf("truth: planted plateau %.1f s, want ≈ 130 s", span)
	}
	info.MinDurationS = 120
	r = analyze(s, info, core.DefaultParams())
	if o := r.Outcome(); !o.Found || o.Status != core.StatusWindowable || r.MinDurFloorS != 120 || !r.MinDurFloorFromRun {
		t.Errorf("configured 120 s, %.0f s plateau: found %v, status %s, floor %v (from run %v); want found at the run's 120 s",
			tr.ExpectedVerdict.PlateauSpanS, o.Found, o.Status, r.MinDurFloorS, r.MinDurFloorFromRun)
	}
	for _, sw := range r.Steady.Shorts {
		if sw.TFloorS != 120 {
			t.Errorf("plateau gate floor %v, want 120", sw.TFloorS)
		}
	}
	ref := analyze(s, info, core.ReferenceParams())
	if ref.MinDurFloorS != 600 || ref.MinDurFloorFromRun || ref.Steady.Found {
		t.Errorf("reference, configured 120 s: floor %v (from run %v), found %v; want its fixed 600 s and the %.0f s plateau rejected",
			ref.MinDurFloorS, ref.MinDurFloorFromRun, ref.Steady.Found, tr.ExpectedVerdict.PlateauSpanS)
	}
	info.MinDurationS = 0
	if r := analyze(s, info, core.DefaultParams()); r.MinDurFloorS != 600 || r.Outcome().Found {
		t.Errorf("no configured minimum: floor %v, found %v; want 600 s and the %.0f s plateau rejected",
			r.MinDurFloorS, r.Outcome().Found, tr.ExpectedVerdict.PlateauSpanS)
	}
}
