package core_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// suiteRunNamed generates and decodes the first run of
// synth.AccuracySuite(seed) whose name has the given prefix.
func suiteRunNamed(t *testing.T, seed uint64, prefix string) (*core.Samples, core.RunInfo, synth.Truth) {
	t.Helper()
	for _, r := range synth.AccuracySuite(seed) {
		if !strings.HasPrefix(r.Name, prefix) {
			continue
		}
		dir := filepath.Join(t.TempDir(), r.Name)
		tr, err := synth.Generate(dir, r.Spec)
		if err != nil {
			t.Fatal(err)
		}
		s, info, err := decodeRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s, info, tr
	}
	t.Fatalf("no suite run %s*", prefix)
	return nil, core.RunInfo{}, synth.Truth{}
}

// TestEarliestStopClean: a planted clean run (suite seed 1, run 013,
// clean_above: one planted level after a ramp from above) stops before its
// end, no earlier than the 600 s floor; the cut, stop_at_s and
// stop_saved_frac are the samples' own timestamps (read independently
// here); the prefix before the stop's confirmation streak does not
// certify; the full run's TPOT p50 and system TPS lie inside the stop's
// intervals, and the stop's TPOT p50 interval holds the planted level
// (truth.json planted.tpot_level_ms_per_sp over the flat super-passes).
func TestEarliestStopClean(t *testing.T) {
	s, info, tr := suiteRunNamed(t, 1, "013_clean_above")
	run := core.NewRun(s, info)
	p, target := core.DefaultParams(), core.DefaultStopTarget()
	full, es := analyzeAndStop(t, run, p, target)
	if !es.Found {
		t.Fatalf("no stop: %s", es.Reason)
	}
	S, k := full.SuperpassSize, es.Stop.NSuperPasses
	if k >= s.Len()/S {
		t.Errorf("stop after %d of %d super-passes: nothing saved", k, s.Len()/S)
	}
	start, end, cut := int64(math.MaxInt64), int64(0), int64(0)
	for i := range s.Len() {
		start, end = min(start, s.IssueNs[i]), max(end, s.LastEventNs[i])
		if i < k*S {
			cut = max(cut, s.LastEventNs[i])
		}
	}
	if es.Stop.CutNs != cut || es.StartNs != start || es.EndNs != end {
		t.Errorf("cut/start/end %d/%d/%d, samples say %d/%d/%d", es.Stop.CutNs, es.StartNs, es.EndNs, cut, start, end)
	}
	if want := float64(cut-start) / 1e9; es.StopAtS != want || es.StopAtS < full.MinDurFloorS {
		t.Errorf("stop_at_s %v, want %v (≥ the %v s floor)", es.StopAtS, want, full.MinDurFloorS)
	}
	if want := float64(end-cut) / float64(end-start); math.Abs(es.SavedFrac-want) > 1e-12 || !(want > 0) {
		t.Errorf("stop_saved_frac %v, want %v > 0", es.SavedFrac, want)
	}
	before, err := run.CheckPrefix(p, S, k-target.Confirm, target)
	if err != nil {
		t.Fatal(err)
	}
	if before.Certified {
		t.Errorf("prefix %d (before the confirmation streak) certifies too: the stop is not the earliest", k-target.Confirm)
	}
	if !es.Agrees || es.Withdrawn {
		t.Errorf("agrees %v, withdrawn %v: full TPS %v in %v? TPOT p50 %v in %v?", es.Agrees, es.Withdrawn,
			es.Full.TPSSystem, es.Stop.TPSSystemCI, es.Full.TPOTP50Ns, es.Stop.TPOTP50CI)
	}
	o := full.Outcome()
	if level := plantedLevelNs(tr, o.WindowStartSP, o.WindowEndSP); !(level >= es.Stop.TPOTP50CI[0] && level <= es.Stop.TPOTP50CI[1]) {
		t.Errorf("planted TPOT level %v ns outside the stop's interval %v", level, es.Stop.TPOTP50CI)
	}
	for _, hw := range []float64{core.RelHalfWidth(es.Stop.TPSSystem, es.Stop.TPSSystemCI), core.RelHalfWidth(es.Stop.TPOTP50Ns, es.Stop.TPOTP50CI)} {
		if !(hw <= target.MaxRelHalfWidth) {
			t.Errorf("a stop half-width of %v over the target %v", hw, target.MaxRelHalfWidth)
		}
	}
}

// analyzeAndStop is run analysed under p and its earliest stop under
// target.
func analyzeAndStop(t testing.TB, run *core.Run, p core.Params, target core.StopTarget) (*core.Result, core.EarliestStop) {
	t.Helper()
	full, err := run.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	es, err := run.EarliestStopOf(p, full, target)
	if err != nil {
		t.Fatal(err)
	}
	return full, es
}

// driftStopRun is the planted drift of suite seed 1 (run 084,
// drift_up) analysed under the default parameters, with the exhaustive
// stop rule that searches it whatever its full analysis.
func driftStopRun(t *testing.T) (*core.Run, core.Params, *core.Result, core.StopTarget) {
	t.Helper()
	s, info, _ := suiteRunNamed(t, 1, "084_drift_up")
	run := core.NewRun(s, info)
	p := core.DefaultParams()
	full, err := run.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	exhaustive := core.DefaultStopTarget()
	exhaustive.Exhaustive = true
	return run, p, full, exhaustive
}

// TestEarliestStopDrift: a planted drift (suite seed 1, run 084, drift_up)
// has no steady state, and no prefix of it certifies one (searched
// exhaustively); by default its prefixes are not searched at all, since
// the full run does not certify.
func TestEarliestStopDrift(t *testing.T) {
	run, p, full, exhaustive := driftStopRun(t)
	es, err := run.EarliestStopOf(p, full, exhaustive)
	if err != nil {
		t.Fatal(err)
	}
	if es.Found || es.Evaluated == 0 || !math.IsNaN(es.StopAtS) {
		t.Errorf("drift: found %v after %d prefixes, stop_at_s %v (%s)", es.Found, es.Evaluated, es.StopAtS, es.Reason)
	}
	if es, _ := run.EarliestStopOf(p, full, core.DefaultStopTarget()); es.Found || es.Evaluated != 0 {
		t.Errorf("drift, default rule: found %v, %d prefixes analysed", es.Found, es.Evaluated)
	}
}

// TestEarliestStopCap: with MaxPrefixes capping the work, every
// ⌈candidates/cap⌉-th prefix is analysed and no more than cap of them.
func TestEarliestStopCap(t *testing.T) {
	run, p, full, exhaustive := driftStopRun(t)
	all, _ := run.EarliestStopOf(p, full, exhaustive)
	capped := exhaustive
	capped.MaxPrefixes = 3
	es, err := run.EarliestStopOf(p, full, capped)
	if err != nil {
		t.Fatal(err)
	}
	if wantStep := (all.Evaluated + 2) / 3; es.Step != wantStep || es.Evaluated > 3 || es.Evaluated < 1 {
		t.Errorf("capped at 3 of %d candidates: step %d (want %d), %d analysed", all.Evaluated, es.Step, wantStep, es.Evaluated)
	}
}
