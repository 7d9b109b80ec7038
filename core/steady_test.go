package core

// Tests of the detector stages on hand-built super-pass series. Unless a
// comment names another source, the cases and their expected values are
// those of the upstream test suite
// (mlcommons/endpoints tests/unit/metrics/test_steady_state_diagnostics.py
// @ 40b78bfe) and the goldens of the detector spec (spec/detector.md).

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core/stats"
)

// mkSeries is the upstream fixture _mk_series: per super-pass i a
// (tpot, ttft) level repeated over samples values, out_tokens samples·10,
// issue span [i·1000, i·1000+100], last event i·1000+900.
func mkSeries(levels [][2]float64, samples int) []SuperPass {
	out := make([]SuperPass, len(levels))
	for i, l := range levels {
		sp := &out[i]
		sp.Index = i
		sp.TPOT = slices.Repeat([]float64{l[0]}, samples)
		sp.TTFT = slices.Repeat([]float64{l[1]}, samples)
		sp.OutTokens = int64(samples * 10)
		sp.NIssued = samples
		sp.FirstIssueNs = int64(i * 1000)
		sp.LastIssueNs = int64(i*1000 + 100)
		sp.LastEventNs = int64(i*1000 + 900)
	}
	return out
}

func repeatLevel(tpot, ttft float64, n int) [][2]float64 {
	return slices.Repeat([][2]float64{{tpot, ttft}}, n)
}

// spannedSeries is the upstream fixture _spanned_series: explicit per-sp
// offered span, gap and a constant sample latency.
func spannedSeries(n int, tpot, spanS, gapS, latencyS float64, samples int) []SuperPass {
	out := make([]SuperPass, n)
	t := 0.0
	for i := range out {
		sp := &out[i]
		sp.Index = i
		sp.TPOT = slices.Repeat([]float64{tpot}, samples)
		sp.TTFT = slices.Repeat([]float64{50}, samples)
		sp.Latency = slices.Repeat([]float64{latencyS * 1e9}, samples)
		sp.OutTokens = int64(samples * 10)
		sp.NIssued = samples
		sp.FirstIssueNs = int64(t * 1e9)
		sp.LastIssueNs = int64((t + spanS) * 1e9)
		sp.LastEventNs = int64((t + spanS + latencyS) * 1e9)
		t += spanS + gapS
	}
	return out
}

// concatPlateaus is the upstream _concat_plateaus: renumber and shift each
// segment's timestamps to run monotonically with a 1 s gap.
func concatPlateaus(segs ...[]SuperPass) []SuperPass {
	var out []SuperPass
	tOff := int64(0)
	for _, seg := range segs {
		base := seg[0].FirstIssueNs
		for _, sp := range seg {
			base = min(base, sp.FirstIssueNs)
		}
		last := int64(0)
		for _, sp := range seg {
			sp.Index = len(out)
			sp.FirstIssueNs += tOff - base
			sp.LastIssueNs += tOff - base
			sp.LastEventNs += tOff - base
			last = max(last, sp.LastEventNs)
			out = append(out, sp)
		}
		tOff = last + 1_000_000_000
	}
	return out
}

// postParams are the reference defaults with the warmup fixed at 0, so the
// series is analysed as the post-warmup series (the upstream tests call
// build_steady_state on post directly).
func postParams(minDuration bool) Params {
	p := ReferenceParams()
	p.WarmupMode, p.WarmupFixed = "fixed", 0
	p.MinDuration = minDuration
	return p
}

var testInfo = RunInfo{DatasetSize: 40}

func steady(t *testing.T, sps []SuperPass, minDuration bool) *SteadyState {
	t.Helper()
	r, err := analyzeRollups(sps, testInfo, postParams(minDuration))
	if err != nil {
		t.Fatal(err)
	}
	return &r.Steady
}

func refGate() gateConfig {
	return gateConfig{gate: "mk_hamed_rao", covMax: 0.08, relDriftMin: 0.05, minN: 4, alpha: 0.05}
}

func admissible(sps []SuperPass, lo, hi int) bool {
	return windowAdmissible(percentileTable(sps), lo, hi, refGate(), nil, nil)
}

func TestWindowIssueSpanExcludesDrain(t *testing.T) {
	s := mkSeries(repeatLevel(100, 50, 3), 40)
	if got := issueSpanNs(s); got != 2100 {
		t.Errorf("issue span = %d, want 2100", got)
	}
	if got := completionSpanNs(s); got != 2900 {
		t.Errorf("completion span = %d, want 2900", got)
	}
}

func TestWindowAdmissible(t *testing.T) {
	jump := mkSeries(append(repeatLevel(100, 50, 4), repeatLevel(200, 60, 4)...), 40)
	if !admissible(jump, 0, 4) {
		t.Error("flat window [0,4) not admissible")
	}
	if admissible(jump, 2, 6) {
		t.Error("window [2,6) straddling the jump admissible")
	}
	// ~3 % drift: the gate says up but |rel_drift| < 0.05 → holds.
	small := mkSeries([][2]float64{{100, 50}, {100.6, 50}, {101.2, 50}, {101.8, 50}, {102.4, 50}, {103, 50}}, 40)
	if !admissible(small, 0, 6) {
		t.Error("3% drift window not admissible")
	}
	big := mkSeries([][2]float64{{100, 50}, {103, 50}, {106, 50}, {109, 50}, {112, 50}, {115, 50}}, 40)
	if admissible(big, 0, 6) {
		t.Error("15% drift window admissible")
	}
}

func TestTTFTNotGatedButDriftWarned(t *testing.T) {
	var lv [][2]float64
	for i := range 8 {
		lv = append(lv, [2]float64{100, 50 + 15*float64(i)})
	}
	s := mkSeries(lv, 40)
	if !admissible(s, 0, 8) {
		t.Error("TTFT ramp made the window inadmissible")
	}
	ss := steady(t, s, false)
	if !ss.Found || !slices.Contains(ss.DriftingUp, "ttft_p50") || slices.Contains(ss.DriftingUp, "tpot_p50") {
		t.Errorf("found %v drifting_up %v, want found with ttft_p50 and without tpot_p50", ss.Found, ss.DriftingUp)
	}
}

func TestSegmentPlateaus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		levels [][2]float64
		want   []Plateau
	}{
		{"staircase", append(repeatLevel(100, 50, 6), repeatLevel(200, 60, 6)...), []Plateau{{0, 6}, {6, 12}}},
		{"flat", repeatLevel(100, 50, 8), []Plateau{{0, 8}}},
		// detector.md §10.2 (verified): 4 %/sp over 16 sps → 4-sp plateaus.
		{"linear drift", drift4pct(16), []Plateau{{0, 4}, {4, 8}, {8, 12}, {12, 16}}},
	} {
		got := segmentPlateaus(percentileTable(mkSeries(tc.levels, 40)), refGate(), nil, nil)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: plateaus %v, want %v", tc.name, got, tc.want)
		}
	}
}

func drift4pct(n int) [][2]float64 {
	var lv [][2]float64
	x := 100.0
	for range n {
		lv = append(lv, [2]float64{x, 50})
		x *= 1.04
	}
	return lv
}

func TestDetectLevelShift(t *testing.T) {
	stair := mkSeries(append(repeatLevel(100, 50, 6), repeatLevel(200, 60, 6)...), 40)
	pl := segmentPlateaus(percentileTable(stair), refGate(), nil, nil)
	a := referenceLevelShift(stair, percentileTable(stair), pl, 0, 0.05, 0.05, nil)
	if !a.Detected || a.ChangePointSP != 6 || !(a.DeltaPct > 0) {
		t.Errorf("staircase anomaly = %+v, want detected at 6 with delta > 0", a)
	}
	flat := mkSeries(repeatLevel(100, 50, 8), 40)
	pl = segmentPlateaus(percentileTable(flat), refGate(), nil, nil)
	if a := referenceLevelShift(flat, percentileTable(flat), pl, 0, 0.05, 0.05, nil); a.Detected || a.Pettitt != nil {
		t.Errorf("single plateau anomaly = %+v, want default", a)
	}
}

// TestStaircaseGolden checks detector.md §16.1: the 6×(100,50)+6×(200,60)
// staircase with --no-min-duration.
func TestStaircaseGolden(t *testing.T) {
	ss := steady(t, mkSeries(append(repeatLevel(100, 50, 6), repeatLevel(200, 60, 6)...), 40), false)
	if !ss.Found || ss.Window == nil || ss.Window.SPLo != 0 || ss.Window.SPHi != 6 || ss.Window.NSamples != 240 {
		t.Fatalf("found %v window %+v, want found [0,6) with 240 samples", ss.Found, ss.Window)
	}
	if !slices.Equal(ss.Anomaly.Plateaus, []Plateau{{0, 6}, {6, 12}}) {
		t.Errorf("plateaus %v", ss.Anomaly.Plateaus)
	}
	if ss.TTFT.Count != 6*40 {
		t.Errorf("ttft count %d, want 240", ss.TTFT.Count)
	}
	if ss.TPS.PerUser != 1e7 || ss.TPS.System != 470588235.2941176 {
		t.Errorf("tps per_user %v system %v, want 1e7 and 470588235.2941176", ss.TPS.PerUser, ss.TPS.System)
	}
	a := ss.Anomaly
	if !a.Detected || a.ChangePointSP != 6 || a.DeltaPct != 100 || a.Pettitt == nil || a.Pettitt.K != 36 ||
		!closeRel(a.Pettitt.P, 0.03140780113025614, 1e-14) {
		t.Errorf("anomaly %+v pettitt %+v", a, a.Pettitt)
	}
	if ss.GlobalTrend != [4]stats.Verdict{"steady", "steady", "steady", "steady"} {
		t.Errorf("global trend %v, want all steady", ss.GlobalTrend)
	}
	if sw := ss.ShortWindow; sw.Dominant != "floor" || sw.WindowDurationS != 5.1e-06 || !sw.IsShort {
		t.Errorf("short window %+v", sw)
	}
}

func TestBuildSteadyStateGlobalDrift(t *testing.T) {
	lv := repeatLevel(100, 50, 6)
	for i := 1; i < 8; i++ {
		lv = append(lv, [2]float64{100 + 25*float64(i), 50})
	}
	ss := steady(t, mkSeries(lv, 40), false)
	if !ss.Found || ss.Window.SPLo != 0 || ss.Window.SPHi != 6 || ss.Anomaly.Detected ||
		!slices.Contains(ss.DriftingUp, "tpot_p50") || slices.Contains(ss.DriftingUp, "ttft_p50") {
		t.Errorf("found %v window %+v anomaly %v drifting_up %v", ss.Found, ss.Window, ss.Anomaly.Detected, ss.DriftingUp)
	}
	flat := steady(t, mkSeries(repeatLevel(100, 50, 8), 40), false)
	if len(flat.DriftingUp) != 0 {
		t.Errorf("flat run drifting_up %v", flat.DriftingUp)
	}
	var ramp [][2]float64
	for i := range 8 {
		ramp = append(ramp, [2]float64{100 + 20*float64(i), 50})
	}
	if ns := steady(t, mkSeries(ramp, 40), false); ns.Found || ns.Reason != "no admissible steady plateau" || ns.Window != nil {
		t.Errorf("never-settling run found %v reason %q", ns.Found, ns.Reason)
	}
}

func TestAutoWarmupGoldens(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals []float64
		want int
	}{
		{"ramp to 50", []float64{20, 30, 40, 50, 50, 50, 50, 50, 50, 50}, 3},
		{"flat", slices.Repeat([]float64{50}, 8), 1},
		{"never settles", []float64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, 5},
		{"too short", []float64{10, 50, 50}, 1},
	} {
		if got := AutoWarmup(tc.vals, 0.05, 0.5, 4, 1); got != tc.want {
			t.Errorf("%s: warmup %d, want %d", tc.name, got, tc.want)
		}
	}
	// Through the pipeline: the crop of the upstream ramp fixture.
	sps := mkSeries(append([][2]float64{{20, 50}, {30, 50}, {40, 50}}, repeatLevel(50, 50, 7)...), 40)
	r, err := analyzeRollups(sps, testInfo, ReferenceParams())
	if err != nil {
		t.Fatal(err)
	}
	if r.Warmup != 3 || r.WarmupMode != "auto" || r.NPostWarmup != 7 {
		t.Errorf("warmup %d [%s] post %d, want 3 [auto] 7", r.Warmup, r.WarmupMode, r.NPostWarmup)
	}
}

func TestMinSteadyDuration(t *testing.T) {
	mc := minDurationConfig{eps: 0.05, relaxMult: 5, floorS: 600, kstarFloor: 4}
	gate := func(s []SuperPass) ShortWindow { return minSteadyDuration(s, percentileTable(s), mc) }

	sw := gate(spannedSeries(6, 100, 1, 0, 0.1, 40))
	if sw.Dominant != "floor" || sw.MinDurationS != 600 || sw.KStar != 4 || !sw.IsShort {
		t.Errorf("clean short run: %+v", sw)
	}
	sw = gate(spannedSeries(6, 100, 1, 0, 200, 40))
	if sw.Dominant != "relaxation" || sw.MinDurationS != 1000 {
		t.Errorf("long tail: %+v", sw)
	}
	noisy := spannedSeries(8, 100, 50, 0, 0.1, 40)
	for i := range noisy {
		v := 100.0
		if i%2 == 1 {
			v = 160
		}
		noisy[i].TPOT = slices.Repeat([]float64{v}, 40)
		noisy[i].pct = nil
	}
	sw = gate(noisy)
	// detector.md §10.3 goldens.
	if sw.Dominant != "precision" || sw.KStar != 82 || sw.CovB != 0.23076923076923078 || sw.TPrecisionS != 4100 {
		t.Errorf("noisy metric: %+v", sw)
	}
	sw = gate(spannedSeries(4, 100, 200, 0, 1, 40))
	if sw.KStar != 4 || sw.TPrecisionS != 0 || sw.Dominant != "floor" || sw.MinDurationS != 600 || sw.IsShort {
		t.Errorf("k* floor exemption: %+v", sw)
	}
	if sw := gate(spannedSeries(6, 100, 120, 0, 1, 40)); sw.IsShort {
		t.Errorf("720 s window short: %+v", sw)
	}
}

func TestMinDurationSelection(t *testing.T) {
	flat := mkSeries(repeatLevel(100, 50, 8), 40)
	hard := steady(t, flat, true)
	if hard.Found || !strings.Contains(hard.Reason, "too short") || !hard.ShortWindow.IsShort || hard.Window == nil {
		t.Errorf("enforced short: found %v reason %q", hard.Found, hard.Reason)
	}
	const wantReason = "all 1 admissible plateau(s) too short: longest 0s < 600s required (floor-dominated); " +
		"pass --no-min-duration to override"
	if hard.Reason != wantReason {
		t.Errorf("reason %q, want %q", hard.Reason, wantReason)
	}
	if soft := steady(t, flat, false); !soft.Found || !soft.ShortWindow.IsShort {
		t.Errorf("soft short: found %v", soft.Found)
	}
	if long := steady(t, spannedSeries(8, 100, 120, 0, 1, 40), true); !long.Found || long.ShortWindow.IsShort {
		t.Errorf("960 s plateau: found %v short %v", long.Found, long.ShortWindow.IsShort)
	}

	a := spannedSeries(4, 5, 1, 0, 0.1, 40)
	b := spannedSeries(8, 6.5, 120, 0, 1, 40)
	skip := steady(t, concatPlateaus(a, b), true)
	if !skip.Found || skip.Window.PlateauIndex != 1 || skip.Window.SkippedShort != 1 ||
		skip.Window.SPLo != 4 || skip.Window.SPHi != 12 || skip.ShortWindow.IsShort {
		t.Errorf("skip short: found %v window %+v", skip.Found, skip.Window)
	}
	first := steady(t, concatPlateaus(spannedSeries(4, 5, 1, 0, 0.1, 40), spannedSeries(8, 6.5, 120, 0, 1, 40)), false)
	if !first.Found || first.Window.PlateauIndex != 0 || first.Window.SkippedShort != 0 || !first.ShortWindow.IsShort {
		t.Errorf("soft path: found %v window %+v", first.Found, first.Window)
	}
	allShort := steady(t, concatPlateaus(spannedSeries(4, 5, 1, 0, 0.1, 40), spannedSeries(5, 6.5, 1, 0, 0.1, 40)), true)
	if allShort.Found || !strings.Contains(allShort.Reason, "too short") || allShort.Window == nil {
		t.Errorf("all short: found %v reason %q", allShort.Found, allShort.Reason)
	}
	// The longest plateau (5 × 1 s) is reported, the first one counted as skipped.
	if allShort.Window.PlateauIndex != 1 || allShort.Window.SkippedShort != 1 {
		t.Errorf("all short window %+v, want plateau 1 with 1 skipped", allShort.Window)
	}
}

func TestCovCell(t *testing.T) {
	bounds := []float64{0.03, 0.05, 0.08}
	c := covCell([]float64{3, 3, 3, 3}, 4, true, bounds, nil)
	if c.CoV != 0 || !slices.Equal(c.Passes, []bool{true, true, true}) {
		t.Errorf("flat: %+v", c)
	}
	c = covCell([]float64{3, 3.2, 2.9, 3.15}, 4, false, []float64{0.03, 0.5}, nil)
	if c.CoV != 0.03893629393538556 || !slices.Equal(c.Passes, []bool{false, true}) {
		t.Errorf("noisy: %+v (want CoV 0.03893629393538556, detector.md §16.1)", c)
	}
	c = covCell([]float64{3}, 4, false, []float64{0.03, 0.05}, nil)
	if c.N != 1 || c.Passes != nil || !math.IsNaN(c.CoV) {
		t.Errorf("single point: %+v, want inconclusive", c)
	}
}

func TestRollingWindows(t *testing.T) {
	if got := windowCount(6, 4); got != 3 { // [0, 4), [1, 5), [2, 6)
		t.Errorf("windows(6,4) = %d", got)
	}
	if windowCount(3, 4) != 0 || windowCount(5, 0) != 0 || windowCount(5, -1) != 0 {
		t.Error("rolling windows for w > n or w ≤ 0")
	}
}

func TestTPSFormulas(t *testing.T) {
	if got := perUserTPS(2_000_000); got != 500 {
		t.Errorf("per-user %v", got)
	}
	if got := systemTPS(5000, 10_000_000_000); got != 500 {
		t.Errorf("system %v", got)
	}
	if perUserTPS(0) != 0 || systemTPS(10, 0) != 0 {
		t.Error("non-positive denominators must give 0")
	}
}

func TestProfileForLoadPattern(t *testing.T) {
	for lp, want := range map[string]string{
		"agentic_inference": "agentic", "poisson": "poisson", "max_throughput": "offline",
		"offline": "offline", "concurrency": "concurrency", "": "concurrency",
		"something-unknown": "unknown", "Concurrency": "unknown",
	} {
		if got := ProfileForLoadPattern(lp); got.Name != want {
			t.Errorf("%q → %s, want %s", lp, got.Name, want)
		}
	}
	if p := ProfileForLoadPattern("agentic_inference"); p.Path != "natl" {
		t.Errorf("agentic path %q", p.Path)
	}
	if p := ProfileForLoadPattern("x"); p.Supported {
		t.Error("unknown profile supported")
	}
	// detector.md §2.5: the exact caveat of a poisson run.
	const poisson = "[profile: poisson] poisson: same detection as concurrency; usually under-saturated with the weakest ramp/drain."
	if got := ProfileForLoadPattern("poisson").Caveat(); got != poisson {
		t.Errorf("caveat %q", got)
	}
	if ProfileForLoadPattern("concurrency").Caveat() != "" {
		t.Error("concurrency has a caveat")
	}
}

func closeRel(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// TestDiagnosticTablesSharedTrajectories: metrics whose trajectories are
// the same floats (ttft_warm_p50/p90 of a run without cold starts) get
// the tables computed for the first of them, which are the tables
// computed for each on its own (covCell, driftEntry); a trajectory that
// differs in one bit, or only in length, is computed on its own.
func TestDiagnosticTablesSharedTrajectories(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	var traj [NumMetrics][]float64
	for m := range traj {
		traj[m] = make([]float64, 30)
		for i := range traj[m] {
			traj[m][i] = 100 + float64(m) + 0.5*float64(i)*float64(m%3) + rng.NormFloat64()
		}
	}
	traj[8] = append([]float64(nil), traj[0]...)
	traj[9] = append([]float64(nil), traj[1]...)
	traj[5] = append([]float64(nil), traj[2]...)
	traj[5][7] = math.Nextafter(traj[5][7], math.Inf(1)) // one bit off
	traj[6] = append([]float64(nil), traj[3][:29]...)    // a prefix
	if got, want := sameTrajectories(&traj), [NumMetrics]int{0, 1, 2, 3, 4, 5, 6, 7, 0, 1}; got != want {
		t.Fatalf("sameTrajectories %v, want %v", got, want)
	}
	sizes, bounds := []int{4, 6, 31}, []float64{0.03, 0.05}
	got := diagnosticTables(&traj, sizes, bounds, 4, 0.05, nil)
	ms := Metrics()
	for i, w := range sizes {
		for m := range NumMetrics {
			whole := allVerdicts(traj[m], 4, 0.05)
			if c := covCell(traj[m], w, ms[m].Gated, bounds, nil); !reflect.DeepEqual(got[i].Cov[m], c) {
				t.Errorf("w=%d %s: CoV cell %+v, alone %+v", w, ms[m].Key, got[i].Cov[m], c)
			}
			if d := driftEntry(traj[m], w, 4, 0.05, whole, nil, nil, nil); !reflect.DeepEqual(got[i].Drift[m], d) {
				t.Errorf("w=%d %s: drift entry differs from the one computed alone", w, ms[m].Key)
			}
		}
	}
}

// TestRollingCellVerdicts: a cell returns the verdicts it was made with,
// each of the four in every position.
func TestRollingCellVerdicts(t *testing.T) {
	all := []stats.Verdict{stats.VerdictUp, stats.VerdictDown, stats.VerdictSteady, stats.VerdictInsufficient}
	for k := range all {
		var v [5]stats.Verdict
		for i := range v {
			v[i] = all[(k+i)%len(all)]
		}
		c := NewRollingCell(3, 9, v)
		if c.Lo != 3 || c.Hi != 9 || c.Verdicts() != v {
			t.Errorf("cell of %v: [%d, %d) %v", v, c.Lo, c.Hi, c.Verdicts())
		}
		for i := range v {
			if c.Verdict(i) != v[i] {
				t.Errorf("cell of %v: verdict %d is %s", v, i, c.Verdict(i))
			}
		}
	}
}
