package sinks_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

func renderReport(t *testing.T, in sinks.ReportInput) string {
	t.Helper()
	var buf bytes.Buffer
	if err := sinks.WriteReport(&buf, in); err != nil {
		t.Fatalf("WriteReport: %v", err)
	}
	return buf.String()
}

// The report of the parity run conc_clean_ramp shows the window, the TPS
// and the TPOT p50 of the reference's JSON for that run
// (shared/parity/expected/conc_clean_ramp.json), formatted as printed.
func TestReportShowsReferenceValues(t *testing.T) {
	const name = "conc_clean_ramp"
	r, run := analyzeParityRun(t, name)
	dir := run.Dir
	want := readExpected(t, name)
	if !want.SteadyState.Found {
		t.Fatalf("%s.json has no steady state; the test needs a run with one", name)
	}
	got := renderReport(t, sinks.ReportInput{Result: r, RunPath: dir, Derived: []sinks.Derivation{
		{Name: "tokenizer", Value: "words", Source: "--tokenizer"},
	}})
	w, tps := want.SteadyState.Window, want.SteadyState.TPS
	for _, s := range []string{
		// the window in absolute super-passes (warmup + post-relative), end inclusive
		fmt.Sprintf("super-passes %d..%d", want.Warmup+w.SPLo, want.Warmup+w.SPHi-1),
		fmt.Sprintf("(post-warmup %d..%d)", w.SPLo, w.SPHi-1),
		fmt.Sprintf("%d samples", w.NSamples),
		fmt.Sprintf("%.1f", tps.PerUser),
		fmt.Sprintf("[%.1f, %.1f]", tps.PerUserCI[0], tps.PerUserCI[1]),
		fmt.Sprintf("%.1f", tps.System),
		fmt.Sprintf("[%.1f, %.1f]", tps.SystemCI[0], tps.SystemCI[1]),
		fmt.Sprintf("%.2f", want.SteadyState.TPOT.P50/1e6),
		"words", "(--tokenizer)",
	} {
		if !strings.Contains(got, s) {
			t.Errorf("report lacks %q (from %s.json):\n%s", s, name, got)
		}
	}
	// The TPOT p50 sits on the steady TPOT row, not just anywhere.
	tpotRow := regexp.MustCompile(fmt.Sprintf(`TPOT +steady +%s `, regexp.QuoteMeta(fmt.Sprintf("%.2f", want.SteadyState.TPOT.P50/1e6))))
	if !tpotRow.MatchString(got) {
		t.Errorf("report lacks the steady TPOT row %v:\n%s", tpotRow, got)
	}
}

// Every line of the report fits its width (80, the default 100, a wide
// 132), with and without colour, under both compat modes, on parity runs
// of every shape (steady, level shift, too short, Poisson and offline
// caveats, agentic NATL, partial), with a run path and a setting far wider
// than a line: such a word stands whole on a line of its own (cut, it
// could not be copied), and every line's parentheses balance — no line
// breaks inside a parenthesis that fits on one.
func TestReportWidth(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params core.Params
	}{
		{"conc_clean_ramp", core.ReferenceParams()}, {"conc_staircase_late", core.ReferenceParams()},
		{"conc_insufficient_passes", core.ReferenceParams()}, {"poisson_steady", core.ReferenceParams()},
		{"agentic_tools", core.ReferenceParams()}, {"offline_burst", core.DefaultParams()},
		{"conc_clean_ramp", core.DefaultParams()}, {"conc_staircase_late", core.DefaultParams()},
		{"conc_truncated", core.DefaultParams()}, {"conc_partial_dataset", core.DefaultParams()},
		{"agentic_tools", core.DefaultParams()}, {"conc_warmup_overlap_short", core.DefaultParams()},
	} {
		t.Run(tc.name+"/"+string(tc.params.Compat), func(t *testing.T) {
			r, run := analyzeRun(t, tc.name, tc.params)
			dir := run.Dir
			long := dir + strings.Repeat("/very-long-directory-name", 6)
			in := sinks.ReportInput{Result: r, RunPath: long,
				Derived: []sinks.Derivation{
					{Name: "tokenizer", Value: "openai/gpt-oss-120b", Source: "registry: gpt-oss → openai/gpt-oss-120b",
						Detail: long + "/tokenizer.json"},
					{Name: "setting", Value: strings.Repeat("x", 120), Source: "--flag"}}}
			for _, width := range []int{0, 80, 132} {
				for _, color := range []bool{false, true} {
					in.Color, in.Width = color, width
					max := width
					if max == 0 {
						max = 100
					}
					for i, line := range strings.Split(renderReport(t, in), "\n") {
						body := strings.TrimSpace(line)
						if n := visibleWidth(line); n > max && strings.Contains(body, " ") {
							t.Errorf("width %d color=%v line %d is %d columns: %q", width, color, i+1, n, line)
						}
						if strings.Count(body, "(") != strings.Count(body, ")") {
							t.Errorf("width %d line %d breaks inside a parenthesis: %q", width, i+1, line)
						}
					}
				}
			}
		})
	}
}

// Without Color the report holds no escape sequence; with it, the verdict
// is coloured.
func TestReportColor(t *testing.T) {
	r, run := analyzeParityRun(t, "conc_clean_ramp")
	dir := run.Dir
	plain := renderReport(t, sinks.ReportInput{Result: r, RunPath: dir})
	if strings.Contains(plain, "\x1b") {
		t.Errorf("report without Color has an escape sequence:\n%q", plain)
	}
	colored := renderReport(t, sinks.ReportInput{Result: r, RunPath: dir, Color: true})
	if !strings.Contains(colored, "\x1b[1;32mSTEADY STATE\x1b[0m") {
		t.Errorf("report with Color does not colour the verdict green:\n%q", colored)
	}
	if stripped := stripANSI(colored); stripped != plain {
		t.Errorf("report with Color differs from the plain one beyond its escapes")
	}
}

func TestReportNilResult(t *testing.T) {
	if err := sinks.WriteReport(&bytes.Buffer{}, sinks.ReportInput{}); err == nil {
		t.Error("WriteReport without a Result returned no error")
	}
}

// stripANSI removes SGR escape sequences.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\x1b' {
			if j := strings.IndexByte(s[i:], 'm'); j >= 0 {
				i += j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// visibleWidth is the number of terminal columns of a line: its runes
// outside escape sequences.
func visibleWidth(s string) int { return utf8.RuneCountInString(stripANSI(s)) }

// The run's name is its directory's, however the run was given (the
// layouts columnar.ResolveRun accepts).
func TestRunName(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"runs/conc_clean_ramp", "conc_clean_ramp"},
		{"runs/conc_clean_ramp/", "conc_clean_ramp"},
		{"runs/conc_clean_ramp/events.jsonl", "conc_clean_ramp"},
		{"runs/conc_clean_ramp/client/events.jsonl.zst", "conc_clean_ramp"},
		{"runs/conc_clean_ramp/client", "conc_clean_ramp"},
		{"", ""},
	} {
		if got := sinks.RunName(c.path); got != c.want {
			t.Errorf("RunName(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
