package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// The detection mode (issue 29): -detection N generates synth.DetectionSuite
// (seed -seed, N runs a class, at least 10) into WORK/detection, analyses
// every run with each -compat (plus -args, e.g. a peer's --preset) and
// scores the JSON outputs against the suite's planted truth with
// synth.ScoreDetection: found on genuine plateaus, |TPOT p50 error|
// against the true plateau's level, confident-wrong, ≥ 2 % steps flagged,
// false shift alarms on steady runs — overall and per class.

// detectionColumn is one compat's scoring of the detection suite.
type detectionColumn struct {
	compat  string
	all     synth.DetectionScore
	byClass map[string]*synth.DetectionScore
	missing int
}

// runDetection generates (or reuses) the suite, analyses it under each
// compat and scores it.
func runDetection(ctx context.Context, work string, seed uint64, perClass int, compats, extra []string) ([]detectionColumn, error) {
	runs := synth.DetectionSuite(seed, perClass)
	dir := filepath.Join(work, fmt.Sprintf("detection-s%d", seed))
	if err := ensureDetection(dir, runs); err != nil {
		return nil, err
	}
	var cols []detectionColumn
	for _, compat := range compats {
		out := filepath.Join(work, "out", filepath.Base(dir), compat)
		args := append([]string{"--compat", compat}, extra...)
		if err := analyzeCorpus(ctx, *binFlag, filepath.Join(dir, "runs"), out, args, *jobsFlag, os.Stderr); err != nil {
			return nil, err
		}
		col := detectionColumn{compat: compat}
		obs := make([]synth.DetectionObs, len(runs))
		for i, r := range runs {
			o, err := readDetectionObs(filepath.Join(out, r.Name+".json"))
			if err != nil {
				col.missing++
				o = synth.DetectionObs{WindowLo: -1, WindowHi: -1, ChangePointSP: -1, TPOTP50Ns: math.NaN()}
			}
			obs[i] = o
		}
		col.all, col.byClass = synth.ScoreDetection(runs, obs)
		cols = append(cols, col)
	}
	return cols, nil
}

// ensureDetection writes the suite into dir unless a complete one with the
// same run names is there.
func ensureDetection(dir string, runs []synth.DetectionRun) error {
	srs := make([]synth.SuiteRun, len(runs))
	names := make([]string, len(runs))
	for i, r := range runs {
		srs[i], names[i] = r.SuiteRun, r.Name
	}
	stamp := filepath.Join(dir, "suite.json")
	if raw, err := os.ReadFile(stamp); err == nil {
		var have []string
		if json.Unmarshal(raw, &have) == nil && slices.Equal(have, names) {
			return nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "generating %d detection runs into %s\n", len(runs), dir)
	if err := synth.GenerateSuite(dir, srs, true, nil); err != nil {
		return err
	}
	raw, err := json.Marshal(names)
	if err != nil {
		return err
	}
	return os.WriteFile(stamp, raw, 0o644)
}

// readDetectionObs reads what a detector answered from its JSON result:
// steadysweep's certified found (status windowable, not drifting) and
// absolute inclusive window from `selection`, else (a reference-schema
// result) steady_state.found and its post-warmup window shifted by the
// warmup.
func readDetectionObs(path string) (synth.DetectionObs, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return synth.DetectionObs{}, err
	}
	var js struct {
		Warmup      int     `json:"warmup"`
		Status      *string `json:"status"`
		Verdict     *string `json:"verdict"`
		SteadyState struct {
			Found  bool `json:"found"`
			Window *struct {
				SPLo int `json:"sp_lo"`
				SPHi int `json:"sp_hi"`
			} `json:"window"`
			TPOT *struct {
				P50 *float64 `json:"p50"`
			} `json:"tpot"`
			Anomaly *struct {
				Detected      bool     `json:"detected"`
				ChangePointSP *int     `json:"change_point_sp"`
				DeltaPct      *float64 `json:"delta_pct"`
			} `json:"anomaly"`
		} `json:"steady_state"`
		Selection *struct {
			WindowSP []int `json:"window_sp"`
		} `json:"selection"`
	}
	if err := json.Unmarshal(raw, &js); err != nil {
		return synth.DetectionObs{}, fmt.Errorf("%s: %w", path, err)
	}
	ss := js.SteadyState
	o := synth.DetectionObs{Found: ss.Found, WindowLo: -1, WindowHi: -1, ChangePointSP: -1, TPOTP50Ns: math.NaN(),
		DeltaPct: math.NaN()}
	if js.Status != nil { // steadysweep's own: certified only when windowable and not drifting
		v := ""
		if js.Verdict != nil {
			v = *js.Verdict
		}
		o.Found = ss.Found && *js.Status == "windowable" && !strings.HasPrefix(v, "drifting")
	}
	if js.Selection != nil && len(js.Selection.WindowSP) == 2 {
		o.WindowLo, o.WindowHi = js.Selection.WindowSP[0], js.Selection.WindowSP[1]
	} else if w := ss.Window; w != nil {
		o.WindowLo, o.WindowHi = js.Warmup+w.SPLo, js.Warmup+w.SPHi-1
	}
	if ss.TPOT != nil && ss.TPOT.P50 != nil {
		o.TPOTP50Ns = *ss.TPOT.P50
	}
	if a := ss.Anomaly; a != nil && a.Detected {
		o.Anomaly = true
		if a.DeltaPct != nil {
			o.DeltaPct = *a.DeltaPct
		}
		if a.ChangePointSP != nil {
			o.ChangePointSP = js.Warmup + *a.ChangePointSP
		}
	}
	return o, nil
}

// renderDetection is the report section of the detection mode.
func renderDetection(cols []detectionColumn, seed uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Detection suite (issue 29), seed %d\n\n", seed)
	b.WriteString("Targets: found ≥ 0.97 on genuine plateaus, p95 |TPOT p50 error| ≤ 0.6 % against the true plateau's " +
		"level, confident-wrong 0, every ≥ 2 % step flagged, false shift alarms ≤ 1 in 50 steady runs " +
		"(`synth.ScoreDetection`).\n\n")
	for _, c := range cols {
		fmt.Fprintf(&b, "### %s\n\n| class | score |\n|---|---|\n", c.compat)
		for _, cl := range synth.DetectionClasses() {
			if s := c.byClass[cl]; s != nil {
				fmt.Fprintf(&b, "| %s | %s |\n", cl, mdCell(s.Line()))
			}
		}
		fmt.Fprintf(&b, "| **all** | %s |\n\n", mdCell(c.all.Line()))
		if miss := c.all.Gate(); len(miss) > 0 {
			fmt.Fprintf(&b, "Misses: %s.\n\n", strings.Join(miss, "; "))
		} else {
			b.WriteString("Meets every target.\n\n")
		}
		if c.missing > 0 {
			fmt.Fprintf(&b, "%d runs without a readable output (scored as not found).\n\n", c.missing)
		}
	}
	return b.String()
}

// mdCell escapes the pipes of a Markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
