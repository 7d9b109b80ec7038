package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepExitCodes: a script can tell a sweep's outcome from its exit
// status (issue 26): 0 when no row is an error row, 3 when some runs
// failed and others were analysed, 1 when every row is an error row —
// and under -q the one line on stderr says which. The runs are the
// reliability corpus's good run and two that fail (its negative
// run_meta.json dataset size, and an events.jsonl that is a directory:
// error rows, as their rows read back here show).
func TestSweepExitCodes(t *testing.T) {
	root := repoRoot(t)
	good := filepath.Join(root, "testdata", "goodrun")
	gz := filepath.Join(root, "testdata", "malformed", "runmeta_negative")
	empty := filepath.Join(t.TempDir(), "events_dir")
	if err := os.MkdirAll(filepath.Join(empty, "events.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		runs   []string
		errors int // error rows the sweep must write
		code   int
		stderr string
	}{
		{"none failed", []string{good}, 0, exitOK, ""},
		{"some failed", []string{good, gz}, 1, exitPartial, "steadysweep: 1 of 2 runs failed (their rows have status error) (first: "},
		{"all failed", []string{gz, empty}, 2, exitFailure, "steadysweep: nothing could be analysed: 2 runs failed, every row an error (first: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append(append([]string{"sweep"}, tc.runs...), "-o", out, "--tokenizer", "words", "--no-cache", "-q")
			_, stderr, code := runCLI(t, args...)
			errs := 0
			for _, r := range readSweepRows(t, out) {
				if r.status == "error" {
					errs++
				}
			}
			if errs != tc.errors {
				t.Fatalf("%d error rows, want %d", errs, tc.errors)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			got := stderr
			if tc.stderr == "" && got != "" || !strings.HasPrefix(got, tc.stderr) || strings.Count(got, "\n") > 1 {
				t.Errorf("stderr under -q %q, want one line starting %q", got, tc.stderr)
			}
		})
	}
}
