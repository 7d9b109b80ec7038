package htmlpage

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// diagnosticTables are the text report's diagnostics, read from the
// record's cov and drift tables and plateaus: the CoV of each metric's
// trailing window against the bounds, the five trend tests over the
// post-warmup run, the rolling windows the trend gate finds trending, and
// the plateaus.
func diagnosticTables(res *resultjson.Record, gate string, win *span) []table {
	var out []table
	diags := slices.Clone(res.Diagnostics)
	slices.SortStableFunc(diags, func(a, b core.WindowDiagnostics) int { return a.W - b.W }) // the text report's order
	if len(diags) > 0 {
		out = append(out, covTable(diags, res.Result.DistinctCovBounds()), trendTable(diags[0]), rollingTable(diags, gate))
	}
	out = append(out, plateauTable(res, win))
	return out
}

func covTable(diags []core.WindowDiagnostics, bounds []float64) table {
	t := table{ID: "cov", Caption: "CoV of each metric's trailing window (gate metrics decide admissibility)",
		Head: []string{"metric", "role"}}
	for _, d := range diags {
		t.Head = append(t.Head, "w="+strconv.Itoa(d.W))
	}
	for m, tm := range core.Metrics() {
		role := "diag"
		if diags[0].Cov[m].Gated {
			role = "gate"
		}
		row := []cell{tcell(tm.Key), tcell(role)}
		for _, d := range diags {
			row = append(row, covCell(d.Cov[m], bounds, role == "gate"))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// covCell is one CoV with the tightest bound it passes ("≤ 0.03"), or
// "> " the loosest when it passes none; n/a when there is no CoV (fewer
// than two points).
func covCell(c core.CovCell, bounds []float64, gated bool) cell {
	if c.N < 2 {
		return cell{Value: na("fewer than two points"), Class: "num"}
	}
	best, loosest := math.Inf(1), math.Inf(-1)
	for i, b := range bounds {
		loosest = math.Max(loosest, b)
		if i < len(c.Passes) && c.Passes[i] {
			best = math.Min(best, b)
		}
	}
	s := strconv.FormatFloat(c.CoV, 'f', 4, 64)
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

func trendTable(d core.WindowDiagnostics) table {
	t := table{ID: "trend", Caption: "trend of each metric over the post-warmup run (all five tests)", Head: []string{"metric"}}
	gates := core.TrendGates()
	for _, g := range gates {
		t.Head = append(t.Head, string(g))
	}
	for m, tm := range core.Metrics() {
		row := []cell{tcell(tm.Key)}
		for j := range gates {
			row = append(row, verdictCell(string(d.Drift[m].WholeRun[j])))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// rollingTable counts, per metric and window size, the rolling windows
// the trend gate's test finds trending up and down (the text report's
// counts).
func rollingTable(diags []core.WindowDiagnostics, gate string) table {
	t := table{ID: "rolling", Caption: "rolling windows trending under " + orNA(gate) + " (up / down / windows)", Head: []string{"metric"}}
	for _, d := range diags {
		t.Head = append(t.Head, "w="+strconv.Itoa(d.W))
	}
	g := slices.Index(core.TrendGates(), core.TrendGate(gate))
	for m, tm := range core.Metrics() {
		row := []cell{tcell(tm.Key)}
		for _, d := range diags {
			windows := d.Drift[m].Rolling
			up, down := 0, 0
			for _, rc := range windows {
				if g < 0 {
					continue
				}
				switch rc.Verdict(g) {
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
func plateauTable(res *resultjson.Record, win *span) table {
	t := table{ID: "plateaus", Caption: "plateaus (absolute super-passes)", Head: []string{"", "super-passes", "n"}}
	ps := plateausOf(res)
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
func superPassTable(rec *runRecord, win *span) table {
	t := table{ID: "superpasses", Caption: "per super-pass (absolute index; the charts' data)", Sortable: true,
		Head: []string{"super-pass", "phase", "issued", "output tokens", "TTFT p50 (ms)", "TTFT p90 (ms)", "TPOT p50 (ms)", "TPOT p90 (ms)", "latency p99 (ms)"}}
	warmup := rec.Result.Warmup()
	for i, d := range rec.SuperPasses {
		phase := "post-warmup"
		switch {
		case i < warmup:
			phase = "warmup"
		case win != nil && i >= win.Lo && i <= win.Hi && rec.Certified:
			phase = "window"
		case win != nil && i >= win.Lo && i <= win.Hi:
			phase = "window (not certified)"
		}
		num := func(o opt, unit string) cell {
			if !o.ok { // JSON null
				return cell{Value: na(""), Class: "num"}
			}
			return cell{Value: numberValue(unit, o.x), Class: "num", Sort: f64(o.x)}
		}
		ms := func(m int) cell { return num(spValue(d, m), "_ns") }
		t.Rows = append(t.Rows, []cell{
			{Value: text(strconv.Itoa(i)), Class: "num", Sort: strconv.Itoa(i)}, tcell(phase),
			num(opt{float64(d.NIssued), true}, "n"), num(opt{float64(d.OutTokens), true}, "n"),
			ms(ttftP50), ms(ttftP90), ms(tpotP50), ms(tpotP90), ms(latencyP99),
		})
	}
	return t
}

// shownElsewhere are the top-level keys of the tree the page draws
// itself; every other key is listed as it is (detailSections), so a key
// added to the JSON shows on the page without a change here.
// (A switch, not a package-level map: that is built by every process.)
func shownElsewhere(key string) bool {
	switch key {
	case "n_super_passes", "superpass_size", "warmup", "warmup_mode", "n_post_warmup",
		"metrics", "gated_metrics", "trajectories", "cov", "drift",
		"per_super_pass", "status", "partial", "reason", "verdict",
		"total", "steady", "certification", "peer_window":
		return true
	}
	return false
}

// detailSections list the rest of the tree, one section per top-level
// block (the steady_state block's parts each), every leaf as it is.
func detailSections(tree pyjson.Object) []section {
	var out []section
	for _, f := range resultjson.Nodes(tree, func(key string) bool { return !shownElsewhere(key) }) {
		if f.Key == "steady_state" {
			for _, g := range f.Value.Fields {
				out = append(out, section{Title: "steady_state." + g.Key, Fields: flatten(g.Value, "", g.Key, g.Key == "ttft" || g.Key == "tpot")})
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
func flatten(v resultjson.Node, prefix, unitKey string, summaryNs bool) []field {
	name := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch v.Kind {
	case resultjson.Object:
		var out []field
		for _, f := range v.Fields {
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
			if sub := f.Value; sub.Kind == resultjson.Object {
				if len(sub.Fields) == 0 {
					out = append(out, field{Name: name(f.Key), Value: text("{}")})
				}
				out = append(out, flatten(sub, name(f.Key), uk, summaryNs)...)
				continue
			}
			if l := f.Value.Items; f.Value.Kind == resultjson.List && len(l) > 0 && l[0].Kind == resultjson.Object {
				for i, e := range l {
					out = append(out, flatten(e, name(f.Key)+"["+strconv.Itoa(i)+"]", uk, summaryNs)...)
				}
				continue
			}
			val := nodeValue(v, uk, f.Value) // uk: a leaf under a unit key, e.g. percentiles of ttft_ns
			if val.NA && val.Reason == "" {
				val.Reason = nodeReason(v, f.Key)
			}
			out = append(out, field{Name: name(f.Key), Value: val})
		}
		return out
	case resultjson.Null:
		return []field{{Name: orNA(prefix), Value: na("")}}
	}
	return []field{{Name: orNA(prefix), Value: nodeValue(resultjson.Node{}, unitKey, v)}}
}

// nodeValue formats a leaf of the tree listed as it is for key: a number
// by its key's unit, a string or bool as written, a list item by item,
// null as n/a with the reason given beside it in parent (nodeReason).
func nodeValue(parent resultjson.Node, key string, v resultjson.Node) value {
	switch v.Kind {
	case resultjson.Null:
		return na(nodeReason(parent, key))
	case resultjson.Number:
		return numberValue(key, v.Num)
	case resultjson.String:
		return text(v.Str)
	case resultjson.Bool:
		return value{Text: strconv.FormatBool(v.Bool)}
	case resultjson.List:
		parts := make([]string, len(v.Items))
		for i, e := range v.Items {
			parts[i] = nodeValue(resultjson.Node{}, key, e).Text
		}
		return value{Text: "[" + strings.Join(parts, ", ") + "]"}
	}
	return na("")
}

// nodeReason is the reason given beside a null value: the sibling key
// KEY_reason, else a "reasons" object's KEY, else "" (the JSON's
// convention for a value the analysis cannot support: null, and a reason
// next to it).
func nodeReason(parent resultjson.Node, key string) string {
	if r, ok := parent.Field(key + "_reason"); ok && r.Kind == resultjson.String && r.Str != "" {
		return r.Str
	}
	rs, _ := parent.Field("reasons")
	r, _ := rs.Field(key)
	return r.Str
}
