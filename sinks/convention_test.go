package sinks_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// TestWindowConvention (issue 29): one window/change-point convention in
// every output of steadysweep's defaults. The window is absolute
// super-passes, first..last inclusive, in the text ("super-passes A..B"),
// the rows (Outcome.WindowStartSP/WindowEndSP), the JSON selection
// (window_sp [A, B]) and the submission block (super_pass_start/end); the
// reference-schema steady_state.window keeps the reference's post-warmup
// [sp_lo, sp_hi), which is the same span. The change point is the first
// super-pass of the new level, absolute, the same number in the text, the
// rows, selection.anomaly and submission.anomaly; a shift after the window
// starts after its last super-pass. Runs: parity conc_staircase_late (a
// ×1.22 step planted at 27.3 of 34 super-passes, truth.json), conc_clean_ramp
// and conc_drift_up (no step).
func TestWindowConvention(t *testing.T) {
	for _, name := range []string{"conc_staircase_late", "conc_clean_ramp", "conc_drift_up"} {
		r, run := analyzeRun(t, name, core.DefaultParams())
		o := r.Outcome()
		raw, err := resultjson.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var js struct {
			Warmup      int `json:"warmup"`
			SteadyState struct {
				Window *spWindow `json:"window"`
			} `json:"steady_state"`
			Selection struct {
				WindowSP []int `json:"window_sp"`
				Anomaly  struct {
					ChangePointSP *int `json:"change_point_sp"`
				} `json:"anomaly"`
			} `json:"selection"`
			Submission struct {
				Window struct {
					Start *int `json:"super_pass_start"`
					End   *int `json:"super_pass_end"`
				} `json:"window"`
				Anomaly *struct {
					ChangePoint int `json:"change_point_super_pass"`
				} `json:"anomaly"`
			} `json:"submission"`
		}
		if err := json.Unmarshal(raw, &js); err != nil {
			t.Fatal(err)
		}
		text := renderReport(t, sinks.ReportInput{Result: r, RunPath: run.Dir})
		lo, hi := o.WindowStartSP, o.WindowEndSP
		if lo < 0 || hi < lo {
			t.Fatalf("%s: no window (%d..%d)", name, lo, hi)
		}
		if w := js.Selection.WindowSP; len(w) != 2 || w[0] != lo || w[1] != hi {
			t.Errorf("%s: selection.window_sp %v, rows %d..%d", name, w, lo, hi)
		}
		if w := js.SteadyState.Window; w == nil || js.Warmup+w.SPLo != lo || js.Warmup+w.SPHi-1 != hi {
			t.Errorf("%s: steady_state.window %+v (warmup %d), rows %d..%d", name, w, js.Warmup, lo, hi)
		}
		if sw := js.Submission.Window; sw.Start != nil && (*sw.Start != lo || sw.End == nil || *sw.End != hi) {
			t.Errorf("%s: submission window %v..%v, rows %d..%d", name, *sw.Start, sw.End, lo, hi)
		}
		if s := fmt.Sprintf("super-passes %d..%d", lo, hi); !strings.Contains(text, s) {
			t.Errorf("%s: text lacks %q", name, s)
		}
		cp := o.ChangePointSP
		if !o.AnomalyDetected {
			if js.Selection.Anomaly.ChangePointSP != nil || js.Submission.Anomaly != nil || cp != -1 {
				t.Errorf("%s: a change point without an anomaly", name)
			}
			continue
		}
		if c := js.Selection.Anomaly.ChangePointSP; c == nil || *c != cp {
			t.Errorf("%s: selection change point %v, rows %d", name, c, cp)
		}
		if a := js.Submission.Anomaly; a == nil || a.ChangePoint != cp {
			t.Errorf("%s: submission change point %+v, rows %d", name, a, cp)
		}
		if s := fmt.Sprintf("level shift at super-pass %d", cp); !strings.Contains(text, s) {
			t.Errorf("%s: text lacks %q", name, s)
		}
		if cp > lo && cp <= hi {
			t.Errorf("%s: change point %d inside the window %d..%d", name, cp, lo, hi)
		}
		if name == "conc_staircase_late" && (cp != 27 && cp != 28 || hi >= cp) {
			t.Errorf("%s: change point %d, window %d..%d; want the planted step at 27.3 after the window", name, cp, lo, hi)
		}
	}
}
