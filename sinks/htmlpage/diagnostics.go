package htmlpage

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// diagnosticTables are the text report's diagnostics, read from the
// tree's cov and drift tables and plateaus: the CoV of each metric's
// trailing window against the bounds, the five trend tests over the
// post-warmup run, the rolling windows the trend gate finds trending, and
// the plateaus.
func diagnosticTables(res node, gate string, warmup int, win *span) []table {
	var out []table
	cov, drift := object(get(res, "cov")), object(get(res, "drift"))
	sizes := windowSizes(cov)
	metrics := list(get(res, "metrics"))
	if len(sizes) > 0 {
		out = append(out, covTable(cov, sizes, metrics))
	}
	if len(sizes) > 0 && drift != nil {
		out = append(out, trendTable(drift, sizes[0], metrics), rollingTable(drift, sizes, metrics, gate))
	}
	out = append(out, plateauTable(res, warmup, win))
	return out
}

// windowSizes are the keys of the cov table, smallest first (the text
// report's order).
func windowSizes(cov pyjson.Object) []string {
	var keys []string
	for _, f := range cov {
		keys = append(keys, f.Key)
	}
	slices.SortStableFunc(keys, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	return keys
}

func covTable(cov pyjson.Object, sizes []string, metrics []any) table {
	t := table{ID: "cov", Caption: "CoV of each metric's trailing window (gate metrics decide admissibility)",
		Head: []string{"metric", "role"}}
	for _, w := range sizes {
		t.Head = append(t.Head, "w="+w)
	}
	for _, m := range metrics {
		key, _ := m.(string)
		role := "diag"
		if boolAt(cov, sizes[0], key, "gated") {
			role = "gate"
		}
		row := []cell{tcell(key), tcell(role)}
		for _, w := range sizes {
			row = append(row, covCell(get(cov, w, key), role == "gate"))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// covCell is one CoV with the tightest bound it passes ("≤ 0.03"), or
// "> " the loosest when it passes none; n/a when the tree has no CoV.
func covCell(c node, gated bool) cell {
	cv, ok := number(get(c, "cov"))
	if !ok {
		return cell{Value: na("fewer than two points"), Class: "num"}
	}
	passes := object(get(c, "passes"))
	best, loosest := math.Inf(1), math.Inf(-1)
	for _, f := range passes {
		b, err := strconv.ParseFloat(f.Key, 64)
		if err != nil {
			continue
		}
		loosest = math.Max(loosest, b)
		if pass, _ := f.Value.(bool); pass {
			best = math.Min(best, b)
		}
	}
	s := strconv.FormatFloat(cv, 'f', 4, 64)
	switch {
	case !math.IsInf(best, 1):
		return cell{Value: text(s + " ≤" + f64(best)), Class: "num"}
	case !math.IsInf(loosest, -1):
		class := "num dim"
		if gated {
			class = "num bad"
		}
		return cell{Value: text(s + " >" + f64(loosest)), Class: class}
	}
	return cell{Value: text(s), Class: "num"}
}

// verdictCell marks a trend verdict so direction reads at a glance.
func verdictCell(v string) cell {
	switch v {
	case "steady":
		return tcell("= steady")
	case "up":
		return cell{Value: text("↑ up"), Class: "warn"}
	case "down":
		return cell{Value: text("↓ down"), Class: "warn"}
	case "insufficient":
		return tcell("– n<min")
	}
	return tcell(orNA(v))
}

func trendTable(drift pyjson.Object, size string, metrics []any) table {
	t := table{ID: "trend", Caption: "trend of each metric over the post-warmup run (all five tests)", Head: []string{"metric"}}
	var tests []string
	if len(metrics) > 0 {
		k, _ := metrics[0].(string)
		for _, f := range object(get(drift, size, k, "whole_run")) {
			tests = append(tests, f.Key)
		}
	}
	t.Head = append(t.Head, tests...)
	for _, m := range metrics {
		key, _ := m.(string)
		row := []cell{tcell(key)}
		for _, test := range tests {
			row = append(row, verdictCell(stringAt(drift, size, key, "whole_run", test)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// rollingTable counts, per metric and window size, the rolling windows
// the trend gate's test finds trending up and down (the text report's
// counts).
func rollingTable(drift pyjson.Object, sizes []string, metrics []any, gate string) table {
	t := table{ID: "rolling", Caption: "rolling windows trending under " + orNA(gate) + " (up / down / windows)", Head: []string{"metric"}}
	for _, w := range sizes {
		t.Head = append(t.Head, "w="+w)
	}
	for _, m := range metrics {
		key, _ := m.(string)
		row := []cell{tcell(key)}
		for _, w := range sizes {
			windows := list(get(drift, w, key, "rolling"))
			up, down := 0, 0
			for _, rc := range windows {
				switch stringAt(rc, "verdicts", gate) {
				case "up":
					up++
				case "down":
					down++
				}
			}
			c := cell{Value: text(fmt.Sprintf("%d / %d / %d", up, down, len(windows))), Class: "num"}
			if up+down > 0 {
				c.Class = "num warn"
			}
			row = append(row, c)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// plateauTable lists the admissible plateaus in absolute super-passes,
// the one the window is marked.
func plateauTable(res node, warmup int, win *span) table {
	t := table{ID: "plateaus", Caption: "plateaus (absolute super-passes)", Head: []string{"", "super-passes", "n"}}
	ps := plateausOf(res, warmup)
	if len(ps) == 0 {
		t.Note = "none admissible"
	}
	for i, p := range ps {
		reported := win != nil && *win == p
		mark := strconv.Itoa(i + 1)
		if reported {
			mark = "▶ " + mark
		}
		t.Rows = append(t.Rows, []cell{{Value: text(mark), Bold: reported}, {Value: text(spRange(p.Lo, p.Hi)), Bold: reported},
			{Value: text(strconv.Itoa(p.Hi - p.Lo + 1)), Class: "num", Bold: reported}})
	}
	return t
}

// superPassTable is the data behind the charts, one row per super-pass.
func superPassTable(rec node, warmup int, win *span, certified bool) table {
	t := table{ID: "superpasses", Caption: "per super-pass (absolute index; the charts' data)", Sortable: true,
		Head: []string{"super-pass", "phase", "issued", "output tokens", "TTFT p50 (ms)", "TTFT p90 (ms)", "TPOT p50 (ms)", "TPOT p90 (ms)", "latency p99 (ms)"}}
	for i, sp := range list(get(rec, "super_passes")) {
		phase := "post-warmup"
		switch {
		case i < warmup:
			phase = "warmup"
		case win != nil && i >= win.Lo && i <= win.Hi && certified:
			phase = "window"
		case win != nil && i >= win.Lo && i <= win.Hi:
			phase = "window (not certified)"
		}
		num := func(key, unit string) cell {
			x, ok := number(get(sp, key))
			v := leafValue(sp, unit, get(sp, key))
			s := ""
			if ok {
				s = f64(x)
			}
			return cell{Value: v, Class: "num", Sort: s}
		}
		t.Rows = append(t.Rows, []cell{
			{Value: text(strconv.Itoa(i)), Class: "num", Sort: strconv.Itoa(i)}, tcell(phase),
			num("n_issued", "n"), num("out_tokens", "n"),
			num("ttft_p50", "_ns"), num("ttft_p90", "_ns"), num("tpot_p50", "_ns"), num("tpot_p90", "_ns"), num("latency_p99", "_ns"),
		})
	}
	return t
}

// shownElsewhere are the top-level keys of the tree the page draws
// itself; every other key is listed as it is (detailSections), so a key
// added to the JSON shows on the page without a change here.
var shownElsewhere = map[string]bool{
	"n_super_passes": true, "superpass_size": true, "warmup": true, "warmup_mode": true, "n_post_warmup": true,
	"metrics": true, "gated_metrics": true, "trajectories": true, "cov": true, "drift": true,
	"per_super_pass": true, "status": true, "partial": true, "reason": true, "verdict": true,
	"total": true, "steady": true, "certification": true,
}

// detailSections list the rest of the tree, one section per top-level
// block (the steady_state block's parts each), every leaf as it is.
func detailSections(res node) []section {
	var out []section
	for _, f := range object(res) {
		if shownElsewhere[f.Key] {
			continue
		}
		if f.Key == "steady_state" {
			for _, g := range object(f.Value) {
				if g.Key == "ttft" || g.Key == "tpot" {
					out = append(out, section{Title: "steady_state." + g.Key, Fields: flatten(g.Value, "", g.Key, true)})
					continue
				}
				out = append(out, section{Title: "steady_state." + g.Key, Fields: flatten(g.Value, "", g.Key, false)})
			}
			continue
		}
		out = append(out, section{Title: f.Key, Fields: flatten(f.Value, "", f.Key, false)})
	}
	return out
}

// flatten lists the leaves of v as dotted names; unitKey formats the
// numbers (the nearest key with a unit suffix); summaryNs marks a
// summary record (mean, min, max, percentiles in nanoseconds). A
// summary's histogram is left out.
func flatten(v node, prefix, unitKey string, summaryNs bool) []field {
	name := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case pyjson.Object:
		var out []field
		for _, f := range x {
			if f.Key == "histogram" {
				continue
			}
			uk := unitKey
			if _, u := unitOf(f.Key); u != "" || strings.HasSuffix(f.Key, "_s") || strings.HasSuffix(f.Key, "_frac") || strings.HasSuffix(f.Key, "_pct") {
				uk = f.Key
			}
			if summaryNs && (f.Key == "mean" || f.Key == "min" || f.Key == "max" || strings.HasPrefix(f.Key, "p")) {
				uk = "_ns"
			}
			if sub, ok := f.Value.(pyjson.Object); ok {
				if len(sub) == 0 {
					out = append(out, field{Name: name(f.Key), Value: text("{}")})
				}
				out = append(out, flatten(sub, name(f.Key), uk, summaryNs)...)
				continue
			}
			if l, ok := f.Value.([]any); ok && len(l) > 0 {
				if _, isObj := l[0].(pyjson.Object); isObj {
					for i, e := range l {
						out = append(out, flatten(e, name(f.Key)+"["+strconv.Itoa(i)+"]", uk, summaryNs)...)
					}
					continue
				}
			}
			val := leafValue(x, uk, f.Value) // uk: a leaf under a unit key, e.g. percentiles of ttft_ns
			if val.NA && val.Reason == "" {
				val.Reason = reasonFor(x, f.Key)
			}
			out = append(out, field{Name: name(f.Key), Value: val})
		}
		return out
	case nil:
		return []field{{Name: orNA(prefix), Value: na("")}}
	}
	return []field{{Name: orNA(prefix), Value: leafValue(nil, unitKey, v)}}
}
