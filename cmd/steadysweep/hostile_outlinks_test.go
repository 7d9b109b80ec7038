package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepRefusesLinkedOutputs is issue 30's "OUT/rows and OUT/pages
// that are links to other directories receive part files and pages
// outside OUT": a linked rows/ fails the sweep naming it, a linked pages/
// gets no page; neither target receives a file.
func TestSweepRefusesLinkedOutputs(t *testing.T) {
	good := filepath.Join(repoRoot(t), "testdata", "goodrun")
	for _, sub := range []string{"rows", "pages"} {
		t.Run(sub, func(t *testing.T) {
			out, elsewhere := filepath.Join(t.TempDir(), "out"), t.TempDir()
			os.MkdirAll(out, 0o755)
			if err := os.Symlink(elsewhere, filepath.Join(out, sub)); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runCLI(t, "sweep", good, "-o", out, "--tokenizer", "words", "--no-cache", "-q", "--run-pages")
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Fatalf("exit %d; %d file(s) written outside OUT through %s/%s: %s", code, len(entries), out, sub, stderr)
			}
			if !strings.Contains(stderr, filepath.Join(out, sub)+" is a symbolic link") {
				t.Fatalf("exit %d, stderr %q: want the link named", code, stderr)
			}
			if sub == "rows" && code == exitOK {
				t.Fatalf("exit 0 with rows/ refused")
			}
		})
	}
}
