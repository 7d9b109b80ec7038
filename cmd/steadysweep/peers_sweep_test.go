package main

import (
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// peerPresets is the sweep of issue 29: the four peer detectors beside
// the default.
const peerPresets = "aiperf,vllm-bench,sglang,guidellm,default"

// TestSweepPeerPresetsShared runs `steadysweep sweep --preset
// aiperf,vllm-bench,sglang,guidellm,default` over every shared parity run
// (18) and over the real logs of other tools in ../shared/realdata: every
// run found gets one row per preset, each with a status, none "error" (a
// peer that finds no window says so in a windowable row's reason).
func TestSweepPeerPresetsShared(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: sweeps the shared corpora")
	}
	for _, c := range []struct {
		name, dir string
		minRuns   int
	}{
		{"parity", filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs"), 18},
		{"realdata", realDataDir(t), 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			stderr, err := sweepCLI(t, c.dir, "-o", out, "--tokenizer", "words", "--no-cache", "--preset", peerPresets)
			if err != nil {
				t.Fatalf("sweep %s: %v\n%s", c.dir, err, stderr)
			}
			rows := readSweepRows(t, out)
			perRun := map[string]int{}
			for _, r := range rows {
				perRun[r.run]++
				if r.status == "" || r.status == "error" {
					t.Errorf("%s config %s: status %q: %s", r.run, r.config, r.status, r.reason)
				}
			}
			if len(perRun) < c.minRuns {
				t.Errorf("%d runs swept, want at least %d:\n%s", len(perRun), c.minRuns, stderr)
			}
			for run, n := range perRun {
				if n != 5 {
					t.Errorf("%s: %d rows, want one per preset (5)", run, n)
				}
			}
			t.Logf("%d runs × 5 presets", len(perRun))
		})
	}
}
