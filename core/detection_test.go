package core_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// The detection suite of issue 29 (synth.DetectionSuite: small mid-run
// steps, steps inside the noise, oscillations, spikes, transient dips, late
// approaches that settle and ones that never do, long warmups, heavy-tailed
// outputs; 10 runs a class) scored against its planted truth by
// synth.ScoreDetection.

// detectionSeeds: seed 29 is the corpus the rules were developed on; 30 was
// only scored.
var detectionSeeds = []uint64{29, 30}

// detectionObs is the detector's answer on one run, in the scorer's terms.
func detectionObs(r *core.Result) synth.DetectionObs {
	o := r.Outcome()
	return synth.DetectionObs{Found: o.Found, WindowLo: o.WindowStartSP, WindowHi: o.WindowEndSP,
		TPOTP50Ns: o.SteadyTPOTP50Ns, Anomaly: o.AnomalyDetected, DeltaPct: o.AnomalyDeltaPct,
		ChangePointSP: o.ChangePointSP}
}

// TestDetectionSuite: over the detection suite at each seed, the defaults
// meet issue 29's targets (synth.DetectionScore.Gate): found ≥ 0.97 on
// genuine plateaus, p95 |TPOT p50 − true plateau level| ≤ 0.6 %, no
// confident-wrong run, every ≥ 2 % step flagged in its direction, at most
// one false shift in 50 steady runs. STEADYSWEEP_DETECTION_SEEDS=n adds
// seed n (to look at other draws).
func TestDetectionSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and decodes 180 runs; skipped under -short")
	}
	seeds := detectionSeeds
	if v := os.Getenv("STEADYSWEEP_DETECTION_SEEDS"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = []uint64{n}
	}
	for _, seed := range seeds {
		runs := synth.DetectionSuite(seed, 10)
		srs := make([]synth.SuiteRun, len(runs))
		for i, r := range runs {
			srs[i] = r.SuiteRun
		}
		decoded := generateDecoded(t, srs)
		obs := make([]synth.DetectionObs, len(runs))
		for i, sr := range decoded {
			sr.seed = seed
			r := analyzeWith(t, sr, core.DefaultParams())
			obs[i] = detectionObs(r)
			if testing.Verbose() {
				o := r.Outcome()
				t.Logf("%s: found %v %s [%d..%d] err %+.3f%% shift %+.3f at %.2f: anomaly %v %+.2f%% at %d (%s)", sr.name(),
					o.Found, o.Verdict, o.WindowStartSP, o.WindowEndSP, 100*(o.SteadyTPOTP50Ns/runs[i].LevelNs-1),
					runs[i].Shift, runs[i].ShiftAtSP, o.AnomalyDetected,
					o.AnomalyDeltaPct, o.ChangePointSP, o.Reason)
			}
		}
		all, byClass := synth.ScoreDetection(runs, obs)
		for _, c := range synth.DetectionClasses() {
			t.Logf("seed %d %-16s %s", seed, c, byClass[c].Line())
		}
		t.Logf("seed %d all              %s", seed, all.Line())
		for _, m := range all.Gate() {
			t.Errorf("seed %d: %s", seed, m)
		}
	}
}
