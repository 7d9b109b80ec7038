package sinks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
)

// writeDiagnostics prints why the detector chose what it chose: the CoV
// of every metric's trailing window against the bounds, the trend
// verdicts, and every plateau with its minimum-duration breakdown.
func writeDiagnostics(b *reportBuilder, r *core.Result) error {
	diags, err := r.Diagnostics()
	if err != nil {
		return err
	}
	// Sorted by window size; a copy only when they are not (each is
	// 2.5 kB, and the tables only read them).
	byW := func(x, y core.WindowDiagnostics) int { return x.W - y.W }
	tables := diags
	if !slices.IsSortedFunc(tables, byW) {
		tables = slices.Clone(diags)
		slices.SortStableFunc(tables, byW)
	}
	b.heading("diagnostics")
	if len(tables) > 0 {
		writeCoV(b, r, tables)
		writeTrends(b, r, tables)
	}
	writePlateaus(b, r)
	return nil
}

// writeCoV prints one row per metric and one column per window size: the
// CoV of the trailing window and the tightest bound it passes.
func writeCoV(b *reportBuilder, r *core.Result, tables []core.WindowDiagnostics) {
	bounds := slices.Clone(r.CovBounds)
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	names := make([]string, len(bounds))
	for i, c := range bounds {
		names[i] = strconv.FormatFloat(c, 'g', -1, 64)
	}
	b.line("  CoV of each metric's trailing window" + phraseSep + "bounds " + strings.Join(names, ", ") + phraseSep +
		"gate metrics decide admissibility")
	t := &textTable{indent: "    "}
	// Rows made at their final length: grown cell by cell, they were
	// most of the diagnostics' fresh heap.
	t.rows = make([][]cell, 0, 1+core.NumMetrics)
	head := append(make([]cell, 0, 2+len(tables)), cell{"metric", dim}, cell{"role", dim})
	for _, d := range tables {
		head = append(head, cell{"w=" + strconv.Itoa(d.W), dim})
	}
	t.add(head...)
	for m, tm := range core.Metrics() {
		role := "diag"
		if tm.Gated {
			role = "gate"
		}
		row := append(make([]cell, 0, 2+len(tables)), txt(tm.Key), txt(role))
		for _, d := range tables {
			row = append(row, covCell(d.Cov[m], bounds, tm.Gated))
		}
		t.add(row...)
	}
	b.table(t)
}

// covCell formats one CoV with the tightest bound it passes ("<=0.03"),
// or ">" the loosest when it passes none; n/a below two points.
func covCell(c core.CovCell, bounds []float64, gated bool) cell {
	if c.N < 2 || len(bounds) == 0 {
		return txt(notAvailable)
	}
	for _, bound := range bounds {
		if c.CoV <= bound {
			return txt(fmt.Sprintf("%.4f <=%g", c.CoV, bound))
		}
	}
	st := dim
	if gated {
		st = bad
	}
	return cell{fmt.Sprintf("%.4f  >%g", c.CoV, bounds[len(bounds)-1]), st}
}

// glyph returns a trend verdict marked so direction reads at a glance,
// and its style.
func glyph(v stats.Verdict) cell {
	switch v {
	case stats.VerdictSteady:
		return txt("= steady")
	case stats.VerdictUp:
		return cell{"^ up", warn}
	case stats.VerdictDown:
		return cell{"v down", warn}
	case stats.VerdictInsufficient:
		return txt("- n<min")
	}
	return txt(orNA(string(v)))
}

// writeTrends prints the five trend tests on each metric's whole
// post-warmup trajectory, then how many rolling windows the gate's test
// finds trending, per window size.
func writeTrends(b *reportBuilder, r *core.Result, tables []core.WindowDiagnostics) {
	b.blank()
	b.line("  trend of each metric over the post-warmup run (all five tests)")
	t := &textTable{indent: "    "}
	t.rows = make([][]cell, 0, 1+core.NumMetrics)
	head := append(make([]cell, 0, 1+len(core.TrendGates())), cell{"metric", dim})
	for _, g := range core.TrendGates() {
		head = append(head, cell{string(g), dim})
	}
	t.add(head...)
	whole := tables[0] // the whole-run verdicts do not depend on the window size
	for m, tm := range core.Metrics() {
		row := append(make([]cell, 0, 1+len(whole.Drift[m].WholeRun)), txt(tm.Key))
		for _, v := range whole.Drift[m].WholeRun {
			row = append(row, glyph(v))
		}
		t.add(row...)
	}
	b.table(t)

	gate := max(slices.Index(core.TrendGates(), r.Params.TrendGate), 0)
	b.blank()
	b.line("  rolling windows trending under " + string(core.TrendGates()[gate]) + " (up / down / windows)")
	t = &textTable{indent: "    ", align: "lrrrrrrrr"}
	t.rows = make([][]cell, 0, 1+core.NumMetrics)
	head = append(make([]cell, 0, 1+len(tables)), cell{"metric", dim})
	for _, d := range tables {
		head = append(head, cell{"w=" + strconv.Itoa(d.W), dim})
	}
	t.add(head...)
	for m, tm := range core.Metrics() {
		row := append(make([]cell, 0, 1+len(tables)), txt(tm.Key))
		for _, d := range tables {
			up, down := 0, 0
			for _, rc := range d.Drift[m].Rolling {
				switch rc.Verdict(gate) {
				case stats.VerdictUp:
					up++
				case stats.VerdictDown:
					down++
				}
			}
			c := txt(fmt.Sprintf("%d / %d / %d", up, down, len(d.Drift[m].Rolling)))
			if up+down > 0 {
				c.st = warn
			}
			row = append(row, c)
		}
		t.add(row...)
	}
	b.table(t)
}

// reportedPlateau is the index of the plateau the window is, or −1 when
// the window is not one plateau (our drift test reports the span of
// several).
func reportedPlateau(ss *core.SteadyState) int {
	if ss.Window == nil {
		return -1
	}
	for i, pl := range ss.Plateaus {
		if pl.Lo == ss.Window.SPLo && pl.Hi == ss.Window.SPHi {
			return i
		}
	}
	return -1
}

// writePlateaus prints every admissible plateau in absolute super-passes
// with its duration and the three terms of its minimum duration (the
// dominant one starred), marking the reported one; a window that is not
// one plateau gets its own row.
func writePlateaus(b *reportBuilder, r *core.Result) {
	ss := &r.Steady
	b.blank()
	if len(ss.Plateaus) == 0 {
		b.line("  plateaus: none admissible")
		return
	}
	b.line("  plateaus in absolute super-passes" + phraseSep + "durations in seconds" + phraseSep +
		"minimum = max(precision, relaxation, floor)" + phraseSep + "* the dominant term")
	t := &textTable{indent: "    ", align: "llrrrrrrrrl"}
	t.add(txt(""), cell{"range", dim}, cell{"n", dim}, cell{"duration", dim}, cell{"minimum", dim},
		cell{"precision", dim}, cell{"relaxation", dim}, cell{"floor", dim}, cell{"k*", dim}, cell{"cov_b", dim},
		cell{"", dim})
	reported := reportedPlateau(ss)
	// Gate records pair with plateaus only when there is one per plateau.
	paired := len(ss.Shorts) == len(ss.Plateaus)
	for i, pl := range ss.Plateaus {
		mark, st := fmt.Sprintf("  %d", i+1), plain
		if i == reported {
			mark, st = fmt.Sprintf("> %d", i+1), bold
		}
		row := []cell{cell{mark, st}, cell{spRange(r.Warmup+pl.Lo, r.Warmup+pl.Hi-1), st},
			txt(strconv.Itoa(pl.Hi - pl.Lo))}
		if paired {
			row = append(row, gateCells(ss.Shorts[i], r.Params.MinDurKstarFloor)...)
		}
		t.add(row...)
	}
	if w := ss.Window; w != nil && reported < 0 && ss.ShortWindow != nil {
		row := []cell{cell{"> W", bold}, cell{spRange(r.Warmup+w.SPLo, r.Warmup+w.SPHi-1), bold},
			txt(strconv.Itoa(w.SPHi - w.SPLo))}
		t.add(append(row, gateCells(*ss.ShortWindow, r.Params.MinDurKstarFloor)...)...)
	}
	t.key = 2
	b.table(t)
	if ss.Window != nil && reported < 0 {
		b.line("  W: the reported window spans several plateaus")
	}
	p := r.Params
	b.line(strings.Join([]string{
		"  precision = k*·τ_sp", "τ_sp a super-pass's median issue span",
		fmt.Sprintf("k* the super-passes for ±%g%% at 95%% given cov_b", 100*p.MinDurEps),
		fmt.Sprintf("exempt while k* is at its floor %d: the trend test's %d suffice", p.MinDurKstarFloor, p.MinDurKstarFloor),
		fmt.Sprintf("relaxation = %g × p90 latency", p.MinDurRelaxMult), "floor: settings"}, phraseSep))
}

// gateCells are the minimum-duration cells of one gate record; the
// precision term reads "exempt" where the gate drops it (k* at its floor
// kstarFloor), not "0.0 s".
func gateCells(sw core.ShortWindow, kstarFloor int) []cell {
	term := func(s float64, name string) cell {
		c := txt(bareSeconds(s))
		if name == "precision" && s == 0 && sw.KStar <= kstarFloor {
			c.text = "exempt"
		}
		if sw.Dominant == name {
			c.text += "*"
		}
		return c
	}
	verdict := txt("long enough")
	if sw.IsShort {
		verdict = cell{"short", warn}
	}
	return []cell{txt(bareSeconds(sw.WindowDurationS)), txt(bareSeconds(sw.MinDurationS)),
		term(sw.TPrecisionS, "precision"), term(sw.TRelaxationS, "relaxation"), term(sw.TFloorS, "floor"),
		txt(strconv.Itoa(sw.KStar)), txt(fixed(sw.CovB, 4)), verdict}
}
