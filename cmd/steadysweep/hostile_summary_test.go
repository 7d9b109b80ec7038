package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSweepNamesSkippedSidecars is issue 30's "a FIFO config.yaml is
// skipped by the sweep without a word (analyze warns)": a run whose
// config.yaml is a FIFO is swept beside a good one; the sweep's final
// summary names the run and the file it skipped, as analyze's warning
// does, and the good run is not named.
func TestSweepNamesSkippedSidecars(t *testing.T) {
	good := filepath.Join(repoRoot(t), "testdata", "goodrun")
	arch := t.TempDir()
	copyRunTo(t, good, filepath.Join(arch, "plain"))
	fifoRun := filepath.Join(arch, "fifo_config")
	copyRunTo(t, good, fifoRun)
	cfg := filepath.Join(fifoRun, "config.yaml")
	os.Remove(cfg)
	if err := syscall.Mkfifo(cfg, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, stderr := mustRun(t, "sweep", arch, "-o", filepath.Join(t.TempDir(), "out"), "--tokenizer", "words", "--no-cache")
	var summary []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "1 run with loader warnings") || strings.HasPrefix(l, "  fifo_config: ") || strings.HasPrefix(l, "  plain: ") {
			summary = append(summary, l)
		}
	}
	if len(summary) != 2 || !strings.HasPrefix(summary[1], "  fifo_config: ") ||
		!strings.Contains(summary[1], cfg+": is a named pipe (FIFO), not a regular file") {
		t.Fatalf("the sweep's summary does not name the skipped config.yaml: %q", stderr)
	}

	// analyze says the same of the run.
	if _, stderr := mustAnalyze(t, fifoRun); !strings.Contains(stderr, cfg+": is a named pipe (FIFO), not a regular file") {
		t.Fatalf("analyze's warning: %q", stderr)
	}
}
