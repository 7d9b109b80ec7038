package htmlpage

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
)

// runView is the run page as the template draws it, built from the
// record alone (runViewOf): the page is a function of what it embeds.
type runView struct {
	Name, Path, Back string
	Status, Verdict  badge
	Reason           string
	Lines            []field // the run's shape and profile
	Window           []field
	Compare          table // steady vs total
	Certification    table // each metric family's own certification
	NATL             table // the agentic path's result (natlTable)
	Findings         []field
	Charts           []chart
	Diagnostics      []table
	SuperPasses      table
	Details          []section
	Settings         []field
	Params           table
}

// badge is a status or verdict word and its tone (good, warn, bad).
type badge struct{ Text, Tone string }

// field is one labelled value.
type field struct {
	Name  string
	Value value
	Tone  string
}

// table is a captioned table; a cell's Sort is the key sorting its column
// ("" sorts by the text).
type table struct {
	ID, Caption, Note string
	Head              []string
	Rows              [][]cell
	Sortable          bool
}

type cell struct {
	Value value
	Class string
	Sort  string
	// Sub is a second, smaller line (the whole-run value beside a steady
	// one).
	Sub []string
	// Bold marks the row's emphasis (the reported plateau).
	Bold bool
}

// section is a titled list of fields (a block of the JSON shown as is).
type section struct {
	Title  string
	Fields []field
}

func vcell(v value) cell        { return cell{Value: v} }
func tcell(s string) cell       { return cell{Value: text(s)} }
func f64(x float64) string      { return strconv.FormatFloat(x, 'g', -1, 64) }
func spRange(lo, hi int) string { return fmt.Sprintf("%d..%d", lo, hi) }

// statusTone colours a coverage status as the text report does: only a
// windowable run is good, an error is bad, the rest questionable.
func statusTone(s string) string {
	switch s {
	case "windowable":
		return "good"
	case "":
		return ""
	case "error":
		return "bad"
	}
	return "warn"
}

// verdictTone colours a verdict as the text report does.
func verdictTone(v string) string {
	switch v {
	case "STEADY STATE":
		return "good"
	case "drifting_up", "drifting_down":
		return "warn"
	case "":
		return ""
	}
	return "bad"
}

func runViewOf(rec node) runView {
	res := get(rec, "result")
	ss := get(res, "steady_state")
	v := runView{Name: stringAt(rec, "run", "name"), Path: stringAt(rec, "run", "path")}
	if v.Name == "" {
		v.Name = "(unnamed run)"
	}
	status, verdict := stringAt(res, "status"), stringAt(res, "verdict")
	reason := stringAt(res, "reason")
	if !has(res, "status") { // the reference's tree: found or not
		verdict = "not found"
		if boolAt(ss, "found") {
			verdict = "STEADY STATE"
		}
		reason = stringAt(ss, "reason")
	}
	v.Status = badge{orNA(status), statusTone(status)}
	v.Verdict = badge{orNA(verdict), verdictTone(verdict)}
	v.Reason = reason
	natl := has(res, "n_trajectories")
	warmup := intAt(res, 0, "warmup")
	if natl {
		v.Lines = append(v.Lines, field{Name: "path", Value: text("agentic NATL path (per-trajectory throughput)")})
	} else {
		v.Lines = append(v.Lines, field{Name: "shape", Value: text(fmt.Sprintf(
			"%s of %s · warmup %d (%s) · %d post-warmup",
			sinks.Count(intAt(res, 0, "n_super_passes"), "super-pass"), sinks.Count(intAt(res, 0, "superpass_size"), "sample"), warmup,
			orNA(stringAt(res, "warmup_mode")), intAt(res, 0, "n_post_warmup")))})
	}
	if m := get(res, "mode"); m != nil {
		v.Lines = append(v.Lines, field{Name: "mode", Value: text(strings.TrimSpace(stringAt(m, "name") + " · " + stringAt(m, "method")))})
	}
	if boolAt(res, "partial") {
		v.Lines = append(v.Lines, field{Name: "", Value: text("partial log: the run was truncated or interrupted"), Tone: "warn"})
	}
	certified := boolAt(rec, "certified")
	win := windowOf(res, warmup)
	v.Window = windowFields(res, win, certified, verdict)
	v.Compare = compareTable(res)
	v.Certification = certificationTable(res)
	v.NATL = natlTable(res)
	v.Findings = findings(res, warmup)
	if !natl {
		v.Charts = runCharts(rec, res, warmup, win, certified, verdict, reason)
		v.Diagnostics = diagnosticTables(res, stringAt(rec, "settings", "params", "trend_gate"), warmup, win)
		v.SuperPasses = superPassTable(rec, warmup, win, certified)
	}
	v.Details = detailSections(res)
	for _, d := range list(get(rec, "settings", "derived")) {
		v.Settings = append(v.Settings, field{Name: stringAt(d, "name"),
			Value: text(strings.TrimSpace(stringAt(d, "value") + "  (" + orNA(stringAt(d, "source")) + ")"))})
	}
	v.Params = table{Caption: "detector parameters", Head: []string{"parameter", "value"}}
	for _, f := range object(get(rec, "settings", "params")) {
		s, _ := f.Value.(string)
		v.Params.Rows = append(v.Params.Rows, []cell{tcell(f.Key), vcell(value{Text: orEmpty(s)})})
	}
	return v
}

// naText is n/a with its reason, as the page prints a missing value.
func naText(v value) string {
	if v.Reason == "" {
		return notAvailable
	}
	return notAvailable + " — " + v.Reason
}

func orNA(s string) string {
	if s == "" {
		return notAvailable
	}
	return s
}

func orEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// windowOf is the window in absolute super-passes (end inclusive): the
// selection's window_sp [first, last] when the tree has one, else the
// reference's post-warmup steady_state.window [sp_lo, sp_hi) shifted by
// the warmup; nil when there is none.
func windowOf(res node, warmup int) *span {
	if lo, hi, ok := pairAt(res, "selection", "window_sp"); ok {
		return &span{int(lo), int(hi)}
	}
	if w := get(res, "steady_state", "window"); w != nil && !has(res, "selection") {
		return &span{warmup + intAt(w, 0, "sp_lo"), warmup + intAt(w, 0, "sp_hi") - 1}
	}
	return nil
}

// windowFields describe the window: where, how long, against the
// minimum duration, and whether it is reported as a steady state.
func windowFields(res node, win *span, certified bool, verdict string) []field {
	if win == nil {
		return []field{{Name: "window", Value: text("none")}}
	}
	warmup := intAt(res, 0, "warmup")
	desc := fmt.Sprintf("super-passes %s (post-warmup %s) · %d super-passes", spRange(win.Lo, win.Hi),
		spRange(win.Lo-warmup, win.Hi-warmup), win.Hi-win.Lo+1)
	if n, ok := number(get(res, "submission", "window", "n_samples")); ok {
		desc += fmt.Sprintf(" · %s samples", count(n).Text)
	} else if n, ok := number(get(res, "steady_state", "window", "n_samples")); ok {
		desc += fmt.Sprintf(" · %s samples", count(n).Text)
	}
	sw := get(res, "steady_state", "short_window")
	dur := numberAt(sw, "window_duration_s")
	if d, ok := number(get(res, "submission", "window", "duration_s")); ok {
		dur = d
	}
	if finite(dur) {
		desc += " · " + seconds(dur).Text
	}
	out := []field{{Name: "window", Value: text(desc)}}
	var notes []string
	if m := numberAt(sw, "min_duration_s"); finite(m) {
		need := "minimum " + seconds(m).Text
		if d := stringAt(sw, "dominant"); d != "" {
			need += " (" + d + "-dominated)"
		}
		notes = append(notes, need)
	}
	if n := intAt(res, 0, "steady_state", "window", "skipped_short"); n > 0 {
		notes = append(notes, sinks.Count(n, "shorter plateau")+" skipped")
	}
	if len(notes) > 0 {
		out = append(out, field{Value: text(strings.Join(notes, " · "))})
	}
	if boolAt(sw, "is_short") {
		out = append(out, field{Value: text("window shorter than the minimum duration: a best-effort estimate over too little wall time"), Tone: "warn"})
	}
	if certified {
		out = append(out, field{Value: text("reported as the steady state"), Tone: "good"})
	} else {
		out = append(out, field{Value: text("not certified as a steady state (verdict " + orNA(verdict) + ")"), Tone: "warn"})
	}
	return out
}

// steadyBlock is the tree's steady block, or for the reference's tree
// (which has none) its steady_state summaries laid out the same way.
func steadyBlock(res node) node {
	if s := get(res, "steady"); s != nil || has(res, "steady") {
		return s
	}
	ss := get(res, "steady_state")
	if ss == nil {
		return nil
	}
	q := func(key string) node {
		s := get(ss, key)
		if s == nil {
			return nil
		}
		return pyjson.Object{{Key: "p50", Value: get(s, "p50")}, {Key: "p90", Value: get(s, "p90")}, {Key: "p99", Value: get(s, "p99")}}
	}
	return pyjson.Object{
		{Key: "n_super_passes", Value: get(ss, "window", "n_super_passes")},
		{Key: "n_samples", Value: get(ss, "window", "n_samples")},
		{Key: "ttft_ns", Value: q("ttft")}, {Key: "tpot_ns", Value: q("tpot")},
		{Key: "tps_per_user", Value: get(ss, "tps", "per_user")}, {Key: "tps_system", Value: get(ss, "tps", "system")},
	}
}

// compareTable is steady against total: one row per number of the steady
// and total blocks (their union, in the tree's order; nested quantiles
// one row each), the steady value's 95 % confidence interval beside it.
func compareTable(res node) table {
	steady, total := steadyBlock(res), get(res, "total")
	t := table{ID: "compare", Caption: "steady vs total", Head: []string{"", "steady (95% CI)", "total"}}
	if !has(res, "total") {
		t.Head = t.Head[:2]
		t.Note = "the reference's JSON has no whole-run totals"
	}
	type row struct{ path []string }
	var rows []row
	seen := map[string]bool{}
	add := func(block node) {
		for _, f := range object(block) {
			if strings.HasSuffix(f.Key, "_reason") || strings.HasSuffix(f.Key, "_ci") || f.Key == "reasons" {
				continue
			}
			if sub := object(f.Value); sub != nil {
				for _, g := range sub {
					if k := f.Key + "." + g.Key; !seen[k] && !strings.HasSuffix(g.Key, "_reason") {
						seen[k] = true
						rows = append(rows, row{[]string{f.Key, g.Key}})
					}
				}
				continue
			}
			if !seen[f.Key] {
				seen[f.Key] = true
				rows = append(rows, row{[]string{f.Key}})
			}
		}
	}
	add(steady)
	add(total)
	for _, r := range rows {
		unitKey := r.path[0]
		c := []cell{tcell(metricLabel(r.path))}
		sc := cell{Value: blockValue(steady, r.path, unitKey), Class: "num strong"}
		if why := certReason(res, r.path[0]); sc.Value.NA && why != "" {
			sc.Value.Reason = why // a trending family: null with the certification's reason
		}
		if sc.Value.NA && sc.Value.Reason == "" && len(r.path) == 1 {
			sc.Value.Reason = throughputReason(res, r.path[0])
		}
		switch ci := ciOf(res, steady, r.path, unitKey); {
		case !ci.NA && ci.Text != "":
			sc.Sub = []string{ci.Text}
		case ci.NA:
			sc.Sub = []string{"CI " + naText(ci)}
		}
		c = append(c, sc)
		if len(t.Head) == 3 {
			c = append(c, cell{Value: blockValue(total, r.path, unitKey), Class: "num"})
		}
		t.Rows = append(t.Rows, c)
	}
	return t
}

// blockValue is the value at path in block, formatted by unitKey (the
// outer key carries the unit: ttft_ns.p50 is nanoseconds); a missing
// block is n/a with the reason the tree gives.
func blockValue(block node, path []string, unitKey string) value {
	if block == nil {
		return na("")
	}
	parent := block
	if len(path) > 1 {
		parent = get(block, path[:len(path)-1]...)
	}
	key := path[len(path)-1]
	v := leafValue(parent, unitKey, get(parent, key))
	if v.NA && v.Reason == "" {
		v.Reason = reasonFor(parent, key)
	}
	return v
}

// ciOf is the 95 % confidence interval of the steady value at path: the
// steady block's own KEY_ci, else, for a throughput, the steady_state.tps
// interval when it belongs to this very number (the same estimate);
// otherwise none.
func ciOf(res, steady node, path []string, unitKey string) value {
	if len(path) != 1 {
		return value{}
	}
	key := path[0]
	if has(steady, key+"_ci") {
		return ciText(steady, key+"_ci", unitKey)
	}
	alias := rateName(key)
	if alias == "" {
		return value{}
	}
	// The throughput block (issue 14) gives each reported rate with its
	// interval and the reason for a null one.
	if th := get(res, "throughput", alias); th != nil {
		own, ok1 := number(get(steady, key))
		est, ok2 := number(get(th, "value"))
		if ok1 && ok2 && own == est {
			if v := ciText(th, "ci95", unitKey); !v.NA || v.Reason != "" {
				return v
			}
			return na(stringAt(th, "reason"))
		}
	}
	tps := get(res, "steady_state", "tps")
	if tps == nil {
		return na(reasonFor(get(res, "steady_state"), "tps"))
	}
	own, ok1 := number(get(steady, key))
	est, ok2 := number(get(tps, alias))
	if !ok1 || !ok2 || own != est {
		return na("no interval for this estimate")
	}
	return ciText(tps, alias+"_ci", unitKey)
}

// throughputReason is the throughput block's reason (issue 14) for the
// steady rate key (tps_system, tps_per_user), "" for another key or none.
func throughputReason(res node, key string) string {
	alias := rateName(key)
	if alias == "" {
		return ""
	}
	return stringAt(res, "throughput", alias, "reason")
}

// rateName is the name the throughput and steady_state.tps blocks give
// the steady block's rate key: tps_system → system; "" for another key.
func rateName(key string) string {
	switch key {
	case "tps_system":
		return "system"
	case "tps_per_user":
		return "per_user"
	}
	return ""
}

// ciText formats the [lo, hi] pair at parent[key], n/a with its reason
// when null.
func ciText(parent node, key, unitKey string) value {
	lo, hi, ok := pairAt(parent, key)
	if !ok {
		return na(reasonFor(parent, key))
	}
	f, _ := unitOf(unitKey)
	a, b := f(lo), f(hi)
	if a.NA || b.NA {
		return na(reasonFor(parent, key))
	}
	return value{Text: "[" + a.Text + ", " + b.Text + "]"}
}

// metricLabel names a row of the comparison: ttft_ns.p50 → "TTFT p50"
// (the values carry their units).
func metricLabel(path []string) string {
	names := map[string]string{"n_super_passes": "super-passes", "n_samples": "samples", "out_tokens": "output tokens",
		"duration_s": "duration", "completed_frac": "completed", "tps_per_user": "TPS per user", "tps_system": "TPS system"}
	s, ok := names[path[0]]
	if !ok {
		// The unit suffix goes (the value carries it), but "per_s" is
		// the unit itself: requests_per_s is requests per second.
		key := strings.TrimSuffix(path[0], "_ns")
		if k, ok := strings.CutSuffix(key, "_per_s"); ok {
			key = k + "_per_second"
		} else {
			key = strings.TrimSuffix(key, "_s")
		}
		words := strings.Split(key, "_")
		for i, w := range words {
			switch w {
			case "ttft", "tpot", "tps":
				words[i] = strings.ToUpper(w)
			case "n":
				words[i] = "number of"
			case "frac":
				words[i] = "fraction"
			}
		}
		s = strings.Join(words, " ")
	}
	if len(path) > 1 {
		s += " " + path[1]
	}
	return s
}

// findings are the numbers that qualify the headline, as the text report
// prints them: failures, level shift, gap, early stopping, states, drift.
func findings(res node, warmup int) []field {
	var out []field
	if f := object(get(res, "failures")); f != nil {
		out = append(out, failuresField(f))
	}
	a := get(res, "steady_state", "anomaly")
	if boolAt(a, "detected") {
		s := "level shift"
		if cp := changePoint(res, warmup); cp >= 0 {
			s += fmt.Sprintf(" at super-pass %d (absolute)", cp)
		}
		s += ", TPOT " + signedPct(numberAt(a, "delta_pct")).Text + " in the later plateau"
		out = append(out, field{Name: "anomaly", Value: text(s), Tone: "bad"})
	} else if a != nil {
		out = append(out, field{Name: "anomaly", Value: text("none")})
	}
	if g := get(res, "gap"); g != nil {
		tps, ttft, kept := numberAt(g, "tps_uplift_pct"), numberAt(g, "ttft_p99_change_pct"), numberAt(g, "retained_frac")
		if !finite(tps) && !finite(ttft) && !finite(kept) {
			out = append(out, field{Name: "gap", Value: na(reasonFor(g, "tps_uplift_pct"))})
		} else {
			out = append(out, field{Name: "gap", Value: text(fmt.Sprintf("steady vs total: system TPS %s · TTFT p99 %s · window holds %s of samples",
				signedPct(tps).Text, signedPct(ttft).Text, percent(kept).Text))})
		}
	}
	if es := get(res, "early_stopping"); es != nil {
		scope := get(es, "steady")
		if scope == nil {
			scope = get(es, "total")
		}
		p99 := func(m string) value {
			v := get(scope, m, "percentiles", "99.0")
			if v == nil {
				return na("below the early-stopping floor")
			}
			return leafValue(nil, m, v)
		}
		out = append(out, field{Name: "early stopping", Value: text("p99 (LoadGen estimate, 99% confidence): TTFT " +
			p99("ttft_ns").Text + " · TPOT " + p99("tpot_ns").Text)})
	}
	if st := get(res, "selection", "states"); st != nil {
		s := "tpot_p50 " + orNA(stringAt(st, "tpot_p50")) + " · tpot_p90 " + orNA(stringAt(st, "tpot_p90"))
		out = append(out, field{Name: "state", Value: text(s)})
	}
	if du := list(get(res, "steady_state", "drifting_up")); len(du) > 0 {
		names := make([]string, len(du))
		for i, d := range du {
			names[i], _ = d.(string)
		}
		out = append(out, field{Name: "drift", Value: text(strings.Join(names, ", ") +
			" trend up from the window's start to the run's end: the window may be a local plateau"), Tone: "warn"})
	}
	return out
}

// changePoint is the first super-pass after the level shift, absolute; −1
// when none.
func changePoint(res node, warmup int) int {
	if cp, ok := number(get(res, "selection", "anomaly", "change_point_sp")); ok {
		return int(cp)
	}
	if !boolAt(res, "steady_state", "anomaly", "detected") {
		return -1
	}
	if cp, ok := number(get(res, "steady_state", "anomaly", "change_point_sp")); ok {
		return warmup + int(cp)
	}
	return -1
}

// plateausOf are the admissible plateaus in absolute super-passes (the
// tree's are post-warmup [lo, hi)).
func plateausOf(res node, warmup int) []span {
	var out []span
	for _, p := range list(get(res, "steady_state", "anomaly", "plateaus")) {
		pl := list(p)
		if len(pl) != 2 {
			continue
		}
		lo, ok1 := number(pl[0])
		hi, ok2 := number(pl[1])
		if ok1 && ok2 {
			out = append(out, span{warmup + int(lo), warmup + int(hi) - 1})
		}
	}
	return out
}

// metricNotes qualify a charted metric: its state over the window when
// it drifts, and a trend up from the window to the run's end.
func metricNotes(res node, key string) []string {
	var notes []string
	if s := stringAt(res, "selection", "states", key); strings.HasPrefix(s, "Drifting") {
		notes = append(notes, strings.ToLower(s)+" in the window")
	}
	for _, d := range list(get(res, "steady_state", "drifting_up")) {
		if d == key {
			notes = append(notes, "drifting up after the window")
		}
	}
	return notes
}

// runCharts are the TPOT and TTFT charts over every super-pass, and for a
// run without either (no first-token events) the p99 latency.
func runCharts(rec, res node, warmup int, win *span, certified bool, verdict, reason string) []chart {
	sps := list(get(rec, "super_passes"))
	n := len(sps)
	series := func(key string) []float64 {
		out := make([]float64, n)
		for i, sp := range sps {
			out[i] = math.NaN()
			if x, ok := number(get(sp, key)); ok {
				out[i] = x / 1e6
			}
		}
		return out
	}
	hover := make([][]string, n)
	for i, sp := range sps {
		where := "post-warmup"
		switch {
		case i < warmup:
			where = "warmup"
		case win != nil && i >= win.Lo && i <= win.Hi:
			where = "window"
		}
		pair := func(name, a, b string) string {
			return fmt.Sprintf("%s p50 %s · p90 %s", name, leafValue(sp, a+"_ns", get(sp, a)).Text, leafValue(sp, b+"_ns", get(sp, b)).Text)
		}
		hover[i] = []string{
			fmt.Sprintf("super-pass %d (%s)", i, where),
			fmt.Sprintf("issued %s · output tokens %s", count(numberAt(sp, "n_issued")).Text, count(numberAt(sp, "out_tokens")).Text),
			pair("TPOT", "tpot_p50", "tpot_p90"),
			pair("TTFT", "ttft_p50", "ttft_p90"),
			"latency p99 " + leafValue(sp, "latency_ns", get(sp, "latency_p99")).Text,
		}
	}
	var window *span
	if certified {
		window = win
	}
	cp := changePoint(res, warmup)
	cpLabel := ""
	if cp >= 0 {
		cpLabel = "level shift " + signedPct(numberAt(res, "steady_state", "anomaly", "delta_pct")).Text
	}
	empty := "no values"
	if reason != "" {
		empty += ": " + reason
	}
	note := ""
	if !certified {
		note = "no certified window (verdict " + orNA(verdict) + ")"
	}
	base := chartSpec{N: n, Warmup: warmup, Window: window, Plateaus: plateausOf(res, warmup), ChangePoint: cp,
		ChangeLabel: cpLabel, Hover: hover, Unit: "ms"}
	mk := func(id, title, metric string, classes [2]string) chart {
		s := base
		s.ID, s.Title = id, title
		s.Empty = "no " + strings.ToUpper(metric) + " " + empty
		for i, q := range []string{"p50", "p90"} {
			key := metric + "_" + q
			s.Series = append(s.Series, chartSeries{Name: strings.ToUpper(metric) + " " + q, Class: classes[i],
				Values: series(key), Notes: metricNotes(res, key)})
			if t, ok := number(get(res, "total", metric+"_ns", q)); ok {
				s.Refs = append(s.Refs, chartRef{Class: classes[i], Label: "whole run " + q, Value: t / 1e6})
			}
		}
		c := s.layout()
		c.Note = note
		return c
	}
	charts := []chart{
		mk("tpot", "TPOT per super-pass (ms)", "tpot", [2]string{"s1", "s2"}),
		mk("ttft", "TTFT per super-pass (ms)", "ttft", [2]string{"s3", "s4"}),
	}
	if charts[0].Empty != "" {
		s := base
		s.ID, s.Title = "latency", "end-to-end latency p99 per super-pass (ms)"
		s.Empty = "no latency " + empty
		s.Series = []chartSeries{{Name: "latency p99", Class: "s5", Values: series("latency_p99")}}
		c := s.layout()
		c.Note = note
		charts = append(charts, c)
	}
	return charts
}

// failuresField is the failures block as one line: each count, the
// failures by kind as "kind n" pairs and the window's share (nested
// objects, which a leaf value would print as n/a); amber only when a
// request failed or did not complete.
func failuresField(f pyjson.Object) field {
	var parts []string
	for _, g := range f {
		sub := object(g.Value)
		switch {
		case g.Key == "by_kind" && len(sub) == 0:
			parts = append(parts, "by kind: none")
		case sub != nil:
			var inner []string
			for _, k := range sub {
				inner = append(inner, label(k.Key)+" "+leafValue(sub, k.Key, k.Value).Text)
			}
			parts = append(parts, label(g.Key)+": "+strings.Join(inner, ", "))
		case g.Value == nil && g.Key == "window":
			// no window: nothing to say about its share
		default:
			parts = append(parts, label(g.Key)+" "+leafValue(f, g.Key, g.Value).Text)
		}
	}
	fd := field{Name: "failures", Value: text(strings.Join(parts, " · "))}
	if intAt(f, 0, "n_failed") > 0 || intAt(f, 0, "n_incomplete") > 0 {
		fd.Tone = "warn"
	}
	return fd
}
