package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
)

// issue32Goal is one line of issue 32's "Done when", the key of the
// target row a section adds for it and the section that measures it.
type issue32Goal struct {
	key, name, goal, section string
}

// issue32Goals are issue 32's targets, in the issue's order. The summary
// lists every one of them, measured or not, so a run that skipped a
// section says so instead of dropping the row.
var issue32Goals = []issue32Goal{
	{"i32-cold", "185 MB streamed two-chunk log: cold analyze (cache on, new cache) vs the reference", "≥ 20× wall (2 cores)", "streamed"},
	{"i32-warm", "185 MB streamed two-chunk log: warm analyze (cache hit) vs the reference", "≥ 100× wall", "streamed"},
	{"i32-rss", "185 MB streamed two-chunk log: peak RSS, cold and warm", "≤ the reference's", "streamed"},
	{"i32-version", "`steadysweep --version`", "≤ 10 ms CPU, ≤ 12 MB RSS", "startup"},
	{"i32-warm-small", "warm analyze of a small run", "≤ 30 ms", "startup"},
	{"i32-tokcache", "zero-flag analyze with gpt-oss's tokenizer, second run of a new cache (first run's cost stated)", "≤ 0.25 s", "tokcache"},
	{"i32-long20", "10,000 super-passes of 20 samples", "≤ 2 s wall, ≤ 500 MB RSS", "longrun"},
	{"i32-long1", "10,000 super-passes of one sample", "≤ 5 s wall", "longrun"},
	{"i32-discovery", "discovery of 50,000 directories", "≤ 2× `find DIR -name events.jsonl`", "discovery"},
	{"i32-sweeprows", "per config through a sweep (1001 configs of the default preset minus 1, rows included, 60 super-passes)", "≤ 0.5 ms CPU", "sweeprows"},
}

// addTarget adds t to the summary, replacing an earlier row of the same
// key (two sections may measure one target: the sweep section and the
// sweeprows section both report the per-config sweep cost).
// A row without a name takes its goal's name and goal.
func (e *env) addTarget(t target) {
	for _, g := range issue32Goals {
		if g.key == t.key && t.name == "" {
			t.name, t.goal = g.name, g.goal
		}
	}
	if t.key != "" {
		for i := range e.targets {
			if e.targets[i].key == t.key {
				e.targets[i] = t
				return
			}
		}
	}
	e.targets = append(e.targets, t)
}

// issue32Intro opens the summary.
const issue32Intro = "## Issue 32's targets (summary of this run)\n\n" +
	"Every target of issue 32's \"Done when\", computed from the measurements above (none typed in); " +
	"a speed-up is the reference's median over ours (*medians*) and the reference's fastest run over our median " +
	"(*vs fastest*, the conservative one: the reference's time moves with the host more than ours). " +
	"The long runs' other condition, results identical to the quadratic code on the parity and accuracy runs, " +
	"is a test, not a benchmark: `go test ./core/ -run 'SegmentationOracle|EarliestStopOracle|SplitPointOracle'`."

// issue32Summary is the table of every issue-32 target: the rows the
// sections added, and for a target no section measured, the section to
// run. ran says which sections ran.
func issue32Summary(targets []target, ran map[string]bool, quick bool) string {
	var b strings.Builder
	b.WriteString(issue32Intro)
	fmt.Fprintf(&b, " Load average (1/5/15 min) when it was written: %s, on %d cores.", bench.LoadAvg(), runtime.GOMAXPROCS(0))
	if quick {
		fmt.Fprintf(&b, " **-quick run: the inputs are smaller than the targets' (e.g. 1,000 super-passes, a 18 MB log), so no verdict below is the target's.**")
	}
	fmt.Fprintf(&b, "\n\n| target | goal | measured | ratio | verdict |\n|---|---|---|---|---|\n")
	for _, g := range issue32Goals {
		row := target{measured: "not measured", ratio: "–"}
		found := false
		for _, t := range targets {
			if t.key == g.key {
				row, found = t, true
				break
			}
		}
		if !found {
			if ran[g.section] {
				row.verdict = "not measured (see its section)"
			} else {
				row.verdict = fmt.Sprintf("not measured (`-sections %s` not run)", g.section)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", g.name, g.goal, row.measured, row.ratio, row.verdict)
	}
	b.WriteString("\n")
	return b.String()
}

// speedup is how many times faster ours is than the reference: med is
// the medians' ratio, fastest the reference's fastest run over our median.
type speedup struct{ med, fastest float64 }

func speedupOf(ref, ours []float64) speedup {
	lo, _ := bench.MinMax(ref)
	m := bench.Median(ours)
	return speedup{med: bench.Median(ref) / m, fastest: lo / m}
}

func (s speedup) String() string {
	return fmt.Sprintf("%s (medians), %s vs fastest", fmtTimes(s.med), fmtTimes(s.fastest))
}

// fmtTimes prints a ratio with the digits it needs: 19.7×, 104×.
func fmtTimes(x float64) string {
	if x < 100 {
		return fmt.Sprintf("%.1f×", x)
	}
	return fmt.Sprintf("%.0f×", x)
}

// speedupVerdict judges s against goal (≥ goal×) by the medians and says
// whether it also holds against the reference's fastest run.
func speedupVerdict(s speedup, goal float64) string {
	v := verdict(s.med/goal, 1, "")
	switch {
	case s.fastest >= goal:
		return v + " (also vs fastest)"
	case s.med >= goal:
		return v + " by the medians; vs fastest " + verdict(s.fastest/goal, 1, "")
	}
	return v + "; vs fastest " + verdict(s.fastest/goal, 1, "")
}
