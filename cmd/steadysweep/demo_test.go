package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// demo writes only into a directory it creates or one it made before: a
// new directory gets the corpus, the sweep and the marker; a second demo
// into it replaces demo's outputs and keeps a file someone added; a
// non-empty directory without the marker (given as .., as in the report
// that filed this), a file and a symlink are refused with nothing
// touched; an empty directory is adopted.
func TestDemoOutDirectory(t *testing.T) {
	demo := func(out string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"demo", "--out", out, "--runs", "8"}, &stdout, &stderr)
		return stdout.String() + stderr.String(), err
	}
	root := t.TempDir()
	out := filepath.Join(root, "new", "demo")
	if log, err := demo(out); err != nil {
		t.Fatalf("demo into a new directory: %v\n%s", err, log)
	}
	for _, p := range []string{demoMarker, "corpus", "sweep/rows", "sweep/calibration.md"} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("after demo: %v", err)
		}
	}
	rows := readSweepRows(t, filepath.Join(out, "sweep"))
	if len(rows) != 8*12 { // 8 runs × (3 presets × 2 bands × 2 gates)
		t.Errorf("demo sweep: %d rows, want 96", len(rows))
	}
	notes := filepath.Join(out, "my-notes.txt")
	if err := os.WriteFile(notes, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if log, err := demo(out); err != nil {
		t.Fatalf("second demo into its own directory: %v\n%s", err, log)
	}
	if got, err := os.ReadFile(notes); err != nil || string(got) != "mine" {
		t.Errorf("second demo removed a file it did not make: %q, %v", got, err)
	}
	if rows := readSweepRows(t, filepath.Join(out, "sweep")); len(rows) != 96 {
		t.Errorf("second demo: %d rows, want 96 (the first sweep replaced, not resumed)", len(rows))
	}

	// Someone's directory, named through "..": refused, every file kept.
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(filepath.Join(home, "project", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "project", "thesis.tex"), []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := hashTree(t, home)
	link := filepath.Join(root, "link")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, out, want string }{
		{"non-empty directory via ..", filepath.Join(home, "project", "sub") + "/..", "not made by demo"},
		{"a file", filepath.Join(home, "project", "thesis.tex"), "not a directory"},
		{"a symlink to demo's directory", link, "not a directory"},
	} {
		log, err := demo(tc.out)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("%s: demo = %v, want a usage error saying %q\n%s", tc.name, err, tc.want, log)
		}
	}
	if after := hashTree(t, home); !maps.Equal(before, after) {
		t.Errorf("a refused demo changed the directory: before %v after %v", before, after)
	}

	empty := filepath.Join(root, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if log, err := demo(empty); err != nil {
		t.Fatalf("demo into an empty directory: %v\n%s", err, log)
	}
	if _, err := os.Stat(filepath.Join(empty, demoMarker)); err != nil {
		t.Errorf("demo adopted an empty directory without marking it: %v", err)
	}
}

// The demo tells the first hour's story (issue 20: it never showed one
// run analysed, and its table had unexplained headers): one run's report
// and its plot, a sweep on runs long enough for the min-duration gate,
// every column of the calibration explained, and a recommended config
// with the gate on — the defaults, which the planted truth of the demo's
// corpus favours.
func TestDemoStory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo")
	stdout, errOut, code := runCLI(t, "demo", "--out", out)
	if code != exitOK {
		t.Fatalf("demo: exit %d: %s", code, errOut)
	}
	steps := strings.Split(stdout, "\n== ")
	if len(steps) != 5 {
		t.Fatalf("demo has %d steps, want 4:\n%s", len(steps)-1, stdout)
	}
	for i, want := range []string{"$ steadysweep synth ", "$ steadysweep analyze " + filepath.Join(out, "corpus", "0000_long_context_clean_"),
		"$ steadysweep sweep ", "$ steadysweep calibrate "} {
		if !strings.Contains(steps[i+1], want) {
			t.Errorf("step %d lacks %q:\n%s", i+1, want, steps[i+1])
		}
	}
	analyzed := steps[2]
	for _, want := range []string{"steadysweep analyze · 0000_long_context_clean_", "status   windowable", "verdict  STEADY STATE",
		"min-duration floor", "plot: " + filepath.Join(out, "analyze.png")} {
		if !strings.Contains(analyzed, want) {
			t.Errorf("the analysed run lacks %q:\n%s", want, analyzed)
		}
	}
	if png, err := os.ReadFile(filepath.Join(out, "analyze.png")); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("the plot is not a PNG (%v)", err)
	}
	// The corpus clears the gate: under it, runs are found (not n/a).
	rows := readSweepRows(t, filepath.Join(out, "sweep"))
	if len(rows) != 18*12 {
		t.Errorf("%d rows, want 216 (18 runs × 12 configs)", len(rows))
	}
	// The README's demo numbers are this demo's (issue 20: they were stale).
	status := map[string]int{}
	for _, r := range rows {
		status[r.status]++
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d rows: %d windowable, %d insufficient_duration, %d partial_dataset", len(rows),
		status["windowable"], status["insufficient_duration"], status["partial_dataset"])
	if len(status) != 3 || !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), want) {
		t.Errorf("README does not say the demo's numbers %q (rows by status %v)", want, status)
	}
	calib := steps[4]
	for _, h := range []string{"found", "agree", "err p50", "cbw", "start", "errs"} {
		if !strings.Contains(calib, "columns: "+h+" ") && !strings.Contains(calib, "\n         "+h+" ") {
			t.Errorf("calibration column %q is not explained:\n%s", h, calib)
		}
	}
	if !regexp.MustCompile(`\n  1\*  steadysweep wb=0\.05 md=true +100% `).MatchString(calib) {
		t.Errorf("the first-ranked config is not the default with the gate on, all found:\n%s", calib)
	}
	if !strings.Contains(calib, "recommended: steadysweep wb=0.05 md=true") || !strings.Contains(calib, "exactly the default preset") ||
		!strings.Contains(calib, "the min-duration gate on") || !strings.Contains(calib, "  one run: steadysweep analyze RUN\n") {
		t.Errorf("the recommendation is not the defaults with the gate on:\n%s", calib)
	}
}
