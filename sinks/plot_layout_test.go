package sinks_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// spWindow is a steady_state.window of the reference-schema JSON: the
// post-warmup super-passes [sp_lo, sp_hi).
type spWindow struct {
	SPLo int `json:"sp_lo"`
	SPHi int `json:"sp_hi"`
}

// referencePlotFacts is what the reference's JSON for a parity run
// (shared/parity/expected/NAME.json) says the plot must show.
type referencePlotFacts struct {
	NSuperPasses int `json:"n_super_passes"`
	Warmup       int `json:"warmup"`
	SteadyState  struct {
		Window  *spWindow `json:"window"`
		Anomaly struct {
			Detected      bool     `json:"detected"`
			ChangePointSP *int     `json:"change_point_sp"`
			Plateaus      [][2]int `json:"plateaus"`
		} `json:"anomaly"`
	} `json:"steady_state"`
	PerSuperPass []struct {
		TTFTP50 *float64 `json:"ttft_p50"`
		TTFTP90 *float64 `json:"ttft_p90"`
		TPOTP50 *float64 `json:"tpot_p50"`
		TPOTP90 *float64 `json:"tpot_p90"`
	} `json:"per_super_pass"`
}

// The plot's warmup, window, plateaus, change point and per-super-pass
// values are the reference's for the run, shifted to absolute super-pass
// indices (post-relative + warmup, window end inclusive).
func TestPlotLayoutMatchesReference(t *testing.T) {
	for _, name := range []string{"conc_clean_ramp", "conc_staircase_late", "conc_ramp_only"} {
		t.Run(name, func(t *testing.T) {
			r, _ := analyzeParityRun(t, name)
			data, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "expected", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want referencePlotFacts
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			l := sinks.LayoutOf(r)
			w := want.Warmup
			if len(l.X) != want.NSuperPasses || l.Warmup != w {
				t.Errorf("%d super-passes, warmup %d; want %d, %d", len(l.X), l.Warmup, want.NSuperPasses, w)
			}
			switch ww := want.SteadyState.Window; {
			case ww == nil && l.Window != nil:
				t.Errorf("window %v, want none", *l.Window)
			case ww != nil && (l.Window == nil || *l.Window != sinks.Span{Lo: w + ww.SPLo, Hi: w + ww.SPHi - 1}):
				t.Errorf("window %v, want %d..%d", l.Window, w+ww.SPLo, w+ww.SPHi-1)
			}
			if len(l.Plateaus) != len(want.SteadyState.Anomaly.Plateaus) {
				t.Fatalf("plateaus %v, want %v (+%d)", l.Plateaus, want.SteadyState.Anomaly.Plateaus, w)
			}
			for i, p := range want.SteadyState.Anomaly.Plateaus {
				if l.Plateaus[i] != (sinks.Span{Lo: w + p[0], Hi: w + p[1] - 1}) {
					t.Errorf("plateau %d is %v, want %d..%d", i, l.Plateaus[i], w+p[0], w+p[1]-1)
				}
			}
			wantCP := -1
			if cp := want.SteadyState.Anomaly.ChangePointSP; want.SteadyState.Anomaly.Detected && cp != nil {
				wantCP = w + *cp
			}
			if l.ChangePoint != wantCP {
				t.Errorf("change point %d, want %d", l.ChangePoint, wantCP)
			}
			for i, sp := range want.PerSuperPass {
				k := w + i
				for _, c := range []struct {
					name string
					got  float64
					want *float64
				}{{"ttft_p50", l.TTFTP50[k], sp.TTFTP50}, {"ttft_p90", l.TTFTP90[k], sp.TTFTP90},
					{"tpot_p50", l.TPOTP50[k], sp.TPOTP50}, {"tpot_p90", l.TPOTP90[k], sp.TPOTP90}} {
					if c.want == nil {
						if !math.IsNaN(c.got) {
							t.Errorf("super-pass %d %s = %v, want none", k, c.name, c.got)
						}
					} else if math.Abs(c.got-*c.want/1e6) > 1e-9*math.Abs(*c.want/1e6) {
						t.Errorf("super-pass %d %s = %v ms, want %v", k, c.name, c.got, *c.want/1e6)
					}
				}
			}
		})
	}
}

// Under steadysweep's defaults the plot's window and change point are the
// ones core.Outcome reports (absolute, end inclusive), and the warmup is
// the Result's.
func TestPlotLayoutMatchesOutcome(t *testing.T) {
	for _, name := range []string{"conc_clean_ramp", "conc_staircase_late", "conc_partial_dataset"} {
		t.Run(name, func(t *testing.T) {
			r, _ := analyzeRun(t, name, core.DefaultParams())
			o := r.Outcome()
			l := sinks.LayoutOf(r)
			if l.Warmup != r.Warmup || len(l.X) != len(r.SuperPasses()) {
				t.Errorf("warmup %d over %d super-passes, want %d over %d", l.Warmup, len(l.X), r.Warmup,
					len(r.SuperPasses()))
			}
			switch {
			case o.WindowStartSP < 0 && l.Window != nil:
				t.Errorf("window %v, Outcome has none", *l.Window)
			case o.WindowStartSP >= 0 && (l.Window == nil || *l.Window != sinks.Span{Lo: o.WindowStartSP, Hi: o.WindowEndSP}):
				t.Errorf("window %v, Outcome %d..%d", l.Window, o.WindowStartSP, o.WindowEndSP)
			}
			if l.ChangePoint != o.ChangePointSP {
				t.Errorf("change point %d, Outcome %d", l.ChangePoint, o.ChangePointSP)
			}
			if l.Status != string(o.Status) || l.Verdict != string(o.Verdict) {
				t.Errorf("status %q verdict %q, Outcome %q %q", l.Status, l.Verdict, o.Status, o.Verdict)
			}
		})
	}
}

// The plot draws a "reported window" only for a certified steady state:
// conc_clean_ramp (STEADY STATE) gets one; a drifting, burst or short
// window (conc_drift_up, conc_ramp_only, conc_truncated) none, and the
// plot says the verdict instead.
func TestPlotWindowOnlyWhenCertified(t *testing.T) {
	for _, c := range []struct {
		name      string
		certified bool
	}{{"conc_clean_ramp", true}, {"conc_drift_up", false}, {"conc_ramp_only", false}, {"conc_truncated", false}} {
		r, _ := analyzeRun(t, c.name, core.DefaultParams())
		l := sinks.LayoutOf(r)
		if l.Certified != c.certified || l.Certified != r.Outcome().Found {
			t.Errorf("%s: certified %v, want %v (outcome found %v)", c.name, l.Certified, c.certified, r.Outcome().Found)
		}
		if !c.certified && (l.Note == "" || !strings.Contains(l.Note, "verdict "+l.Verdict)) {
			t.Errorf("%s: note %q does not say the verdict %s", c.name, l.Note, l.Verdict)
		}
		if c.certified && l.Note != "" {
			t.Errorf("%s: note %q on a certified plot", c.name, l.Note)
		}
	}
}

// A non-streamed run (conc_clean_ramp with its first tokens removed, as
// a non-streaming client logs it): one panel of end-to-end latency with a
// note why, no reported window; each super-pass's latency p50/p90 is the
// detector's lower percentile (detector spec §5.4) of its samples' own
// latencies, computed here from the samples in issue order, and the
// dashed whole-run lines are the JSON's total.latency_ns.
func TestPlotNonStreamingLatency(t *testing.T) {
	dir := filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs", "conc_clean_ramp")
	run, d := sinkstest.DecodeEvents(t, dir)
	s := &d.Samples
	for i := range s.Len() {
		s.HasFirstToken[i], s.FirstTokenNs[i], s.TTFTNs[i], s.FirstTokenSeq[i] = false, 0, 0, -1
	}
	r, err := core.NewRun(s, run.Info).Analyze(core.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	l := sinks.LayoutOf(r)
	if !l.LatencyOnly || !strings.Contains(l.Note, "not streamed") || l.Certified || l.Window != nil {
		t.Fatalf("latency only %v, note %q, certified %v, window %v", l.LatencyOnly, l.Note, l.Certified, l.Window)
	}
	order := make([]int, s.Len())
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s.IssueNs[order[a]] < s.IssueNs[order[b]] })
	S := run.Info.DatasetSize
	lower := func(v []float64, p float64) float64 { return v[int(p*float64(len(v)-1))] }
	if len(l.X) != len(order)/S {
		t.Fatalf("%d super-passes plotted, %d samples of %d", len(l.X), len(order), S)
	}
	for k := range l.X {
		var lat []float64
		for _, i := range order[k*S : (k+1)*S] {
			if s.HasComplete[i] && !s.Failed[i] {
				lat = append(lat, float64(s.LatencyNs[i])/1e6)
			}
		}
		sort.Float64s(lat)
		if l.LatencyP50[k] != lower(lat, 0.5) || l.LatencyP90[k] != lower(lat, 0.9) {
			t.Errorf("super-pass %d: latency p50/p90 %v/%v ms, samples give %v/%v", k, l.LatencyP50[k], l.LatencyP90[k],
				lower(lat, 0.5), lower(lat, 0.9))
		}
	}
	var j map[string]any
	data, err := resultjson.Marshal(r)
	if err != nil || json.Unmarshal(data, &j) != nil {
		t.Fatalf("JSON: %v", err)
	}
	tot, _ := j["total"].(map[string]any)["latency_ns"].(map[string]any)
	if l.TotalLatencyP50 != tot["p50"].(float64)/1e6 || l.TotalLatencyP90 != tot["p90"].(float64)/1e6 {
		t.Errorf("whole-run latency %v/%v ms, JSON %v", l.TotalLatencyP50, l.TotalLatencyP90, tot)
	}
}
