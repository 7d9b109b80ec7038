package core_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestOursPoissonBacklog: synth poisson_steady arrives at 80 % of the
// server's capacity (truth load.qps): completions keep up with arrivals,
// the run is windowed by issue time. At 130 % of capacity, with the server
// capped at the reference batch (MaxBatch = C), the queue grows
// (completion rate below the offered rate) and the run switches to the
// token-rate trend of offline runs.
func TestOursPoissonBacklog(t *testing.T) {
	s, info, tr := genRun(t, "poisson_steady", 1, nil)
	r, m := analyzeOurs(t, s, info, core.DefaultParams())
	md := r.Assessment.Mode
	if md.Name != "poisson" || md.Backlog || md.Method != "issue_time_window" {
		t.Errorf("steady Poisson: mode %+v", md)
	}
	if e := math.Abs(md.OfferedQPS-tr.Load.QPS) / tr.Load.QPS; e > 0.1 {
		t.Errorf("offered %.3f qps vs planted %.3f", md.OfferedQPS, tr.Load.QPS)
	}
	if m["mode"].(map[string]any)["backlog"] != false {
		t.Errorf("mode JSON %v", m["mode"])
	}
	over := tr.Load.QPS / 0.8 * 1.3
	s2, info2, _ := genRun(t, "poisson_steady", 1, func(sp *synth.Spec) { sp.QPS, sp.MaxBatch = over, sp.Concurrency })
	r2, _ := analyzeOurs(t, s2, info2, core.DefaultParams())
	md2 := r2.Assessment.Mode
	if !md2.Backlog || md2.Method != "tps_trend" || r2.Assessment.Offline == nil || !(md2.CompletionQPS < md2.OfferedQPS) {
		t.Errorf("saturated Poisson at %.2f qps: mode %+v", over, md2)
	}
}

// TestOursBaselines: the peer baselines always report their window on the
// full super-passes of synth clean_ramp (18 passes of 150): total = every
// super-pass, fixed-pct 10/10 drops round(1.8) = 2 at each end, mser5
// starts after MSER-5's truncation, inside the planted ramp region.
func TestOursBaselines(t *testing.T) {
	s, info, tr := genRun(t, "clean_ramp", 1, nil)
	n := tr.Counts.TrackedIssuedInFile / tr.DatasetSize
	for _, c := range []struct {
		method core.Method
		lo, hi int
	}{{"total", 0, n - 1}, {"fixed-pct", 2, n - 3}, {"mser5", -1, n - 1}} {
		p := core.DefaultParams()
		p.Method = c.method
		r, _ := analyzeOurs(t, s, info, p)
		o := r.Outcome()
		if !o.Found && o.Status == core.StatusWindowable {
			t.Errorf("%s: not found (%s)", c.method, o.Reason)
		}
		if r.Assessment.Baseline != c.method || o.WindowEndSP != c.hi || (c.lo >= 0 && o.WindowStartSP != c.lo) {
			t.Errorf("%s: window %d..%d, want %d..%d", c.method, o.WindowStartSP, o.WindowEndSP, c.lo, c.hi)
		}
		if c.method == "mser5" && (o.WindowStartSP < 0 || o.WindowStartSP > 3) {
			t.Errorf("mser5 starts at %d; the planted ramp is ~1.5 super-passes", o.WindowStartSP)
		}
		if math.IsNaN(o.SteadyTPOTP50Ns) {
			t.Errorf("%s: no TPOT", c.method)
		}
	}
}

// TestSharedRunMatchesFresh: a Run analysed under many parameter sets
// (the sweep's path: its rollups and memos shared) gives, for every set,
// exactly the Outcome and the JSON a fresh Run gives; the memos change
// the cost, never a number. (It replaces the rollups-only entry point's
// test: there is one entry point now.)
func TestSharedRunMatchesFresh(t *testing.T) {
	var grid []core.Params
	for _, base := range []core.Params{core.DefaultParams(), core.ReferenceParams()} {
		for _, alpha := range []float64{0.01, 0.05, 0.2} {
			for _, md := range []bool{true, false} {
				p := base
				p.Alpha, p.MinDuration = alpha, md
				grid = append(grid, p)
			}
		}
	}
	for _, m := range []core.Method{core.MethodTotal, core.MethodFixedPct, core.MethodMSER5} {
		p := core.DefaultParams()
		p.Method = m
		grid = append(grid, p)
	}
	for _, preset := range []string{"clean_ramp", "late_staircase", "drift_up"} {
		s, info, _ := genRun(t, preset, 1, nil)
		shared := core.NewRun(s, info)
		for i, p := range append(grid, grid...) { // twice: the second pass reads the memos
			got, err := shared.Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			want, err := core.NewRun(s, info).Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmt.Sprintf("%+v", got.Outcome()), fmt.Sprintf("%+v", want.Outcome()); g != w {
				t.Errorf("%s config %d: shared run\n%s\nfresh run\n%s", preset, i, g, w)
			}
			if g, w := refJSON(t, got), refJSON(t, want); !bytes.Equal(g, w) {
				t.Errorf("%s config %d: JSON of the shared run differs", preset, i)
			}
		}
	}
}

// TestOursSelectionGuardrails: on synth clean_ramp (flat plateau, 3 %
// jitter) the gating metrics are Plateau, OLS and Newey–West corroborate
// the gate, and the certifying ensemble settings are exactly those whose
// bounds (b, 1.5·b) hold the window's CoV of tpot_p50 and tpot_p90,
// recomputed here from the result's trajectories; on drift_up (+35 %
// linear) the line beats the steps.
func TestOursSelectionGuardrails(t *testing.T) {
	s, info, _ := genRun(t, "clean_ramp", 1, nil)
	r, _ := analyzeOurs(t, s, info, core.DefaultParams())
	sel := r.Assessment.Selection
	if st := sel.GatingStates(); st[0] != core.StatePlateau || st[1] != core.StatePlateau || !sel.Corroborated {
		t.Errorf("states %v corroborated %v (OLS p %.3g, NW p %.3g)", st, sel.Corroborated, sel.OLSP, sel.NeweyWestP)
	}
	lo, hi := int(r.Assessment.Window.Lo)-r.Warmup, int(r.Assessment.Window.Hi)-r.Warmup
	c50, c90 := popCoV(r.Trajectories()[2][lo:hi]), popCoV(r.Trajectories()[3][lo:hi])
	var want []int
	for i, b := range []float64{0.03, 0.05, 0.08} {
		if c50 <= b && c90 <= 1.5*b {
			want = append(want, i)
		}
	}
	if len(want) == 0 || len(sel.Certifying) != len(want) || sel.Certifying[0] != want[0] {
		t.Errorf("certifying %v, recomputed %v (CoV p50 %.4f p90 %.4f)", sel.Certifying, want, c50, c90)
	}
	if !(sel.Concordance >= 0 && sel.Concordance <= 1) {
		t.Errorf("concordance %v", sel.Concordance)
	}
	s2, info2, _ := genRun(t, "drift_up", 1, nil)
	r2, _ := analyzeOurs(t, s2, info2, core.DefaultParams())
	if d := r2.Assessment.Selection.Drift; d == nil || !d.Drift || !(d.BICLine < d.BICStep) || !d.Up {
		t.Errorf("drift test %+v", d)
	}
}
