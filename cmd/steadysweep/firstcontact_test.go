package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
		if _, stderr, code := runCLI(t, tc.args...); code != exitUsage || stderr != tc.want {
			t.Errorf("%q: exit %d, stderr %q; want 2, %q", tc.args, code, stderr, tc.want)
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
	_, stderr, code := runCLI(t, "sweep", filepath.Join(repoRoot(t), "testdata", "goodrun"))
	want := "usage: steadysweep sweep PATH... -o OUT_DIR [flags]\n(steadysweep help sweep: every flag)\n" +
		"steadysweep: sweep needs at least one PATH and -o OUT_DIR\n"
	if code != exitUsage || stderr != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}

// TestSweepInterruptSaysResume: an interrupted sweep exits 130 and its one
// line says how to go on (issue 26: "Ctrl-C does not say --resume"): here
// its context is cancelled before discovery ends, so nothing was written
// and the line says to run the command again (after the first rows, the
// same line says --resume).
func TestSweepInterruptSaysResume(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "out")
	err := run(ctx, []string{"sweep", filepath.Join(repoRoot(t), "testdata", "goodrun"), "-o", out, "--tokenizer", "words", "--no-cache", "-q"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != exitInterrupted || !strings.Contains(stderr.String(), "run the same command") {
		t.Errorf("exit %d, stderr %q; want 130 and how to go on", code, stderr.String())
	}
}

// TestAnalyzeJSONUnwritableFailsFirst: --json into a directory that does
// not exist is the one line the user sees, naming that path — before any
// report (issue 26: the whole report, then an error naming a temporary
// file).
func TestAnalyzeJSONUnwritableFailsFirst(t *testing.T) {
	target := filepath.Join(t.TempDir(), "nonexistent", "x.json")
	stdout, stderr, code := runCLI(t, "analyze", filepath.Join(repoRoot(t), "testdata", "goodrun"), "--tokenizer", "words", "--no-cache", "--json", target)
	want := "steadysweep: --json: cannot write " + target + ": no such file or directory\n"
	if code != exitFailure || len(stdout) != 0 || stderr != want {
		t.Errorf("exit %d, %d bytes of report, stderr %q; want 1, none, %q", code, len(stdout), stderr, want)
	}
}

// TestAgenticPageWithFailedPlot: an agentic run (synth preset agentic)
// has no super-pass series, so --plot fails — and --html is written all
// the same (issue 26: neither was), with the NATL distribution in its
// Result section: the page's NATL p50 is the --json result's
// distribution.p50 at the text report's one decimal (issue 26: it was
// only in the collapsed raw JSON).
func TestAgenticPageWithFailedPlot(t *testing.T) {
	dir := synthRun(t, "agentic", 1)
	tmp := t.TempDir()
	page, plot, js := filepath.Join(tmp, "run.html"), filepath.Join(tmp, "run.svg"), filepath.Join(tmp, "run.json")
	if _, stderr, code := runCLI(t, "analyze", dir, "--tokenizer", "words", "--no-cache", "--json", js, "--plot", plot, "--html", page); code != exitFailure || !strings.Contains(stderr, "--plot: ") {
		t.Errorf("exit %d, stderr %q; want 1 and the --plot error", code, stderr)
	}
	var res struct{ Distribution struct{ P50 float64 } }
	if readJSON(t, js, &res); res.Distribution.P50 <= 0 {
		t.Fatalf("--json: p50 %v", res.Distribution.P50)
	}
	html := string(mustRead(t, page))
	natl := regexp.MustCompile(`(?s)<section id="headline">.*?</section>`).FindString(html)
	p50 := regexp.MustCompile(`NATL p50 \(tok/s\)</td>\s*<td[^>]*>([^<]*)<`).FindStringSubmatch(natl)
	if p50 == nil || p50[1] != strconv.FormatFloat(res.Distribution.P50, 'f', 1, 64) {
		t.Errorf("the page's Result section: NATL p50 %q, want %.1f from the JSON\n%s", p50, res.Distribution.P50, natl)
	}
}
