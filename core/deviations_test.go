package core_test

import (
	"math"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// backHalfShift is the spec §18.2 scenario on the synth generator: closed
// loop C=8, 28 super-passes of 60, a short ramp, then every request from
// super-pass 14 on decodes 1.3× slower, so the degraded level covers the
// whole back half the reference takes its steady level from.
func backHalfShift(sp *synth.Spec) {
	sp.Passes, sp.OutputTokS = 28, 75
	sp.Steps = []synth.Step{{AtSuperPass: 14, Mult: 1.3}}
}

// TestDeviationWarmupUnderLateShift (D1, spec §18.2): the reference's
// auto warmup crops to its cap n/2 and reports the degraded level with no
// anomaly; ours crops the ramp only, reports the healthy plateau at the
// planted level and flags the +30 % shift at super-pass 14.
func TestDeviationWarmupUnderLateShift(t *testing.T) {
	s, info, tr := genRun(t, "late_staircase", 5, backHalfShift)
	ref := analyzeRef(t, s, info, core.ReferenceParams())
	if ref.Warmup < 12 || ref.Steady.Anomaly.Detected {
		t.Errorf("reference: warmup %d anomaly %v (spec §18.2 expects the crop at its cap, no anomaly)",
			ref.Warmup, ref.Steady.Anomaly.Detected)
	}
	r, _ := analyzeOurs(t, s, info, core.DefaultParams())
	o := r.Outcome()
	if r.Warmup > 3 || !o.AnomalyDetected || o.ChangePointSP != 14 || o.Verdict != core.VerdictAnomaly {
		t.Fatalf("ours: warmup %d anomaly %v cp %d verdict %s", r.Warmup, o.AnomalyDetected, o.ChangePointSP, o.Verdict)
	}
	if o.WindowEndSP >= 14 {
		t.Errorf("ours reports window %d..%d, into the degraded level", o.WindowStartSP, o.WindowEndSP)
	}
	healthy := tr.Planted.TPOTLevelMsPerSP[5] * 1e6
	if e := math.Abs(o.SteadyTPOTP50Ns-healthy) / healthy; o.Found && e > 0.005 {
		t.Errorf("ours steady TPOT %.0f vs healthy planted %.0f ns", o.SteadyTPOTP50Ns, healthy)
	}
	if math.Abs(o.AnomalyDeltaPct-30) > 2 {
		t.Errorf("delta %.2f%%, planted +30%%", o.AnomalyDeltaPct)
	}
}

// TestDeviationSkippedShortPlateau (D3, spec §18.4): with the wall-time
// floor between the healthy plateau's span and the degraded one's, the
// healthy plateau is skipped as short and the degraded one reported. The
// reference (warmup fixed at the ramp, as in §18.4) reports it silently;
// ours reports it too but flags the shift against the skipped first
// plateau (verdict anomaly).
func TestDeviationSkippedShortPlateau(t *testing.T) {
	s, info, _ := genRun(t, "late_staircase", 5, backHalfShift)
	p := core.DefaultParams()
	r, _ := analyzeOurs(t, s, info, p)
	pl := r.Steady.Plateaus
	if len(pl) < 2 || len(r.Steady.Shorts) < 2 {
		t.Fatalf("plateaus %v", pl)
	}
	d0, d1 := r.Steady.Shorts[0].WindowDurationS, r.Steady.Shorts[1].WindowDurationS
	if !(d1 > d0) {
		t.Fatalf("degraded plateau %.0f s not longer than the healthy %.0f s", d1, d0)
	}
	p.MinDurFloorS = (d0 + d1) / 2
	rp := core.ReferenceParams()
	rp.MinDurFloorS, rp.WarmupMode, rp.WarmupFixed = p.MinDurFloorS, "fixed", r.Warmup
	ref := analyzeRef(t, s, info, rp)
	if !ref.Steady.Found || ref.Steady.Window.SkippedShort != 1 || ref.Steady.Anomaly.Detected {
		t.Errorf("reference: found %v skipped %d anomaly %v (spec §18.4: degraded plateau reported silently)",
			ref.Steady.Found, ref.Steady.Window.SkippedShort, ref.Steady.Anomaly.Detected)
	}
	ours, _ := analyzeOurs(t, s, info, p)
	o := ours.Outcome()
	if !o.AnomalyDetected || o.Verdict != core.VerdictAnomaly || ours.Steady.Window.SkippedShort != 1 {
		t.Errorf("ours: anomaly %v verdict %s skipped %d", o.AnomalyDetected, o.Verdict, ours.Steady.Window.SkippedShort)
	}
}

// TestDeviationEmptyLeadingSuperPasses (D2, spec §18.3): with no first
// token in the first two super-passes, the reference's crop counts
// trajectory positions and removes only super-pass 0, keeping an empty
// super-pass and the ramp; ours crops past both.
func TestDeviationEmptyLeadingSuperPasses(t *testing.T) {
	s, info, _ := genRun(t, "clean_ramp", 4, func(sp *synth.Spec) { sp.Passes = 22 })
	S := info.DatasetSize
	for i := range 2 * S {
		s.HasFirstToken[i], s.TTFTNs[i], s.FirstTokenSeq[i], s.OutTokens[i] = false, 0, -1, -1
	}
	ref := analyzeRef(t, s, info, core.ReferenceParams())
	if ref.Warmup != 1 {
		t.Errorf("reference warmup %d, spec §18.3 expects 1", ref.Warmup)
	}
	r, _ := analyzeOurs(t, s, info, core.DefaultParams())
	if r.Warmup < 3 {
		t.Errorf("ours warmup %d, want past the 2 empty super-passes and the ramp", r.Warmup)
	}
	if o := r.Outcome(); o.Verdict != core.VerdictSteadyState {
		t.Errorf("ours verdict %s (%s)", o.Verdict, o.Reason)
	}
}

// TestDeviationDriftChopped (D5, spec §18.6): a linear drift (synth
// drift_up, +35 %) is segmented into short plateaus; with the duration
// gate off the reference reports the first as a steady window, ours
// reports the drift and no steady state.
func TestDeviationDriftChopped(t *testing.T) {
	s, info, _ := genRun(t, "drift_up", 2, nil)
	ref := analyzeRef(t, s, info, refNoMinDuration())
	if !ref.Steady.Found || len(ref.Steady.Plateaus) < 2 {
		t.Errorf("reference: found %v plateaus %v (spec §18.6: a steady window is reported)", ref.Steady.Found, ref.Steady.Plateaus)
	}
	p := core.DefaultParams()
	p.MinDuration = false
	r, _ := analyzeOurs(t, s, info, p)
	o := r.Outcome()
	if o.Found || o.Verdict != core.VerdictDriftingUp || r.Assessment.Selection.Drift == nil || !r.Assessment.Selection.Drift.Drift {
		t.Errorf("ours: found %v verdict %s drift test %+v", o.Found, o.Verdict, r.Assessment.Selection.Drift)
	}
}

// TestDeviationPettittEmptySuperPasses (D6, spec §18.10): a late ×1.3 step
// whose last two super-passes have no TPOT (no first token). The reference
// feeds 0.0 for them into Pettitt; ours leaves them out and still confirms
// the shift.
func TestDeviationPettittEmptySuperPasses(t *testing.T) {
	s, info, _ := genRun(t, "late_staircase", 6, func(sp *synth.Spec) {
		sp.Passes, sp.OutputTokS = 30, 75
		sp.Steps = []synth.Step{{AtSuperPass: 24, Mult: 1.3}}
	})
	S := info.DatasetSize
	for i := 28 * S; i < min(30*S, s.Len()); i++ {
		s.HasFirstToken[i], s.TTFTNs[i], s.FirstTokenSeq[i], s.OutTokens[i] = false, 0, -1, -1
	}
	ref := analyzeRef(t, s, info, core.ReferenceParams())
	r, _ := analyzeOurs(t, s, info, core.DefaultParams())
	o := r.Outcome()
	t.Logf("reference: anomaly %v pettitt %+v; ours: anomaly %v cp %d pettitt %+v", ref.Steady.Anomaly.Detected,
		ref.Steady.Anomaly.Pettitt, o.AnomalyDetected, o.ChangePointSP, r.Steady.Anomaly.Pettitt)
	if ref.Steady.Anomaly.Detected {
		t.Errorf("reference detects the shift; spec §18.10 expects it hidden")
	}
	if !o.AnomalyDetected || o.ChangePointSP != 24 {
		t.Errorf("ours: anomaly %v at %d, planted step at 24", o.AnomalyDetected, o.ChangePointSP)
	}
}

// TestDeviationRampOnlyBurst (D13): synth ramp_only issues every sample in
// the opening burst (n_samples = C = 512, truth expected_verdict
// not_found). With the duration gate off the reference reports its
// admissible window as found; ours rejects a window issued within one
// median request latency.
func TestDeviationRampOnlyBurst(t *testing.T) {
	s, info, tr := genRun(t, "ramp_only", 1, nil)
	ref := analyzeRef(t, s, info, refNoMinDuration())
	if !ref.Steady.Found {
		t.Errorf("reference --no-min-duration: found %v (parity conc_ramp_only: found)", ref.Steady.Found)
	}
	p := core.DefaultParams()
	p.MinDuration = false
	r, _ := analyzeOurs(t, s, info, p)
	o := r.Outcome()
	if o.Found || !r.Assessment.Selection.Burst || o.Status != core.StatusInsufficientDuration || tr.ExpectedVerdict.Verdict != "not_found" {
		t.Errorf("ours: found %v burst %v status %s (truth %s)", o.Found, r.Assessment.Selection.Burst, o.Status, tr.ExpectedVerdict.Verdict)
	}
}

// analyzeRef is the run analysed under rp, one of the reference's
// parameter sets.
func analyzeRef(t *testing.T, s *core.Samples, info core.RunInfo, rp core.Params) *core.Result {
	t.Helper()
	ref, err := core.NewRun(s, info).Analyze(rp)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// refNoMinDuration is the reference's parameters with the duration gate
// off (its --no-min-duration).
func refNoMinDuration() core.Params {
	rp := core.ReferenceParams()
	rp.MinDuration = false
	return rp
}
