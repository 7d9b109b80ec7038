package calibrate

import (
	"math"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// TestLabel covers every row of the package doc's mapping table.
func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		status  core.Status
		verdict core.Verdict
		want    string
	}{
		{core.StatusError, "", calibration.LabelError},
		{core.StatusPartialDataset, core.VerdictNotFound, "partial_dataset"},
		{core.StatusInsufficientPasses, core.VerdictNotFound, "insufficient_passes"},
		{core.StatusNotSupported, core.VerdictNotFound, "not_supported"},
		{core.StatusInsufficientDuration, core.VerdictNotFound, calibration.LabelShort},
		{core.StatusWindowable, core.VerdictSteadyState, "steady"},
		{"", core.VerdictSteadyState, "steady"},
		{core.StatusWindowable, core.VerdictAnomaly, "anomaly"},
		{"", core.VerdictAnomaly, "anomaly"},
		{core.StatusWindowable, core.VerdictDriftingUp, "drifting_up"},
		{core.StatusWindowable, core.VerdictDriftingDown, "drifting_down"},
		{core.StatusWindowable, core.VerdictNotFound, "not_found"},
		{"", core.VerdictNotFound, "not_found"},
	} {
		if got := Label(string(tc.status), string(tc.verdict)); got != tc.want {
			t.Errorf("Label(%q, %q) = %q, want %q", tc.status, tc.verdict, got, tc.want)
		}
	}
}

// TestTruthSPs: windows of another super-pass size map through issue
// positions; the planted level takes the flat super-passes only.
func TestTruthSPs(t *testing.T) {
	tr := truthOf("steady", false, true, []float64{5, 9, 10, 10, 12}, []int{2, 3}, warm(1.2))
	for _, tc := range []struct{ start, end, used, lo, hi int }{
		{2, 5, 50, 1, 3},  // issues [100, 300)
		{1, 2, 100, 1, 3}, // same size
		{1, 1, 150, 1, 3}, // issues [150, 300)
		{0, 0, 0, 0, 1},   // unknown size: the truth's
	} {
		if lo, hi := truthSPs(tr, tc.start, tc.end, tc.used); lo != tc.lo || hi != tc.hi {
			t.Errorf("truthSPs(%d, %d, %d) = [%d, %d), want [%d, %d)", tc.start, tc.end, tc.used, lo, hi, tc.lo, tc.hi)
		}
	}
	if ns, ok := plantedTPOTNs(tr, 1, 4); !ok || ns != 10e6 {
		t.Errorf("planted over SPs 1..3 (flat 2, 3) = %v %v, want 10 ms", ns, ok)
	}
	if ns, ok := plantedTPOTNs(tr, 0, 2); !ok || ns != 7e6 {
		t.Errorf("planted over SPs 0..1 (none flat) = %v %v, want median 7 ms", ns, ok)
	}
	if _, ok := plantedTPOTNs(tr, 7, 9); ok {
		t.Error("planted level beyond the planted super-passes")
	}
	if got := startTruthSP(tr, 3, 50); got != 1.5 {
		t.Errorf("startTruthSP = %v, want 1.5", got)
	}
}

// TestRankOrder: confident-but-wrong rates within one step tie, then
// found rate decides; undefined rates rank last.
func TestRankOrder(t *testing.T) {
	nan := math.NaN()
	cs := []*calibration.ConfigScore{
		{ConfigID: "never-found", ConfidentWrongRate: nan, FoundRate: 0, ErrMedian: 0.001, AgreeRate: 1},
		{ConfigID: "wrong-more", ConfidentWrongRate: 0.05, FoundRate: 1, ErrMedian: 0.01},
		{ConfigID: "low-found", ConfidentWrongRate: 0.001, FoundRate: 0.5, ErrMedian: 0.01},
		{ConfigID: "high-found", ConfidentWrongRate: 0.009, FoundRate: 0.9, ErrMedian: 0.02},
		{ConfigID: "high-found-err", ConfidentWrongRate: 0.0, FoundRate: 0.9, ErrMedian: 0.03},
	}
	rankConfigs(cs)
	want := []string{"high-found", "high-found-err", "low-found", "wrong-more", "never-found"}
	for i, c := range cs {
		if c.ConfigID != want[i] || c.Rank != i+1 {
			t.Errorf("rank %d: %s (Rank %d), want %s", i+1, c.ConfigID, c.Rank, want[i])
		}
	}
}

// TestRankTieGoesToDefaults: configs that tie on every figure rank by how
// many parameters they move from their compat's defaults, then config_id
// (issue 20: the demo recommended min_duration=false over the default,
// tied on every figure, by the hash of its config_id).
func TestRankTieGoesToDefaults(t *testing.T) {
	params := func(p core.Params) map[string]string {
		m := map[string]string{}
		for _, n := range core.Names() {
			m[n], _ = p.Get(n)
		}
		return m
	}
	off := core.DefaultParams()
	off.MinDuration = false
	band := core.DefaultParams()
	band.MinDuration, band.WarmupBand = false, 0.03
	cs := []*calibration.ConfigScore{
		{ConfigID: "0-two-changed", Params: params(band)},
		{ConfigID: "1-gate-off", Params: params(off)},
		{ConfigID: "9-defaults", Params: params(core.DefaultParams())},
		{ConfigID: "5-reference", Params: params(core.ReferenceParams())},
	}
	for _, c := range cs {
		c.ConfidentWrongRate, c.FoundRate, c.ErrMedian, c.AgreeRate = 0, 1, 0.01, 0.8
	}
	rankConfigs(cs)
	want := []string{"5-reference", "9-defaults", "1-gate-off", "0-two-changed"}
	for i, c := range cs {
		if c.ConfigID != want[i] {
			t.Errorf("rank %d: %s, want %s", i+1, c.ConfigID, want[i])
		}
	}
}
