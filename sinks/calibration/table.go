package calibration

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/sinks"
)

// tableLabelWidth is the widest the config column of Table gets (the
// table then spans 100 columns); it is as wide as the longest label.
const tableLabelWidth = 46

// Table writes a compact per-config table for a terminal: rank, label,
// found rate, verdict agreement, median and p95 TPOT error,
// confident-but-wrong rate, median |window-start error|, error rows; then
// the recommendation, the abbreviations and what each column means. The
// config column is as wide as the longest label, so the table fits 80
// columns while labels are at most 26 runes and 100 at most; the lines
// under it fit 80.
func (r *Report) Table(w io.Writer) error {
	pr := &printer{w: w}
	p := pr.printf
	width := len("config")
	for i := range r.Configs {
		width = max(width, min(utf8.RuneCountInString(r.Configs[i].Label), tableLabelWidth))
	}
	p("%4s  %-*s %6s %6s %7s %7s %6s %5s %4s\n", "rank", width, "config", "found", "agree", "err p50", "err p95", "cbw", "start", "errs")
	for i := range r.Configs {
		c := &r.Configs[i]
		mark := " "
		if c.ConfigID == r.Recommended {
			mark = "*"
		}
		p("%3d%s  %-*s %6s %6s %7s %7s %6s %5s %4d\n", c.Rank, mark, width, clip(c.Label, tableLabelWidth),
			pct0(c.FoundRate), pct0(c.AgreeRate), pct1(c.ErrMedian), pct1(c.ErrP95), pct0(c.ConfidentWrongRate),
			num(c.StartAbsErrMedian, 1), c.Errors)
	}
	if best := r.Config(r.Recommended); best != nil {
		p("recommended (*): %s  [config_id %s]\n", best.Label, best.ConfigID)
		if l := worstLine(best.Worst, best.ErrN); l != "" {
			p("%s\n", l)
		}
	}
	var ab []string
	for _, a := range r.Axes {
		if a != "compat" && a != "method" {
			ab = append(ab, sinks.Abbrev(a)+"="+a)
		}
	}
	if len(ab) > 0 {
		p("axes: %s\n", strings.Join(ab, ", "))
	}
	p("%d runs, %d rows; %d runs without truth.json, %d with unreadable truth,\n  %d with error rows\n",
		r.Runs, r.Rows, len(r.NoTruthRuns), len(r.BadTruth), len(r.ErrorRuns))
	for _, l := range tableLegend() {
		p("%s\n", l)
	}
	pr.add(r.WriteStops(w, false))
	return pr.err()
}

// worstTableRuns is how many of the largest TPOT errors the terminal
// table names (the HTML and Markdown reports list MaxListed).
const worstTableRuns = 3

// worstLine points the recommended config's err p95 at the runs behind
// it: the largest relative TPOT errors, "err p95 from: run 12.3 %
// (preset), …" ("" without a scored error).
func worstLine(worst []RowError, n int) string {
	var parts []string
	for _, e := range worst {
		if len(parts) == worstTableRuns || math.IsNaN(e.Err) {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", sinks.OneLine(filepath.Base(e.RunPath)), errPct(e.Err), e.Preset))
	}
	line := ""
	for k := len(parts); k > 0; k-- { // as many as fit the table's 80 columns
		line = fmt.Sprintf("largest TPOT errors of %d: %s", n, strings.Join(parts[:k], ", "))
		if utf8.RuneCountInString(line) <= 80 {
			break
		}
	}
	return line
}

// tableLegend explains every column of Table, at most 80 columns a line
// (an entry's second line under its text); calibration.md has the full
// definitions.
func tableLegend() []string {
	return []string{
		"columns: found    runs found, of those the planted truth says must be",
		"                  (under the config's gate)",
		"         agree    rows whose status/verdict agrees with the planted truth",
		"         err p50  median |steady TPOT p50 − planted| / planted, over rows",
		"                  with a window; p95 likewise",
		fmt.Sprintf("         cbw      confident but wrong: found rows with TPOT error > %g%%", 100*MaxErr),
		"                  or whose truth has no steady state",
		"         start    median |window start − planted warmup end|, in super-passes",
		"         errs     rows with status error (unreadable runs: never scored)",
		"ranked by cbw ascending, then found descending, err p50 ascending,",
		"  agree descending, fewest changes",
		"n/a: no row to measure it on (e.g. found, when truth expects no run found",
		"  under the gate)",
	}
}

// clip shortens s to n runes, ending in "…" when cut.
func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

func pct0(x float64) string {
	if s := num(100*x, 0); s != "n/a" {
		return s + "%"
	}
	return "n/a"
}

func pct1(x float64) string {
	if s := num(100*x, 1); s != "n/a" {
		return s + "%"
	}
	return "n/a"
}
