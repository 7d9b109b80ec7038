package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/sinks"
)

// TestSweepResolvesEachRunOnce: a default sweep (no --tokenizer: each
// run's counter from its model) resolves each run once, however many
// configs it has. Before sweep.LoadRun, cmd's loader resolved a run to
// find its model, then sweep.DefaultLoader resolved it again, each
// parsing every sidecar (issue 27: ~0.6 s a run at 5 M entries of
// sample_idx_map.json). The runs are testdata/goodrun with
// model_params.tokenizer_name: words, so the default path resolves their
// counter (the registry's words) without a tokenizer file; the rows
// assert that it did.
func TestSweepResolvesEachRunOnce(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "arch")
	names := []string{"r1", "r2", "r3"}
	for _, n := range names {
		dir := filepath.Join(arch, n)
		copyRunTo(t, filepath.Join("..", "..", "testdata", "goodrun"), dir)
		cfg := filepath.Join(dir, "config.yaml")
		data, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte("  name: reliability/tiny\n"), []byte("  name: reliability/tiny\n  tokenizer_name: words\n"), 1)
		if err := os.WriteFile(cfg, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var (
		mu       sync.Mutex
		resolved = map[string]int{}
	)
	var f sweepFlags
	f.resolve = func(ctx context.Context, path string) (*columnar.Run, error) {
		mu.Lock()
		resolved[filepath.Base(path)]++
		mu.Unlock()
		return columnar.ResolveRun(ctx, path)
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := runCommand(context.Background(), "sweep", f.flags, []string{arch, "-o", out, "--no-cache", "--preset", "default,reference", "--jobs", "2"}, &stdout, &stderr); err != nil {
		t.Fatalf("sweep: %v\n%s", err, stderr.String())
	}
	for _, n := range names {
		if resolved[n] != 1 {
			t.Errorf("%s resolved %d times, want once", n, resolved[n])
		}
	}
	if len(resolved) != len(names) {
		t.Errorf("resolved %v, want only %v", resolved, names)
	}
	rows := readSweepRows(t, out)
	if len(rows) != 2*len(names) {
		t.Fatalf("%d rows, want %d (3 runs × 2 configs)", len(rows), 2*len(names))
	}
	for _, r := range rows {
		if r.status == "error" || r.reason != "" && strings.Contains(r.reason, "tokenizer") {
			t.Errorf("row %v: the default path did not load the run", r)
		}
	}
	files, err := sinks.PartFiles(filepath.Join(out, "rows"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readParquetRecords(t, files...) {
		if src, _ := r["tokenizer_source"].(string); !strings.Contains(src, "tokenizer_name: words") {
			t.Errorf("%s: tokenizer_source %q, want the run's tokenizer_name: words", r["run_path"], src)
		}
	}
}
