package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOnce: the Makefile links VERSION from `git describe --tags
// --always --dirty` and COMMIT from `git rev-parse --short HEAD`; on an
// untagged tree the first is the second, and --version names it once
// (issue 26: "--version prints the commit twice"). The two values are
// the Makefile's own commands run here.
func TestVersionOnce(t *testing.T) {
	describe, err := exec.Command("git", "-C", repoRoot(t), "describe", "--always", "--dirty", "--exclude", "*").Output()
	if err != nil {
		t.Skipf("git describe: %v (not a git checkout)", err)
	}
	short, err := exec.Command("git", "-C", repoRoot(t), "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		t.Skipf("git rev-parse: %v", err)
	}
	v, c := strings.TrimSpace(string(describe)), strings.TrimSpace(string(short))
	if got := versionLine(v, c); strings.Count(got, c) != 1 || !strings.HasPrefix(got, "steadysweep "+v) {
		t.Errorf("versionLine(%q, %q) = %q: want the commit once", v, c, got)
	}
	if got, want := versionLine("v1.2.0", "abc1234"), "steadysweep v1.2.0 (abc1234)\n"; got != want {
		t.Errorf("a tagged version: %q, want %q", got, want)
	}
}

// TestDidYouMean: a mistyped flag or command (issue 26's --tokenzier and
// anaylze: one swap of neighbours each) is answered with the name meant;
// a word near nothing gets no guess.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "x", "--tokenzier", "words"}, "steadysweep: analyze: unknown flag: --tokenzier; did you mean --tokenizer? (steadysweep help analyze)\n"},
		{[]string{"anaylze", "x"}, "steadysweep: unknown command \"anaylze\"; did you mean \"analyze\"? (run 'steadysweep help')\n"},
		{[]string{"sweep", "--preset-list"}, "steadysweep: sweep: unknown flag: --preset-list (steadysweep help sweep)\n"},
		{[]string{"frobnicate"}, "steadysweep: unknown command \"frobnicate\" (run 'steadysweep help')\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := exitCode(run(context.Background(), tc.args, &stdout, &stderr), &stderr); code != exitUsage || stderr.String() != tc.want {
			t.Errorf("%q: exit %d, stderr %q; want 2, %q", tc.args, code, stderr.String(), tc.want)
		}
	}
	if d := editDistance("tokenzier", "tokenizer"); d != 1 {
		t.Errorf("editDistance(tokenzier, tokenizer) = %d, want 1 (one swap)", d)
	}
}

// TestUsageErrorOneLine: a command's own usage error shows its usage line,
// a pointer to the help page and the error — three lines, not the whole
// page above the one that matters (issue 26).
func TestUsageErrorOneLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := exitCode(run(context.Background(), []string{"sweep", filepath.Join(repoRoot(t), "testdata", "goodrun")}, &stdout, &stderr), &stderr)
	want := "usage: steadysweep sweep PATH... -o OUT_DIR [flags]\n(steadysweep help sweep: every flag)\n" +
		"steadysweep: sweep needs at least one PATH and -o OUT_DIR\n"
	if code != exitUsage || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr.String(), want)
	}
}

// TestSweepInterruptSaysResume: an interrupted sweep (here its context
// cancelled before the first run) exits 130 and its one line says how to
// go on: --resume (issue 26: "Ctrl-C does not say --resume").
func TestSweepInterruptSaysResume(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "out")
	err := run(ctx, []string{"sweep", filepath.Join(repoRoot(t), "testdata", "goodrun"), "-o", out, "--tokenizer", "words", "--no-cache", "-q"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != exitInterrupted || !strings.Contains(stderr.String(), "run the same command with --resume to continue") {
		t.Errorf("exit %d, stderr %q; want 130 and a pointer to --resume", code, stderr.String())
	}
}
