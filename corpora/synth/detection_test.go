package synth

import (
	"math"
	"testing"
)

// TestDetectionSuiteShapes: the detection suite plants what its classes
// say (issue 29), read back from the specs: ≥ 10 runs a class, 19–45 min
// of planned issue time (plateaus stretched further when the min-duration
// requirement needs it), steps of 2–4 % at 45–60 % of the run, 0.3 % steps
// on 0.3–0.4 % noise, approaches settling (within rampSettledBand) at
// 53–65 % of the run, never-settling ones still ≥ 2 % off at the end, long
// warmups ending at 35–45 %, varied concurrencies and super-pass sizes.
func TestDetectionSuiteShapes(t *testing.T) {
	runs := DetectionSuite(29, 10)
	count := map[string]int{}
	cs, ns := map[int]bool{}, map[int]bool{}
	for _, d := range runs {
		count[d.Class]++
		s := d.Spec
		cs[s.Concurrency], ns[s.DatasetSize] = true, true
		if err := s.withDefaults().validate(); err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
		minutes := s.Passes * spanS(s) / 60
		if minutes < 19 || minutes > 90 {
			t.Errorf("%s: %.1f min of issue time", d.Name, minutes)
		}
		settle := rampSPs(s) / s.Passes
		switch d.Class {
		case "step_mid":
			at := s.Steps[0].AtSuperPass / s.Passes
			if r := math.Abs(s.Steps[0].Mult - 1); r < 0.02 || r > 0.04 || at < 0.4 || at > 0.65 || math.Abs(d.Shift-(s.Steps[0].Mult-1)) > 1e-12 {
				t.Errorf("%s: step %+v at %.2f of the run, shift %v", d.Name, s.Steps[0], at, d.Shift)
			}
		case "step_small":
			if r := math.Abs(s.Steps[0].Mult - 1); math.Abs(r-0.003) > 1e-12 || s.LevelNoiseSigma < 0.003 || s.LevelNoiseSigma > 0.004 || d.Shift != 0 {
				t.Errorf("%s: step %+v on noise %v, shift %v", d.Name, s.Steps[0], s.LevelNoiseSigma, d.Shift)
			}
		case "approach_settle":
			if settle < 0.53-1e-9 || settle > 0.65+1e-9 || s.RampLinear {
				t.Errorf("%s: settles at %.3f of the run", d.Name, settle)
			}
		case "approach_never":
			left := (1 - s.RampFrom) * math.Exp(-s.Passes/s.RampLenSP)
			if left < 0.02-1e-9 || d.Genuine {
				t.Errorf("%s: %.2f %% off at the end, genuine %v", d.Name, 100*left, d.Genuine)
			}
		case "long_warmup":
			if settle < 0.35-1e-9 || settle > 0.45+1e-9 {
				t.Errorf("%s: warmup ends at %.3f of the run", d.Name, settle)
			}
		case "heavy_tail":
			if s.OutputSigma < 0.9 || s.MaxNewTokens != 4096 {
				t.Errorf("%s: outputs σ %v cap %d", d.Name, s.OutputSigma, s.MaxNewTokens)
			}
		}
		if d.LevelNs != s.withDefaults().levelNs() {
			t.Errorf("%s: level %v", d.Name, d.LevelNs)
		}
	}
	for _, c := range DetectionClasses() {
		if count[c] < 10 {
			t.Errorf("class %s: %d runs", c, count[c])
		}
	}
	if len(cs) < 20 || len(ns) < 20 {
		t.Errorf("%d concurrencies, %d super-pass sizes: not varied", len(cs), len(ns))
	}
}

// TestScoreDetection: the scorer on four hand-made runs: a found genuine
// plateau 0.5 % off, a 3 % step flagged with the window before it, the
// same step missed with a straddling window, and a steady run with a
// false shift.
func TestScoreDetection(t *testing.T) {
	lv := 10e6
	runs := []DetectionRun{
		{SuiteRun: SuiteRun{Class: "a"}, Genuine: true, LevelNs: lv},
		{SuiteRun: SuiteRun{Class: "b"}, Genuine: true, LevelNs: lv, Shift: 0.03, ShiftAtSP: 12.4},
		{SuiteRun: SuiteRun{Class: "b"}, Genuine: true, LevelNs: lv, Shift: 0.03, ShiftAtSP: 12.4},
		{SuiteRun: SuiteRun{Class: "c"}, Genuine: true, LevelNs: lv},
		{SuiteRun: SuiteRun{Class: "d"}, LevelNs: lv},
	}
	obs := []DetectionObs{
		{Found: true, WindowLo: 2, WindowHi: 20, TPOTP50Ns: 1.005 * lv},
		{Found: true, WindowLo: 2, WindowHi: 11, TPOTP50Ns: lv, Anomaly: true, DeltaPct: 3.1, ChangePointSP: 12},
		{Found: true, WindowLo: 2, WindowHi: 20, TPOTP50Ns: 1.015 * lv},
		{Found: true, WindowLo: 2, WindowHi: 20, TPOTP50Ns: lv, Anomaly: true, DeltaPct: -2},
		{Found: true, WindowLo: 2, WindowHi: 20, TPOTP50Ns: 0.9 * lv},
	}
	all, by := ScoreDetection(runs, obs)
	if all.Genuine != 4 || all.Found != 4 || all.Steps != 2 || all.Flagged != 1 || all.Straddling != 1 ||
		all.Steady != 2 || all.FalseShifts != 1 || all.ConfidentWrong != 1 || all.NoPlateau != 1 {
		t.Fatalf("score %+v", all)
	}
	if p := all.ErrQuantile(0.95); math.Abs(p-0.015) > 1e-12 {
		t.Errorf("p95 |err| %v, want 0.015", p)
	}
	if by["b"].Flagged != 1 || by["c"].FalseShifts != 1 {
		t.Errorf("per class %+v %+v", *by["b"], *by["c"])
	}
	if g := all.Gate(); len(g) != 4 { // p95, confident-wrong, steps, false shifts (1 of 2 steady runs)
		t.Errorf("gate %q", g)
	}
}
