package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/calibration"
	"github.com/steadysweep/steadysweep/sweep"
)

// TestCalibrateRealSweep sweeps a small synthetic corpus with the real
// loader and detector and calibrates it: the rows as sweep writes them
// (dictionary columns, null windows), a run without truth, and a run whose
// events file is unreadable (error rows).
func TestCalibrateRealSweep(t *testing.T) {
	root := t.TempDir()
	presets := []string{"clean_ramp", "drift_up", "partial_dataset", "ramp_only"}
	paths, err := synth.GenerateCorpus(root, len(presets), 1, presets)
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the clean run without truth.json, and a run whose
	// events.jsonl is a directory (truth present: its error rows are
	// still not scored).
	noTruth := filepath.Join(root, "x_no_truth")
	if err := os.CopyFS(noTruth, os.DirFS(paths[0])); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(noTruth, truthFile)); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(root, "y_broken")
	if err := os.MkdirAll(filepath.Join(broken, "events.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(paths[0], truthFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, truthFile), data, 0o644); err != nil {
		t.Fatal(err)
	}

	refs, errs := corpora.Discover([]string{root}, nil, nil)
	if len(errs) > 0 || len(refs) != 6 {
		t.Fatalf("discover: %d runs, %v", len(refs), errs)
	}
	out := t.TempDir()
	ours := core.DefaultParams()
	ours.MinDuration = false
	if _, err := sweep.Run(context.Background(), sweep.Options{Runs: refs, Configs: []core.Params{ours, core.ReferenceParams()},
		Out: out, Load: sweep.DefaultLoader(sweep.LoaderOptions{Counter: tokenizer.Words{}}), Analyze: sweep.DefaultAnalyzer}); err != nil {
		t.Fatal(err)
	}
	r, err := Calibrate(context.Background(), Options{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows != 12 || r.Runs != 6 || len(r.Configs) != 2 {
		t.Fatalf("rows %d runs %d configs %d, want 12 6 2", r.Rows, r.Runs, len(r.Configs))
	}
	if len(r.NoTruthRuns) != 1 || r.NoTruthRuns[0] != noTruth {
		t.Errorf("no-truth runs %v, want [%s]", r.NoTruthRuns, noTruth)
	}
	if len(r.ErrorRuns) != 1 || r.ErrorRuns[0].RunPath != broken || r.ErrorRuns[0].Configs != 2 {
		t.Errorf("error runs %+v, want %s under both configs", r.ErrorRuns, broken)
	}
	for i := range r.Configs {
		c := &r.Configs[i]
		n := c.Other
		for _, row := range c.Confusion {
			for _, v := range row {
				n += v
			}
		}
		if c.Rows != 6 || c.Errors != 1 || c.NoTruth != 1 || c.Scored != 4 || n != 4 {
			t.Errorf("%s: rows %d errors %d no-truth %d scored %d confusion total %d, want 6 1 1 4 4",
				c.Label, c.Rows, c.Errors, c.NoTruth, c.Scored, n)
		}
		// Planted truth: clean_ramp is the only run with a plateau.
		if c.PlateauRuns != 1 || c.ConfusionCount("partial_dataset", "partial_dataset")+c.ConfusionCount("partial_dataset", "not_found") != 1 {
			t.Errorf("%s: plateau runs %d, confusion %v", c.Label, c.PlateauRuns, c.Confusion)
		}
	}
	// steadysweep without the gate finds the planted plateau of
	// clean_ramp within 5 % of its planted TPOT and labels the partial
	// dataset as such.
	c := r.Config(sinks.ConfigID(ours))
	if c.FoundEligible != 1 || c.Eligible != 1 || c.ConfusionCount("steady", "steady") != 1 ||
		c.ConfusionCount("partial_dataset", "partial_dataset") != 1 {
		t.Errorf("%s: found %d of %d eligible; confusion %v", c.Label, c.FoundEligible, c.Eligible, c.Confusion)
	}
	i := slices.IndexFunc(c.Worst, func(e calibration.RowError) bool { return strings.Contains(e.RunPath, "clean_ramp") })
	if i >= 0 {
		t.Logf("clean_ramp: %+v", c.Worst[i])
	}
	if i < 0 || !(c.Worst[i].Err <= calibration.MaxErr) {
		t.Errorf("%s: clean_ramp TPOT error %+v, want ≤ %v", c.Label, c.Worst, calibration.MaxErr)
	}
}

// TestCalibratePeersHeadToHead sweeps synth clean_ramp (a plateau after a
// ramp), late_staircase (a plateau, then a planted +20 % TPOT step) and
// drift_up (no plateau: TPOT drifts up) under the four peer presets and
// the default, and checks the head-to-head table: every preset is named;
// each config's class cells add up to its totals; the default reports
// the planted step of late_staircase as a level shift and drift_up as a
// drift, the peers (which detect no level shift) report no shift.
func TestCalibratePeersHeadToHead(t *testing.T) {
	root := t.TempDir()
	presets := []string{"clean_ramp", "late_staircase", "drift_up"}
	if _, err := synth.GenerateCorpus(root, len(presets), 1, presets); err != nil {
		t.Fatal(err)
	}
	refs, errs := corpora.Discover([]string{root}, nil, nil)
	if len(errs) > 0 || len(refs) != 3 {
		t.Fatalf("discover: %d runs, %v", len(refs), errs)
	}
	names := []string{"aiperf", "vllm-bench", "sglang", "guidellm", "default", "reference"}
	cs, err := sweep.Grid{}.Configs([]string{strings.Join(names, ",")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := sweep.Run(context.Background(), sweep.Options{Runs: refs, Configs: cs, Out: out,
		Load: sweep.DefaultLoader(sweep.LoaderOptions{Counter: tokenizer.Words{}}), Analyze: sweep.DefaultAnalyzer}); err != nil {
		t.Fatal(err)
	}
	r, err := Calibrate(context.Background(), Options{Out: out, PlotPath: "-", ParquetPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, ok := r.Presets[n]; !ok {
			t.Errorf("preset %s not named (presets %v)", n, r.Presets)
		}
	}
	if got := r.Classes(); !slices.Equal(got, []string{"clean_ramp", "drift_up", "late_staircase"}) {
		t.Errorf("classes %v", got)
	}
	for i := range r.Configs {
		c := &r.Configs[i]
		var runs, found, wrong, errN int
		for _, k := range c.ByClass {
			runs, found, wrong, errN = runs+k.Runs, found+k.Found, wrong+k.ConfidentWrong, errN+k.ErrN
		}
		if runs != c.Scored || found != c.Found || wrong != c.ConfidentWrong || errN != c.ErrN {
			t.Errorf("%s: classes add to runs %d found %d wrong %d err %d, totals %d %d %d %d",
				r.DetectorName(c), runs, found, wrong, errN, c.Scored, c.Found, c.ConfidentWrong, c.ErrN)
		}
		name := r.DetectorName(c)
		shifts := c.ByClass["late_staircase"].Shifts
		switch {
		case name == "default" && (shifts != 1 || c.ByClass["drift_up"].Drifts != 1):
			t.Errorf("default: late_staircase shifts %d, drift_up drifts %d, want 1 and 1", shifts, c.ByClass["drift_up"].Drifts)
		case slices.Contains(core.PeerMethods(), core.Method(name)) && shifts != 0:
			t.Errorf("%s: %d level shifts; a peer detects none", name, shifts)
		}
		if k := c.ByClass["clean_ramp"]; name == "vllm-bench" && k.FoundPlateau != 1 {
			t.Errorf("vllm-bench misses clean_ramp's plateau (the loader's concurrency?): %+v", k)
		}
	}
	var md strings.Builder
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Head-to-head by truth class", "| late_staircase | aiperf | 1 |", "| drift_up | default | 1 | — (0 found) |", "| clean_ramp | reference | 1 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	var page strings.Builder
	if err := r.WriteHTML(&page); err != nil || !strings.Contains(page.String(), "Head-to-head by truth class") {
		t.Errorf("HTML page: %v, head-to-head section present: %v", err, strings.Contains(page.String(), "Head-to-head"))
	}
}
