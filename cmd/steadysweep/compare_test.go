package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// scaledRun writes the clean_ramp preset at seed with its service rate
// scaled by rateMult into dir.
func scaledRun(t *testing.T, dir string, seed uint64, rateMult float64) {
	t.Helper()
	presetRun(t, dir, "clean_ramp", seed, func(s *synth.Spec) { s.OutputTokS *= rateMult })
}

func compareCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return tryRun(append([]string{"compare", "--tokenizer", "words", "--no-cache"}, args...)...)
}

// sweepComparison is the part of `compare --json` over two sweep outputs
// the tests read.
type sweepComparison struct {
	A, B map[string]any
	Diff struct {
		Summary map[string]float64
		Pairs   []struct {
			RunRel string `json:"run_rel"`
			Diff   struct {
				Metrics map[string]map[string]any
			}
			A map[string]any
		}
	}
}

func checkWidth(t *testing.T, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

// compare of two runs and of two sweeps of archives holding them: the
// headline first, lines within 100 columns, JSON with keys a, b, diff; the
// sweep pairs carry the same numbers as the runs compared directly.
func TestCompareRunsAndSweeps(t *testing.T) {
	root := t.TempDir()
	archA, archB := filepath.Join(root, "A"), filepath.Join(root, "B")
	scaledRun(t, filepath.Join(archA, "fast"), 1, 1)
	scaledRun(t, filepath.Join(archB, "fast"), 1, 1.1) // 10 % faster server
	scaledRun(t, filepath.Join(archA, "same"), 3, 1)
	scaledRun(t, filepath.Join(archB, "same"), 3, 1) // byte-identical
	scaledRun(t, filepath.Join(archA, "only"), 4, 1)

	jsonPath := filepath.Join(root, "cmp.json")
	out, stderr, err := compareCLI(t, filepath.Join(archA, "fast"), filepath.Join(archB, "fast"), "--json", jsonPath)
	if err != nil {
		t.Fatalf("compare runs: %v\n%s", err, stderr)
	}
	checkWidth(t, out)
	if !strings.HasPrefix(out, "B faster than A beyond noise on ") {
		t.Errorf("headline:\n%s", out)
	}
	var doc struct {
		A, B map[string]any
		Diff struct {
			Outcome string
			Metrics map[string]map[string]any
		}
	}
	if readJSON(t, jsonPath, &doc); doc.A == nil || doc.B == nil {
		t.Fatalf("--json: no A or B:\n%s", mustRead(t, jsonPath))
	}
	tpot := doc.Diff.Metrics["tpot_p50"]
	if doc.Diff.Outcome != "faster" || tpot["significant"] != true || tpot["diff"].(float64) >= 0 {
		t.Errorf("json diff: outcome %s, tpot_p50 %v", doc.Diff.Outcome, tpot)
	}

	sweepA, sweepB := filepath.Join(root, "outA"), filepath.Join(root, "outB")
	for _, s := range [][2]string{{archA, sweepA}, {archB, sweepB}} {
		if stderr, err := sweepCLI(t, s[0], "-o", s[1], "--tokenizer", "words", "--no-cache", "-q", "--preset", "default,reference"); err != nil {
			t.Fatalf("sweep %s: %v\n%s", s[0], err, stderr)
		}
	}
	sjson := filepath.Join(root, "sweeps.json")
	out, stderr, err = compareCLI(t, sweepA, sweepB, "--json", sjson)
	if err != nil {
		t.Fatalf("compare sweeps: %v\n%s", err, stderr)
	}
	checkWidth(t, out)
	if !strings.HasPrefix(out, "4 (run, config) pairs in both: 2 faster, 0 slower, 0 mixed, 2 unchanged, 0 cannot compare") ||
		!strings.Contains(out, "2 pairs only in A, 0 only in B") {
		t.Errorf("sweep comparison:\n%s", out)
	}
	var sdoc sweepComparison
	if readJSON(t, sjson, &sdoc); sdoc.A["path"] != sweepA || sdoc.B["path"] != sweepB {
		t.Fatalf("sweep --json: paths %v, %v\n%.400s", sdoc.A["path"], sdoc.B["path"], mustRead(t, sjson))
	}
	if sdoc.Diff.Summary["faster"] != 2 || sdoc.Diff.Summary["unchanged"] != 2 || sdoc.Diff.Summary["only_a"] != 2 {
		t.Errorf("summary %v", sdoc.Diff.Summary)
	}
	// The default-preset pair of "fast" has the runs' own numbers.
	matched := false
	for _, p := range sdoc.Diff.Pairs {
		if p.RunRel != "fast" || p.A["config"] != "steadysweep" {
			continue
		}
		matched = true
		for _, k := range []string{"tpot_p50", "tps_system", "ttft_p99"} {
			for _, f := range []string{"diff", "ci_lo", "ci_hi"} {
				if p.Diff.Metrics[k][f] != doc.Diff.Metrics[k][f] {
					t.Errorf("%s %s: sweep pair %v, runs %v", k, f, p.Diff.Metrics[k][f], doc.Diff.Metrics[k][f])
				}
			}
		}
	}
	if !matched {
		t.Error("no default-preset pair for run fast")
	}

	if _, _, err := compareCLI(t, sweepA, filepath.Join(archB, "fast")); err == nil || !strings.Contains(err.Error(), "one is a sweep output") {
		t.Errorf("sweep against a run: %v", err)
	}
}
