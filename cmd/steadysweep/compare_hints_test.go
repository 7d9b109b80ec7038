package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareSweepHints: two sweeps of the same archive (the reliability
// corpus's good run and one that fails) under different configs share
// no (run, config) pair, and compare says why — pairs match on config_id
// (issue 26: a bare "0 pairs in both"); two sweeps under the same config
// compare pair by pair, and the pairs that cannot be compared (the failed
// run's error rows) are one line per reason, not one per pair (issue 26:
// 998 of 1,003 lines).
func TestCompareSweepHints(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "arch")
	copyRunTo(t, filepath.Join(repoRoot(t), "testdata", "goodrun"), filepath.Join(arch, "good"))
	copyRunTo(t, filepath.Join(repoRoot(t), "testdata", "malformed", "runmeta_negative"), filepath.Join(arch, "bad"))
	root := t.TempDir()
	sweepTo := func(name string, set ...string) string {
		out := filepath.Join(root, name)
		args := append([]string{arch, "-o", out, "--tokenizer", "words", "--no-cache", "-q"}, set...)
		if stderr, err := sweepCLI(t, args...); exitCode(err, new(strings.Builder)) != exitPartial {
			t.Fatalf("sweep %s: %v, want exit 3 (one run fails)\n%s", name, err, stderr)
		}
		return out
	}
	a := sweepTo("a", "--set", "warmup_band=0.03,0.05,0.1")
	b := sweepTo("b", "--set", "warmup_band=0.04")
	out, stderr, err := compareCLI(t, a, b)
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr)
	}
	if !strings.HasPrefix(out, "0 (run, config) pairs in both") ||
		!strings.Contains(out, "hint: pairs match on run_id and config_id; the sweeps share 2 runs but no config_id") {
		t.Errorf("compare of sweeps with no config in common:\n%s", out)
	}

	a2 := sweepTo("a2", "--set", "warmup_band=0.03,0.05,0.1")
	out, stderr, err = compareCLI(t, a, a2)
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr)
	}
	checkWidth(t, out)
	// 6 pairs: 3 of the good run, 3 error rows of the failed one, whose
	// one reason is one line.
	if !strings.HasPrefix(out, "6 (run, config) pairs in both") || strings.Count(out, "cannot compare:") != 1 ||
		!strings.Contains(out, "\n3 pairs cannot compare: ") || strings.Contains(out, "hint:") {
		t.Errorf("compare of two sweeps under the same configs:\n%s", out)
	}
}
