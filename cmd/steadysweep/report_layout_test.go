package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// The report on a terminal takes the terminal's width (TIOCGWINSZ), never
// narrower than 80; a file or pipe gets 100 (issue 20: nothing adapted to
// an 80-column terminal).
func TestReportTakesTerminalWidth(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dir := copyRun(t, goodRun)
	file, _ := mustAnalyze(t, dir)
	if w := widest(file); w > 100 || w <= 80 {
		t.Fatalf("report to a buffer is %d columns wide; want 81..100 (a line this test can narrow)", w)
	}
	for _, tc := range []struct{ cols, want int }{{80, 80}, {60, 80}, {132, 132}} {
		master, slave := openPTY(t)
		if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(tc.cols), Row: 40}); err != nil {
			t.Skipf("set the pty's size: %v", err)
		}
		out := drain(master)
		_, err := runTo(slave, "analyze", dir, "--tokenizer", "words", "--no-cache")
		slave.Close()
		if err != nil {
			t.Fatal(err)
		}
		shown := strings.ReplaceAll(string(<-out), "\r\n", "\n")
		if w := widest(shown); w > tc.want || (tc.want > 100 && w <= 100) {
			t.Errorf("%d-column terminal: report %d columns wide, want ≤ %d:\n%s", tc.cols, w, tc.want, shown)
		}
		if !strings.Contains(shown, "detector compat steadysweep") || !strings.Contains(shown, "min duration on") {
			t.Errorf("%d-column terminal: the detector settings are missing:\n%s", tc.cols, shown)
		}
	}
}

// widest is the widest line of s in runes, leaving out lines of one word
// (a path the report keeps whole rather than cut).
func widest(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(strings.TrimSpace(l), " ") {
			w = max(w, utf8.RuneCountInString(l))
		}
	}
	return w
}

// The settings name the tokenizer, how it was chosen and the file it was
// loaded from (issue 20: only a hash), and the min-duration floor with its
// source: config.yaml's min_duration_ms by default (goodrun's is 1000 ms),
// --min-duration-floor when given, the reference's fixed 600 s.
func TestReportSettingsTokenizerAndFloor(t *testing.T) {
	cache := t.TempDir()
	snap := filepath.Join(cache, "models--reliability--tiny", "snapshots", "abc123")
	if err := os.MkdirAll(snap, 0o755); err != nil {
		t.Fatal(err)
	}
	tiny, err := os.ReadFile(filepath.Join("..", "..", "columnar", "tokenizer", "testdata", "tiny", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(snap, "tokenizer.json"), tiny, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HF_HUB_CACHE", cache)
	line := func(report, name string) string {
		for _, l := range strings.Split(report, "\n") {
			if strings.HasPrefix(l, "  "+name+" ") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		t.Errorf("no %q line in\n%s", name, report)
		return ""
	}
	out, errOut, code := runCLI(t, "analyze", goodRun, "--no-cache")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := line(out, "tokenizer"); got != "tokenizer reliability/tiny (model name reliability/tiny)" {
		t.Errorf("tokenizer line %q", got)
	}
	// A path wider than the report is continued on the next lines
	// (issue 26: the report keeps to 100 columns): join them back.
	joined := regexp.MustCompile(`/\n +`).ReplaceAllString(out, "/")
	if !strings.Contains(joined, "\n                      "+filepath.Join(snap, "tokenizer.json")) || !strings.Contains(out, "sha256:") {
		t.Errorf("the snapshot file and identity are not under the tokenizer:\n%s", out)
	}
	if got := line(out, "min-duration floor"); got != "min-duration floor 1.0 s (config.yaml min_duration_ms)" {
		t.Errorf("floor line %q", got)
	}
	out, _, _ = runCLI(t, "analyze", goodRun, "--no-cache", "--tokenizer", "words", "--min-duration-floor", "10m")
	if got := line(out, "min-duration floor"); got != "min-duration floor 600 s (--min-duration-floor)" {
		t.Errorf("with --min-duration-floor 10m: floor line %q", got)
	}
	if !strings.Contains(out, "  600*  ") {
		t.Errorf("the floor is not the plateaus' floor term:\n%s", out)
	}
	p := filepath.Join(t.TempDir(), "ref.json")
	if _, errOut, code := runCLI(t, "analyze", goodRun, "--no-cache", "--tokenizer", "words", "--compat", "reference", "--json", p); code != exitOK {
		t.Fatalf("reference: %s", errOut)
	}
	if js, _ := os.ReadFile(p); !bytes.Contains(js, []byte(`"min_duration_s": 600.0,`)) {
		t.Errorf("the reference does not keep its 600 s floor: %s", js)
	}
}
