//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Every file steadysweep writes is 0644 under the umask — 0644 under 022,
// 0600 under 077 — so colleagues on a shared archive can read reports,
// JSON, ingest exports and calibrations (issue 20: they were 0600 whatever
// the umask, sweep parts 0644).
func TestOutputFilesModeUnderUmask(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  fs.FileMode
	}{{0o022, 0o644}, {0o077, 0o600}} {
		old := syscall.Umask(tc.umask)
		files := writeEveryOutput(t)
		syscall.Umask(old)
		for _, p := range files {
			fi, err := os.Stat(p)
			if err != nil {
				t.Errorf("umask %03o: %v", tc.umask, err)
				continue
			}
			if got := fi.Mode().Perm(); got != tc.want {
				t.Errorf("umask %03o: %s is %03o, want %03o", tc.umask, filepath.Base(p), got, tc.want)
			}
		}
	}
}

// writeEveryOutput runs analyze (--write-report, --json, --plot, run_meta.json
// added), ingest, synth, sweep and calibrate into fresh directories and
// returns the files they wrote.
func writeEveryOutput(t *testing.T) []string {
	t.Helper()
	dir := copyRun(t, goodRun)
	if err := os.Remove(filepath.Join(dir, "run_meta.json")); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	js, png, pq := filepath.Join(out, "r.json"), filepath.Join(out, "r.png"), filepath.Join(out, "samples.parquet")
	corpus, sweepOut := filepath.Join(out, "corpus"), filepath.Join(out, "sweep")
	for _, args := range [][]string{
		{"analyze", dir, "--tokenizer", "words", "--no-cache", "--dataset-size", "8", "--write-report", "--json", js, "--plot", png},
		{"ingest", dir, "--tokenizer", "words", "--no-cache", "-o", pq},
		{"synth", "--out", corpus, "--runs", "2", "--presets", "clean_ramp", "--seed", "3"},
		{"sweep", corpus, "-o", sweepOut, "--tokenizer", "words", "--no-cache", "-q"},
		{"calibrate", sweepOut},
	} {
		if _, errOut, code := runCLI(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	files := []string{js, png, pq, filepath.Join(dir, "steady_state.json"), filepath.Join(dir, "steady_state.txt"),
		filepath.Join(dir, "run_meta.json"), filepath.Join(sweepOut, "calibration.md"),
		filepath.Join(sweepOut, "calibration.png"), filepath.Join(sweepOut, "calibration.parquet")}
	parts, _ := filepath.Glob(filepath.Join(sweepOut, "rows", "*.parquet"))
	events, _ := filepath.Glob(filepath.Join(corpus, "*", "events.jsonl"))
	if len(parts) == 0 || len(events) != 2 {
		t.Fatalf("sweep parts %v, synth events %v", parts, events)
	}
	return append(append(files, parts...), events...)
}
