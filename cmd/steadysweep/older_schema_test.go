package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// TestReadersOverOlderSchema: compare and calibrate read a sweep output
// whose part files an older steadysweep wrote (schema version 1, without
// the run metadata, the preset and label, and the series' TPOT means). A
// sweep compared with its own downgraded copy matches every pair with a
// zero difference on each metric version 1 supports; per-user TPS, whose
// interval needs the TPOT means, is "cannot compare" with the reason; and
// calibrate scores the old copy exactly as the new one.
func TestReadersOverOlderSchema(t *testing.T) {
	root := t.TempDir()
	arch, out, old := filepath.Join(root, "arch"), filepath.Join(root, "out"), filepath.Join(root, "old")
	scaledRun(t, filepath.Join(arch, "r1"), 1, 1)
	scaledRun(t, filepath.Join(arch, "r2"), 2, 1.1)
	if stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache", "-q", "--preset", "default,reference"); err != nil {
		t.Fatalf("sweep: %v\n%s", err, stderr)
	}
	copyRunTo(t, out, old)
	sinkstest.Downgrade(t, filepath.Join(old, "rows"), 1)
	sinkstest.Downgrade(t, filepath.Join(old, "series"), 1)
	if sinks.SchemaVersion <= 1 {
		t.Fatal("the rows schema is version 1: nothing is older")
	}

	jsonPath := filepath.Join(root, "cmp.json")
	_, stderr, err := compareCLI(t, out, old, "--json", jsonPath)
	if err != nil {
		t.Fatalf("compare new old: %v\n%s", err, stderr)
	}
	var doc sweepComparison
	readJSON(t, jsonPath, &doc)
	if len(doc.Diff.Pairs) != 4 || doc.Diff.Summary["only_a"] != 0 || doc.Diff.Summary["only_b"] != 0 {
		t.Fatalf("%d pairs, summary %v; want the 2 runs × 2 presets matched", len(doc.Diff.Pairs), doc.Diff.Summary)
	}
	compared := 0
	for _, p := range doc.Diff.Pairs {
		for k, m := range p.Diff.Metrics {
			reason, _ := m["reason"].(string)
			switch {
			case k == "tps_per_user" && m["comparable"] == true:
				t.Errorf("%s %s: comparable against series without tpot_mean_ns: %v", p.RunRel, k, m)
			case k == "tps_per_user" && !strings.Contains(reason, "tpot_mean_ns"):
				t.Errorf("%s %s: reason %q does not name the missing column", p.RunRel, k, reason)
			case k != "tps_per_user" && m["comparable"] == true:
				compared++
				if m["diff"] != 0.0 || m["significant"] != false {
					t.Errorf("%s %s: %v; the same rows read twice", p.RunRel, k, m)
				}
			}
		}
	}
	if compared == 0 {
		t.Error("no metric compared: the check is void")
	}

	scores := func(dir string) string {
		t.Helper()
		report := filepath.Join(root, filepath.Base(dir)+".md")
		mustRun(t, "calibrate", dir, "--report", report, "--plot", "none", "--parquet", "none")
		md, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(md), dir, "OUT")
	}
	newMD, oldMD := scores(out), scores(old)
	// The "could have stopped" totals need the stop columns (schema 4),
	// which the older copy lacks: only the new report has them.
	if i, j := strings.Index(newMD, "\n## Could have stopped"), strings.Index(newMD, "## Definitions"); i >= 0 && j > i {
		newMD = newMD[:i] + newMD[j:]
	} else {
		t.Errorf("the new report has no \"Could have stopped\" section")
	}
	if newMD != oldMD || !strings.Contains(newMD, "steadysweep") {
		t.Errorf("calibrate scores the old copy differently:\n--- new\n%s\n--- old\n%s", newMD, oldMD)
	}
}
