package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// sweepCLI runs `steadysweep sweep` in-process and returns its stderr.
func sweepCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	_, stderr, err := tryRun(append([]string{"sweep"}, args...)...)
	return stderr, err
}

// statuses counts the rows of out by status.
func statuses(t *testing.T, out string) map[string]int {
	n := map[string]int{}
	for _, r := range readSweepRows(t, out) {
		n[r.status]++
	}
	return n
}

// The cluster recipes' call into a fresh output directory: --debug-log
// inside OUT used to fail with "no such file or directory" (the log was
// opened before OUT existed).
func TestSweepDebugLogInFreshOut(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "arch")
	copyRunTo(t, filepath.Join("..", "..", "testdata", "goodrun"), filepath.Join(arch, "r1"))
	out := filepath.Join(t.TempDir(), "fresh", "out")
	log := filepath.Join(out, "debug-7_3.log")
	if stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache", "--debug-log", log); err != nil {
		t.Fatalf("sweep into a fresh OUT with --debug-log in it: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(log); err != nil {
		t.Errorf("debug log: %v", err)
	}
	if n := statuses(t, out); n["error"] != 0 || len(readSweepRows(t, out)) != 1 {
		t.Errorf("rows by status %v, want one good row", n)
	}
}

// --dataset-size is honoured by sweep: a run with neither run_meta.json
// nor sample_idx_map.json fails without it ("could not resolve
// dataset/super-pass size") and is analysed with it.
func TestSweepDatasetSizeFlag(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "arch")
	dir := filepath.Join(arch, "r1")
	copyRunTo(t, filepath.Join("..", "..", "testdata", "goodrun"), dir)
	for _, name := range []string{"run_meta.json", "sample_idx_map.json"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	without := filepath.Join(t.TempDir(), "without")
	// Its one run fails: nothing could be analysed, exit 1.
	if stderr, err := sweepCLI(t, arch, "-o", without, "--tokenizer", "words", "--no-cache"); exitCode(err, io.Discard) != exitFailure {
		t.Fatalf("%v, want exit 1\n%s", err, stderr)
	}
	rows := readSweepRows(t, without)
	if len(rows) != 1 || rows[0].status != "error" || !strings.Contains(rows[0].reason, "could not resolve dataset/super-pass size") {
		t.Fatalf("without --dataset-size: %v; want the unresolved-size error", rows)
	}
	with := filepath.Join(t.TempDir(), "with")
	// The cache is on: its key holds the size, so the entry of another
	// size is not reused.
	cache := t.TempDir()
	for _, out := range []string{filepath.Join(t.TempDir(), "warm"), with} {
		if stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--cache-dir", cache, "--dataset-size", "8"); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
	}
	// The same run with its run_meta.json (dataset_size 8): the same row.
	ref := filepath.Join(t.TempDir(), "ref")
	refArch := filepath.Join(t.TempDir(), "arch")
	copyRunTo(t, filepath.Join("..", "..", "testdata", "goodrun"), filepath.Join(refArch, "r1"))
	if stderr, err := sweepCLI(t, refArch, "-o", ref, "--tokenizer", "words", "--no-cache"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	got, want := readSweepRows(t, with), readSweepRows(t, ref)
	if len(got) != 1 || got[0].status == "error" || got[0].status != want[0].status || got[0].reason != want[0].reason {
		t.Fatalf("with --dataset-size 8: %v; want as with run_meta.json's 8: %v", got, want)
	}
}

// A sweep that failed for a tokenizer it could not load: its summary
// names the failed run and why; --resume --retry-errors=false keeps the
// error rows (the old behaviour); --resume redoes them once the tokenizer
// is there and says how many.
func TestSweepResumeRetriesErrors(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "arch")
	copyRunTo(t, filepath.Join("..", "..", "testdata", "goodrun"), filepath.Join(arch, "r1"))
	copyRunTo(t, filepath.Join("..", "..", "testdata", "goodrun"), filepath.Join(arch, "r2"))
	out := filepath.Join(t.TempDir(), "out")
	missing := filepath.Join(t.TempDir(), "not-yet", "tokenizer.json")
	stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", missing, "--no-cache", "--set", "warmup_band=0.03,0.05")
	if exitCode(err, io.Discard) != exitFailure { // every row an error: exit 1
		t.Fatalf("%v, want exit 1\n%s", err, stderr)
	}
	if n := statuses(t, out); n["error"] != 4 {
		t.Fatalf("first sweep: rows by status %v, want 4 errors", n)
	}
	// Both runs failed alike: one line names them, the reason once.
	if !strings.Contains(stderr, "2 runs failed:\n  2 runs (r1, r2): load: tokenizer: ") || strings.Count(stderr, "load: tokenizer: ") != 1 {
		t.Errorf("the summary does not name the failed runs:\n%s", stderr)
	}

	stderr, err = sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache", "--set", "warmup_band=0.03,0.05", "--resume", "--retry-errors=false")
	if err != nil || !strings.Contains(stderr, "0 analysed, 2 skipped") {
		t.Fatalf("--retry-errors=false: %v\n%s", err, stderr)
	}
	if n := statuses(t, out); n["error"] != 4 {
		t.Fatalf("--retry-errors=false changed the rows: %v", n)
	}

	stderr, err = sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache", "--set", "warmup_band=0.03,0.05", "--resume")
	if err != nil || !strings.Contains(stderr, "resume: redoing 4 error rows") || !strings.Contains(stderr, "2 analysed, 0 skipped") {
		t.Fatalf("--resume: %v\n%s", err, stderr)
	}
	if rows := readSweepRows(t, out); len(rows) != 4 || statuses(t, out)["error"] != 0 {
		t.Fatalf("after the retry: %v; want 4 rows, none an error", rows)
	}
}

// --debug-log appends to a regular file only: a symbolic link at its name
// (to a file outside OUT) and a FIFO are refused with a one-line error,
// the link's target untouched and nothing blocked.
func TestSweepDebugLogRefusesLinksAndFIFOs(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "arch")
	copyRunTo(t, filepath.Join("..", "..", "testdata", "goodrun"), filepath.Join(arch, "r1"))
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("not yours"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "debug.log")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "debug.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, log := range []string{link, fifo} {
		stderr, err := sweepCLI(t, arch, "-o", filepath.Join(t.TempDir(), "out"), "--tokenizer", "words", "--no-cache", "--debug-log", log)
		if err == nil || !strings.Contains(err.Error(), "--debug-log") {
			t.Errorf("--debug-log %s: error %v, want a --debug-log refusal\n%s", log, err, stderr)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "not yours" {
		t.Errorf("the link's target was written (%d bytes)", len(b))
	}
}
