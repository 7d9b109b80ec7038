package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// Every command's --help and `help CMD` print that command's page on
// stdout, fitting an 80-column terminal, and exit 0 (issue 20: `help
// analyze` printed the top-level help, `schema --help` exited 2; flag
// usages ran to 230 columns).
func TestHelpEveryCommand(t *testing.T) {
	for _, c := range commands() {
		out, errOut, code := runCLI(t, c.name, "--help")
		if code != exitOK || errOut != "" || !strings.HasPrefix(out, "usage: steadysweep "+c.name) {
			t.Errorf("%s --help: exit %d, stderr %q, stdout %.60q", c.name, code, errOut, out)
		}
		if strings.Contains(out, "{{") {
			t.Errorf("%s --help: unfilled placeholder in %q", c.name, out)
		}
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > helpColumns {
				t.Errorf("%s --help: line %d is %d columns, over %d: %q", c.name, i+1, n, helpColumns, line)
			}
		}
		viaHelp, _, code := runCLI(t, "help", c.name)
		if code != exitOK || viaHelp != out {
			t.Errorf("help %s: exit %d, page differs from %s --help", c.name, code, c.name)
		}
	}
	if out, _, _ := runCLI(t, "help"); len(out) == 0 {
		t.Error("help: empty")
	} else {
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > helpColumns {
				t.Errorf("help: line %d is %d columns, over %d: %q", i+1, n, helpColumns, line)
			}
		}
	}
	if _, errOut, code := runCLI(t, "help", "nope"); code != exitUsage || !strings.Contains(errOut, `unknown command "nope"`) {
		t.Errorf("help nope: exit %d, stderr %q", code, errOut)
	}
	if out, _, code := runCLI(t, "--version"); code != exitOK || !strings.HasPrefix(out, "steadysweep ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// A bad value is reported by the flag the user typed, on one line
// (issue 20: `--warmup -3` said "warmup_fixed: must be ≥ 0", `--profile
// weird` offered "" as a valid profile).
func TestErrorsNameTheFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--warmup", "-3"}, "steadysweep: --warmup: must be ≥ 0, got -3\n"},
		{[]string{"--profile", "weird", "--warmup-band", "-1"},
			`steadysweep: --profile: "weird" is not one of "concurrency", "poisson", "offline", "agentic", "unknown"; --warmup-band: must be ≥ 0, got -1` + "\n"},
		{[]string{"--superpass-size", "-2"}, "steadysweep: --superpass-size: must be ≥ 0 (0 = dataset size), got -2\n"},
		{[]string{"--min-duration-floor", "soon"}, `steadysweep: --min-duration-floor: "soon" is not a positive number`},
		{[]string{"--bogus"}, "steadysweep: analyze: unknown flag: --bogus (steadysweep help analyze)\n"},
	} {
		args := append([]string{"analyze", goodRun, "--tokenizer", "words", "--no-cache"}, tc.args...)
		out, errOut, code := runCLI(t, args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// A model without a local tokenizer is one line with "tokenizer: " once,
// naming the id, the registry or model name that chose it, where it
// looked and the fix (issue 20: five lines, the prefix doubled).
func TestTokenizerErrorOneLine(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	t.Setenv("HF_HOME", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	_, errOut, code := runCLI(t, "analyze", goodRun, "--no-cache")
	want := "steadysweep: tokenizer: no local tokenizer for reliability/tiny (model name reliability/tiny; nothing is downloaded); looked in "
	if code != exitUsage || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 ||
		strings.Count(errOut, "tokenizer: ") != 1 || !strings.Contains(errOut, filepath.Join(cache, "models--reliability--tiny")) ||
		!strings.Contains(errOut, "fix: download it") {
		t.Errorf("exit %d, stderr:\n%s\nwant one line starting %q", code, errOut, want)
	}
}

// exitCode prints any error on one line: joined errors and multi-line
// messages are folded with "; ".
func TestExitCodeOneLine(t *testing.T) {
	var b bytes.Buffer
	err := errors.Join(errors.New("first"), fmt.Errorf("second:\n  detail"))
	if code := exitCode(err, &b); code != exitFailure || b.String() != "steadysweep: first; second:; detail\n" {
		t.Errorf("exit %d, %q", code, b.String())
	}
}

// "-" is standard output for every file output, which then carries that
// output alone (issue 20: `--json -` wrote a file named "-").
func TestDashIsStdout(t *testing.T) {
	goodRun, err := filepath.Abs(goodRun)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	base := []string{"analyze", goodRun, "--tokenizer", "words", "--no-cache"}
	out, errOut, code := runCLI(t, append(base, "--json", "-")...)
	var js map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &js) != nil || js["status"] == nil {
		t.Errorf("--json -: exit %d, stdout is not the JSON alone: %.80q (stderr %q)", code, out, errOut)
	}
	if strings.Contains(errOut, "wrote -") {
		t.Errorf("--json -: stderr says %q", errOut)
	}
	out, _, code = runCLI(t, append(base, "--plot", "-")...)
	if code != exitOK || !strings.HasPrefix(out, "\x89PNG\r\n") {
		t.Errorf("--plot -: exit %d, stdout %.16q, want a PNG", code, out)
	}
	if _, errOut, code := runCLI(t, append(base, "--plot", "-", "--json", "-")...); code != exitUsage ||
		!strings.Contains(errOut, "only one output can be -") {
		t.Errorf("two outputs on stdout: exit %d, %q", code, errOut)
	}
	out, _, code = runCLI(t, "ingest", goodRun, "--tokenizer", "words", "--no-cache", "-o", "-")
	if code != exitOK || !strings.HasPrefix(out, "PAR1") || !strings.HasSuffix(out, "PAR1") {
		t.Errorf("ingest -o -: exit %d, stdout is not one Parquet file (%d bytes)", code, len(out))
	}
	if _, err := os.Lstat("-"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file named - was created (%v)", err)
	}
}

// --plot writes PNG or SVG by the extension and refuses any other rather
// than a PNG under a misleading name (issue 20: x.jpg held a PNG).
func TestPlotFormatByExtension(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, magic string
		code        int
	}{{"p.png", "\x89PNG\r\n", exitOK}, {"p.SVG", "<?xml", exitOK}, {"p.jpg", "", exitUsage}, {"p", "", exitUsage}} {
		path := filepath.Join(dir, tc.name)
		_, errOut, code := runCLI(t, "analyze", goodRun, "--tokenizer", "words", "--no-cache", "--plot", path)
		data, err := os.ReadFile(path)
		switch {
		case code != tc.code:
			t.Errorf("%s: exit %d, want %d (%s)", tc.name, code, tc.code, errOut)
		case tc.magic == "" && !errors.Is(err, os.ErrNotExist):
			t.Errorf("%s: refused but a file was written (%v)", tc.name, err)
		case tc.magic == "" && !strings.Contains(errOut, ".png or .svg"):
			t.Errorf("%s: error %q does not name the formats", tc.name, errOut)
		case tc.magic != "" && !bytes.HasPrefix(data, []byte(tc.magic)):
			t.Errorf("%s: starts %.16q, want %q", tc.name, data, tc.magic)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "p.SVG")); !bytes.Contains(data, []byte("<svg")) ||
		!bytes.Contains(data, []byte("TPOT (ms)")) {
		t.Error("the SVG is not the plot (no <svg> element or TPOT axis label)")
	}
}

// Every --set example with a list parameter's ";" is quoted in the README
// and the help pages: unquoted, ";" ends the shell command (issue 20:
// the README's --set window_sizes=4,6,8;4).
func TestSetExamplesQuoted(t *testing.T) {
	docs, _ := filepath.Glob(filepath.Join("help", "*.txt"))
	docs = append(docs, filepath.Join("..", "..", "README.md"))
	unquoted := regexp.MustCompile(`--set [^'"\s]*;`)
	for _, p := range docs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := unquoted.Find(data); m != nil {
			t.Errorf("%s: unquoted %q", p, m)
		}
	}
	if out, errOut, err := tryRun("help", "sweep"); err != nil || !strings.Contains(out+errOut, "--set 'window_sizes=4,6,8;4'") {
		t.Errorf("sweep's help has no quoted list example: %v\n%s%s", err, out, errOut)
	}
}
