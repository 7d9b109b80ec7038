package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/pflag"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sweep"
)

// demo writes only into a directory it creates or one it made before: a
// new directory gets the corpus, the sweep and the marker; a second demo
// into it replaces demo's outputs and keeps a file someone added; a
// non-empty directory without the marker (given as .., as in the report
// that filed this), a file and a symlink are refused with nothing
// touched; an empty directory is adopted.
func TestDemoOutDirectory(t *testing.T) {
	demo := func(out string) (string, error) {
		stdout, stderr, err := tryRun("demo", "--out", out, "--runs", "8")
		return stdout + stderr, err
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
	readmePath, err := filepath.Abs(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	out := "demo-out" // as make demo names it
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
	readme, err := os.ReadFile(readmePath)
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
	flat := strings.Join(strings.Fields(calib), " ")
	if !strings.Contains(flat, "recommended: steadysweep wb=0.05 md=true") || !strings.Contains(flat, "exactly the default preset") ||
		!strings.Contains(flat, "the min-duration gate on") || !strings.Contains(calib, "  one run: steadysweep analyze RUN\n") {
		t.Errorf("the recommendation is not the defaults with the gate on:\n%s", calib)
	}
	// The README's commands after make demo work pasted as they are, on
	// the demo's output (issue 20's first hour: copy-paste them).
	for _, line := range readmeDemoCommands(t, string(readme)) {
		args, err := shellWords(strings.TrimPrefix(line, "bin/steadysweep "), nil)
		if err != nil {
			t.Fatalf("README: %s: %v", line, err)
		}
		if _, errOut, code := runCLI(t, args...); code != exitOK {
			t.Errorf("README: %s: exit %d: %s", line, code, errOut)
		}
	}
	// The demo's own lines — titles, commands (continued with \), what
	// each step made, the recommendation — fit an 80-column terminal
	// (issue 20: the synth line was 239 columns); the steps' outputs are
	// the commands' own (the report takes a terminal's width).
	own := regexp.MustCompile(`(?m)^(== .*|\$ steadysweep .*|    --.*|plot: .*|recommended: .*|  one run: .*|  archives: .*|  duckdb .*|    FROM .*)$`)
	for _, line := range own.FindAllString(stdout, -1) {
		if n := utf8.RuneCountInString(line); n > demoColumns {
			t.Errorf("demo line of %d columns, over %d: %q", n, demoColumns, line)
		}
	}
}

// analyzeParamsOf is what analyze makes of args (its flags only).
func analyzeParamsOf(t *testing.T, args ...string) core.Params {
	t.Helper()
	var f analyzeFlags
	fs := pflag.NewFlagSet("analyze", pflag.ContinueOnError)
	f.register(fs)
	if _, err := parseFlags(fs, "analyze", args, io.Discard, io.Discard); err != nil {
		t.Fatalf("analyze %q: %v", args, err)
	}
	p, err := f.params()
	if err != nil {
		t.Fatalf("analyze %q: %v", args, err)
	}
	return p
}

// paramsMap is p as calibrate reports a config's parameters.
func paramsMap(p core.Params) map[string]string {
	m := map[string]string{}
	for _, n := range core.Names() {
		m[n], _ = p.Get(n)
	}
	return m
}

// The demo's recommendation names the preset of the config's own compat
// and method and the command lines that run exactly that config: the
// analyze line, parsed by analyze, and the sweep line's preset + --set
// give the recommended parameters back (issue 20: a reference config
// tied with the default preset on differing parameters was written as
// --preset default --set compat=reference, and a parameter without an
// analyze flag was dropped from the analyze line, which then ran another
// config). Where analyze cannot say it, no analyze line is printed.
func TestDemoRecommendationRoundTrip(t *testing.T) {
	mod := func(base core.Params, f func(*core.Params)) core.Params { f(&base); return base }
	cases := []struct {
		name       string
		p          core.Params
		preset     string
		noAnalyzer bool
	}{
		{"defaults", core.DefaultParams(), "default", false},
		{"gate off", mod(core.DefaultParams(), func(p *core.Params) { p.MinDuration = false }), "default", false},
		{"reference", core.ReferenceParams(), "reference", false},
		{"reference band", mod(core.ReferenceParams(), func(p *core.Params) { p.WarmupBand = 0.03 }), "reference", false},
		// one parameter from either preset: compat decides
		{"reference, run's floor", mod(core.ReferenceParams(), func(p *core.Params) { p.MinDurFloorS = 0 }), "reference", false},
		{"default, 600 s floor", mod(core.DefaultParams(), func(p *core.Params) { p.MinDurFloorS = 600 }), "default", false},
		{"fixed warmup", mod(core.DefaultParams(), func(p *core.Params) { p.WarmupMode, p.WarmupFixed = core.WarmupFixed, 3 }), "default", false},
		{"reference, gate off, window sizes", mod(core.ReferenceParams(), func(p *core.Params) {
			p.MinDuration, p.WindowSizes = false, []int{4}
		}), "reference", false},
		{"alpha (--set alone sets it)", mod(core.DefaultParams(), func(p *core.Params) { p.Alpha = 0.1 }), "default", false},
		{"whole-run baseline", mod(core.DefaultParams(), func(p *core.Params) { p.Method = core.MethodTotal }), "total", true},
	}
	for _, c := range cases {
		want := paramsMap(c.p)
		preset, sets := nearestPreset(want)
		if preset != c.preset {
			t.Errorf("%s: preset %s, want %s", c.name, preset, c.preset)
			continue
		}
		// the sweep line: the preset with the --set values
		sp, err := sweep.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sets {
			if err := sp.Set(s[0], s[1]); err != nil {
				t.Fatalf("%s: --set %s=%s: %v", c.name, s[0], s[1], err)
			}
		}
		if got := paramsMap(sp); !maps.Equal(got, want) {
			t.Errorf("%s: the sweep line runs %v, want %v", c.name, got, want)
		}
		args, missing := analyzeArgs(preset, want, sets)
		if (len(missing) > 0) != c.noAnalyzer {
			t.Errorf("%s: analyze args %q, inexpressible %q", c.name, args, missing)
			continue
		}
		if len(missing) == 0 {
			if got := paramsMap(analyzeParamsOf(t, args...)); !maps.Equal(got, want) {
				t.Errorf("%s: analyze %q runs %v, want %v", c.name, args, got, want)
			}
		}
	}
}

// Analyze's flags override the compat's defaults only when given: with
// none, --compat reference is exactly core.ReferenceParams and the default
// exactly core.DefaultParams, though help shows steadysweep's defaults
// (issue 20: every flag was copied over the reference's parameters at
// steadysweep's default values, so a default that moves would have moved
// the reference with it).
func TestAnalyzeFlagsOverrideOnlyWhenGiven(t *testing.T) {
	if got, want := analyzeParamsOf(t), core.DefaultParams(); !bytes.Equal(got.Canonical(), want.Canonical()) {
		t.Errorf("analyze with no flags:\n%s\nwant core.DefaultParams:\n%s", got.Canonical(), want.Canonical())
	}
	if got, want := analyzeParamsOf(t, "--compat", "reference"), core.ReferenceParams(); !bytes.Equal(got.Canonical(), want.Canonical()) {
		t.Errorf("analyze --compat reference:\n%s\nwant core.ReferenceParams:\n%s", got.Canonical(), want.Canonical())
	}
	// help says where the two differ (today only the floor)
	if page, _, _ := runCLI(t, "help", "analyze"); !strings.Contains(page, "--min-duration-floor 600 (not config.yaml's min_duration_ms)") {
		t.Errorf("analyze's help does not say the reference's floor:\n%s", page)
	}
	want := core.ReferenceParams()
	want.WarmupBand, want.MinDuration = 0.03, false
	got := analyzeParamsOf(t, "--compat", "reference", "--warmup-band", "0.03", "--no-min-duration")
	if !bytes.Equal(got.Canonical(), want.Canonical()) {
		t.Errorf("analyze --compat reference --warmup-band 0.03 --no-min-duration:\n%s\nwant:\n%s", got.Canonical(), want.Canonical())
	}
}

// shellLines breaks a command line before a flag, keeping the flag with
// its value, and the pieces join back to shellJoin's one line.
func TestShellLines(t *testing.T) {
	args := []string{"sweep", "corpus", "-o", "out", "--set", "window_sizes=4,6,8;4", "--preset", "default,reference,total"}
	got := shellLines("$ steadysweep", args, 40)
	want := "$ steadysweep sweep corpus -o out \\\n    --set 'window_sizes=4,6,8;4' \\\n    --preset default,reference,total"
	if got != want {
		t.Errorf("shellLines:\n%s\nwant:\n%s", got, want)
	}
	if joined := strings.ReplaceAll(got, " \\\n   ", ""); joined != "$ steadysweep "+shellJoin(args) {
		t.Errorf("joined %q, want %q", joined, "$ steadysweep "+shellJoin(args))
	}
}

// readmeDemoCommands are the command lines of the README's block of
// commands to run by hand after make demo.
func readmeDemoCommands(t *testing.T, readme string) []string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "Then by hand, on the demo's runs")
	_, block, ok2 := strings.Cut(after, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README has no block of commands after make demo")
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		if !strings.HasPrefix(l, "bin/steadysweep ") {
			t.Fatalf("README after make demo: %q is not a bin/steadysweep command", l)
		}
		lines = append(lines, l)
	}
	if len(lines) < 3 {
		t.Fatalf("README after make demo: %d commands", len(lines))
	}
	return lines
}

// TestReadmeDemoCommandsWriteUnderDemoOut: the README's commands to paste
// after make demo write only under demo-out/ (issue 26: its --plot
// staircase.svg left a file in the checkout), and the README's time for
// make demo counts the first build (issue 26: "a few seconds", while a
// cold build takes minutes).
func TestReadmeDemoCommandsWriteUnderDemoOut(t *testing.T) {
	readme := string(mustRead(t, filepath.Join(repoRoot(t), "README.md")))
	outputs := map[string]bool{"--plot": true, "--json": true, "--html": true, "-o": true, "--out": true, "--report": true}
	for _, line := range readmeDemoCommands(t, readme) {
		args, err := shellWords(strings.TrimPrefix(line, "bin/steadysweep "), nil)
		if err != nil {
			t.Fatalf("README: %s: %v", line, err)
		}
		for i, a := range args {
			if outputs[a] && i+1 < len(args) && args[i+1] != "-" && !strings.HasPrefix(args[i+1], "demo-out/") {
				t.Errorf("README: %s: %s %s writes outside demo-out/", line, a, args[i+1])
			}
		}
	}
	claim := regexp.MustCompile("`make demo` \\(([^)]*)\\)").FindStringSubmatch(readme)
	if claim == nil || !strings.Contains(claim[1], "first") || !strings.Contains(claim[1], "minutes") {
		t.Errorf("README's time for make demo %q: want it to count the first build (minutes)", claim)
	}
}
