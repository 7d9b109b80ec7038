package main

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Targets of issue 15's "Done when" (tighter than judge.py's gates).
const (
	targetFound  = 0.95
	targetMedian = 0.0025
	targetP95    = 0.01
	// shortTailSP is the longest tail after the last planted step that
	// counts as a short tail (the 2–3-super-pass tails of the issue).
	shortTailSP = 3.05
)

// column is one corpus × compat scoring.
type column struct {
	corpus, compat string
	gate           string // judge.py's one-line summary
	score          score
	rows           []judgeRow
}

// score holds judge.py's metrics over a set of rows (its definitions:
// median = mean of the two middle values, p95 = nearest rank
// sorted[⌈0.95·n⌉−1], p90 likewise (shown, not gated), an infinite error for a found run without a usable
// window or p50).
type score struct {
	gen, found          int
	absErr              []float64 // sorted; +Inf included
	signed              []float64 // finite only
	non, cw             int
	nDrift, cwDrift     int
	nRamp, cwRamp       int
	stair, anom         int
	falseAnom, nNoShift int // anomaly flagged on a run without a planted step
	falseAnomNames      []string
	short, shortAnom    int
	missing             int
	missed, cwNames     []string
	anomMissed, noOut   []string
	median, p90, p95    float64
	maxErr              float64
	signedMedian        float64
}

func scoreRows(rows []judgeRow) score {
	s := score{median: math.Inf(1), p90: math.Inf(1), p95: math.Inf(1), maxErr: math.Inf(1), signedMedian: math.NaN()}
	for _, r := range rows {
		if !r.HasShift {
			s.nNoShift++
			if r.Anomaly {
				s.falseAnom++
				s.falseAnomNames = append(s.falseAnomNames, r.Name)
			}
		}
		if !r.Out {
			s.missing++
			s.noOut = append(s.noOut, r.Name)
		}
		if r.HasSteady {
			s.gen++
			if r.Found {
				s.found++
				switch {
				case r.ErrInf || r.Err == nil:
					s.absErr = append(s.absErr, math.Inf(1))
				default:
					s.absErr = append(s.absErr, math.Abs(*r.Err))
					s.signed = append(s.signed, *r.Err)
				}
			} else {
				s.missed = append(s.missed, r.Name)
			}
			if r.HasShift {
				s.stair++
				short := r.TailSP != nil && *r.TailSP <= shortTailSP
				if short {
					s.short++
				}
				if r.Anomaly {
					s.anom++
					if short {
						s.shortAnom++
					}
				} else {
					s.anomMissed = append(s.anomMissed, r.Name)
				}
			}
			continue
		}
		s.non++
		drift, ramp := r.Category == "drift", r.Category == "ramp_only"
		if drift {
			s.nDrift++
		}
		if ramp {
			s.nRamp++
		}
		if r.Found {
			s.cw++
			s.cwNames = append(s.cwNames, r.Name)
			if drift {
				s.cwDrift++
			}
			if ramp {
				s.cwRamp++
			}
		}
	}
	sort.Float64s(s.absErr)
	if len(s.absErr) > 0 {
		s.median = stats.Median(s.absErr) // Python's statistics.median
		s.p90 = nearestRank(s.absErr, 0.90)
		s.p95 = nearestRank(s.absErr, 0.95)
		s.maxErr = s.absErr[len(s.absErr)-1]
	}
	if len(s.signed) > 0 {
		s.signedMedian = stats.Median(s.signed)
	}
	return s
}

// nearestRank is judge.py's p95: sorted[max(0, ⌈q·n⌉ − 1)].
func nearestRank(sorted []float64, q float64) float64 {
	return sorted[max(0, int(math.Ceil(q*float64(len(sorted))))-1)]
}

func (s score) foundRate() float64 {
	if s.gen == 0 {
		return math.NaN()
	}
	return float64(s.found) / float64(s.gen)
}

// doneWhen reports whether the column meets issue 15's targets.
func (s score) doneWhen() bool {
	return s.foundRate() >= targetFound && s.median <= targetMedian && s.p95 <= targetP95 &&
		s.cw == 0 && s.anom == s.stair && s.falseAnom == 0 && s.missing == 0
}

func pct(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.IsInf(x, 1):
		return "inf"
	}
	return fmt.Sprintf("%.2f %%", 100*x)
}

func signedPct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%+.2f %%", 100*x)
}

func frac(a, b int) string {
	if b == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d", a, b)
}

type reportMeta struct {
	label, args, bin string
	seed             uint64
}

// renderReport is the Markdown report: the metrics side by side, judge.py's
// gate lines, the failing runs and the suite's classes.
func renderReport(cols []column, meta reportMeta) string {
	var b strings.Builder
	title := "Detection accuracy"
	if meta.label != "" {
		title += ": " + meta.label
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "`go run ./bench/cmd/accuracy -bin %s -seed %d", meta.bin, meta.seed)
	if meta.args != "" {
		fmt.Fprintf(&b, " -args %q", meta.args)
	}
	b.WriteString("`: every run analysed with `steadysweep analyze RUN --tokenizer words --no-cache --json OUT --compat C`, " +
		"scored by `shared/accuracy/judge.py` (its gate line and its judge_run rows). " +
		"shared = `../shared/accuracy` (41 runs); suite = `synth.AccuracySuite` (judge-format truth).\n\n")
	b.WriteString("| metric | target |")
	for _, c := range cols {
		fmt.Fprintf(&b, " %s · %s |", c.corpus, c.compat)
	}
	b.WriteString("\n|---|---|")
	for range cols {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	line := func(name, target string, cell func(s score) string) {
		fmt.Fprintf(&b, "| %s | %s |", name, target)
		for _, c := range cols {
			fmt.Fprintf(&b, " %s |", cell(c.score))
		}
		b.WriteString("\n")
	}
	line("found on genuine plateaus", "≥ 0.95", func(s score) string {
		return fmt.Sprintf("%s = %.3f", frac(s.found, s.gen), s.foundRate())
	})
	line("\\|TPOT p50 error\\| median", "≤ 0.25 %", func(s score) string { return pct(s.median) })
	line("\\|TPOT p50 error\\| p90", "", func(s score) string { return pct(s.p90) })
	line("\\|TPOT p50 error\\| p95", "≤ 1 %", func(s score) string { return pct(s.p95) })
	line("\\|TPOT p50 error\\| max", "", func(s score) string { return pct(s.maxErr) })
	line("signed median error", "", func(s score) string { return signedPct(s.signedMedian) })
	line("confident-wrong", "0", func(s score) string {
		return fmt.Sprintf("%s (drift %s, ramp-only %s)", frac(s.cw, s.non), frac(s.cwDrift, s.nDrift), frac(s.cwRamp, s.nRamp))
	})
	line("staircase anomaly detected", "all", func(s score) string { return frac(s.anom, s.stair) })
	line("… of them short tails (≤ 3 sp)", "all", func(s score) string { return frac(s.shortAnom, s.short) })
	line("anomaly on runs without a step", "0", func(s score) string { return frac(s.falseAnom, s.nNoShift) })
	line("runs without output", "0", func(s score) string { return fmt.Sprint(s.missing) })
	fmt.Fprintf(&b, "| judge.py gates | PASS |")
	for _, c := range cols {
		fmt.Fprintf(&b, " %s |", gateVerdict(c.gate))
	}
	b.WriteString("\n")
	line("issue 15 Done-when", "met", func(s score) string {
		if s.doneWhen() {
			return "**met**"
		}
		return "not met"
	})
	b.WriteString("\njudge.py gate lines:\n\n```\n")
	for _, c := range cols {
		fmt.Fprintf(&b, "%-7s %-11s %s\n", c.corpus, c.compat, c.gate)
	}
	b.WriteString("```\n\nFailing runs:\n\n")
	for _, c := range cols {
		s := c.score
		var parts []string
		if len(s.missed) > 0 {
			parts = append(parts, "missed "+strings.Join(s.missed, ", "))
		}
		if len(s.cwNames) > 0 {
			parts = append(parts, "confident-wrong "+strings.Join(s.cwNames, ", "))
		}
		if len(s.anomMissed) > 0 {
			parts = append(parts, "anomaly missed "+strings.Join(s.anomMissed, ", "))
		}
		if len(s.falseAnomNames) > 0 {
			parts = append(parts, "anomaly without a step "+strings.Join(s.falseAnomNames, ", "))
		}
		if len(s.noOut) > 0 {
			parts = append(parts, "no output "+strings.Join(s.noOut, ", "))
		}
		if len(parts) == 0 {
			parts = []string{"none"}
		}
		fmt.Fprintf(&b, "- %s · %s: %s\n", c.corpus, c.compat, strings.Join(parts, "; "))
	}
	renderClasses(&b, cols)
	return b.String()
}

// gateVerdict is the PASS or FAIL that ends judge.py's summary line.
func gateVerdict(gate string) string {
	if i := strings.LastIndex(gate, "-> "); i >= 0 {
		return gate[i+3:]
	}
	return "?"
}

var classSuffix = regexp.MustCompile(`_[cq][0-9.]+_n[0-9]+$`)

// classOf is a suite run's class: its name without the NNN_ index and the
// _cC_nN (_qQPS_nN) sizes.
func classOf(name string) string {
	if i := strings.IndexByte(name, '_'); i > 0 {
		name = name[i+1:]
	}
	return classSuffix.ReplaceAllString(name, "")
}

// renderClasses is the per-class table of the suite columns: found and
// median |error| on genuine plateaus, anomalies on staircases,
// confident-wrong on runs without a steady region.
func renderClasses(b *strings.Builder, cols []column) {
	var suite []column
	for _, c := range cols {
		if c.corpus == "suite" {
			suite = append(suite, c)
		}
	}
	if len(suite) == 0 {
		return
	}
	var classes []string
	for _, r := range suite[0].rows {
		if cl := classOf(r.Name); !slices.Contains(classes, cl) {
			classes = append(classes, cl)
		}
	}
	b.WriteString("\nSuite classes (found · median |error| · anomaly on steady classes; confident-wrong on the others):\n\n| class | runs |")
	for _, c := range suite {
		fmt.Fprintf(b, " %s |", c.compat)
	}
	b.WriteString("\n|---|---:|")
	for range suite {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, cl := range classes {
		n := 0
		for _, r := range suite[0].rows {
			if classOf(r.Name) == cl {
				n++
			}
		}
		fmt.Fprintf(b, "| %s | %d |", cl, n)
		for _, c := range suite {
			var rows []judgeRow
			for _, r := range c.rows {
				if classOf(r.Name) == cl {
					rows = append(rows, r)
				}
			}
			s := scoreRows(rows)
			cell := ""
			switch {
			case s.gen > 0:
				cell = fmt.Sprintf("found %s · %s", frac(s.found, s.gen), pct(s.median))
				if s.stair > 0 {
					cell += " · anomaly " + frac(s.anom, s.stair)
				}
			default:
				cell = "confident-wrong " + frac(s.cw, s.non)
			}
			fmt.Fprintf(b, " %s |", cell)
		}
		b.WriteString("\n")
	}
}
