package htmlpage

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/submission"
)

// runView is the run page as runBody draws it, built from the
// record alone (runViewOf): the page is a function of what it embeds.
type runView struct {
	Name, Path, Back string
	Status, Verdict  badge
	Reason           string
	Lines            []field // the run's shape and profile
	Window           []field
	Compare          table   // steady vs total
	Certification    table   // each metric family's own certification
	Peer             []field // the recording tool's own window beside ours (peerFields)
	NATL             table   // the agentic path's result (natlTable)
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

func runViewOf(rec *runRecord) runView {
	res := rec.Result
	r, as, ss := res.Result, res.Assessment(), res.SteadyState()
	v := runView{Name: rec.Name, Path: rec.Path}
	if v.Name == "" {
		v.Name = "(unnamed run)"
	}
	var status, verdict, reason string
	if as != nil {
		status, verdict, reason = string(as.Status), string(as.Verdict), as.Reason
	} else { // the reference's tree: found or not
		verdict = "not found"
		if ss != nil && ss.Found {
			verdict = "STEADY STATE"
		}
		if ss != nil {
			reason = ss.Reason
		}
	}
	v.Status = badge{orNA(status), statusTone(status)}
	v.Verdict = badge{orNA(verdict), verdictTone(verdict)}
	v.Reason = reason
	natl := res.NATL() != nil
	warmup := res.Warmup()
	if natl {
		v.Lines = append(v.Lines, field{Name: "path", Value: text("agentic NATL path (per-trajectory throughput)")})
	} else {
		analysed, nSP, nSamples := r.NSuperPasses, r.NSuperPasses, 0
		if as != nil && as.Total != nil {
			nSP, nSamples = as.Total.NSuperPasses, as.Total.NSamples
		}
		shape := sinks.SuperPassShape(nSP, analysed, nSamples, r.SuperpassSize)
		v.Lines = append(v.Lines, field{Name: "shape", Value: text(fmt.Sprintf("%s · warmup %d (%s) · %d post-warmup",
			shape, warmup, orNA(string(r.WarmupMode)), r.NPostWarmup))})
	}
	if as != nil {
		v.Lines = append(v.Lines, field{Name: "mode", Value: text(strings.TrimSpace(as.Mode.Name + " · " + as.Mode.Method))})
		if as.Partial {
			v.Lines = append(v.Lines, field{Name: "", Value: text("partial log: the run was truncated or interrupted"), Tone: "warn"})
		}
	}
	win := windowOf(res)
	v.Window = windowFields(res, win, rec.Certified, verdict)
	v.Compare = compareTable(res)
	v.Certification = certificationTable(res)
	v.Peer = peerFields(r)
	v.NATL = natlTable(res)
	v.Findings = findings(res)
	if !natl {
		v.Charts = runCharts(rec, win, verdict, reason)
		v.Diagnostics = diagnosticTables(res, string(r.Params.TrendGate), win)
		v.SuperPasses = superPassTable(rec, win)
	}
	v.Details = detailSections(rec.tree)
	for _, d := range rec.Derived {
		v.Settings = append(v.Settings, field{Name: d.Name,
			Value: text(strings.TrimSpace(d.Value + "  (" + orNA(d.Source) + ")"))})
	}
	v.Params = table{Caption: "detector parameters", Head: []string{"parameter", "value"}}
	for _, p := range rec.Params {
		v.Params.Rows = append(v.Params.Rows, []cell{tcell(p.Name), vcell(value{Text: orEmpty(p.Value)})})
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

// windowOf is the record's window in absolute super-passes (end
// inclusive, resultjson.Record.Window); nil when there is none.
func windowOf(res *resultjson.Record) *span {
	if first, last, ok := res.Window(); ok {
		return &span{first, last}
	}
	return nil
}

// windowFields describe the window: where, how long, against the
// minimum duration, and whether it is reported as a steady state.
func windowFields(res *resultjson.Record, win *span, certified bool, verdict string) []field {
	if win == nil {
		return []field{{Name: "window", Value: text("none")}}
	}
	as, ss := res.Assessment(), res.SteadyState()
	warmup := res.Warmup()
	desc := fmt.Sprintf("super-passes %s (post-warmup %s) · %d super-passes", spRange(win.Lo, win.Hi),
		spRange(win.Lo-warmup, win.Hi-warmup), win.Hi-win.Lo+1)
	sub := as != nil && as.Submission.HasWindow
	switch {
	case sub:
		desc += fmt.Sprintf(" · %s samples", count(float64(as.Submission.Window.NSamples)).Text)
	case ss != nil && ss.Window != nil:
		desc += fmt.Sprintf(" · %s samples", count(float64(ss.Window.NSamples)).Text)
	}
	var sw *core.ShortWindow
	if ss != nil {
		sw = ss.ShortWindow
	}
	dur := math.NaN()
	if sw != nil {
		dur = sw.WindowDurationS
	}
	if sub {
		dur = submission.Finite(as.Submission.Window.DurationS)
	}
	if finite(dur) {
		desc += " · " + seconds(dur).Text
	}
	out := []field{{Name: "window", Value: text(desc)}}
	var notes []string
	if sw != nil && finite(sw.MinDurationS) {
		need := "minimum " + seconds(sw.MinDurationS).Text
		if sw.Dominant != "" {
			need += " (" + sw.Dominant + "-dominated)"
		}
		notes = append(notes, need)
	}
	if ss != nil && ss.Window != nil && ss.Window.SkippedShort > 0 {
		notes = append(notes, sinks.Count(ss.Window.SkippedShort, "shorter plateau")+" skipped")
	}
	if len(notes) > 0 {
		out = append(out, field{Value: text(strings.Join(notes, " · "))})
	}
	if sw != nil && sw.IsShort {
		out = append(out, field{Value: text("window shorter than the minimum duration: a best-effort estimate over too little wall time"), Tone: "warn"})
	}
	if certified {
		out = append(out, field{Value: text("reported as the steady state"), Tone: "good"})
	} else {
		out = append(out, field{Value: text("not certified as a steady state (verdict " + orNA(verdict) + ")"), Tone: "warn"})
	}
	return out
}

// opt is a number of the record that may be missing (JSON null).
type opt struct {
	x  float64
	ok bool
}

// some is x, missing (as the JSON writes null) when not finite.
func some(x float64) opt { return opt{x, finite(x)} }

// compareRow is one row of the steady-vs-total table: the JSON keys of
// its number (the outer carries the unit: ttft_ns.p50 is nanoseconds) and
// its steady and total values.
type compareRow struct {
	path          []string
	steady, total opt
}

// compareRows are the steady-vs-total rows: under steadysweep every
// number of the steady and total blocks (resultjson.TotalsFields, nested
// quantiles one row each); for the reference's tree, which has no such
// blocks, its steady_state's window size, TTFT and TPOT summaries (one
// n/a row for a summary without data) and throughputs.
func compareRows(res *resultjson.Record) []compareRow {
	var rows []compareRow
	if as := res.Assessment(); as != nil {
		if as.Steady == nil && as.Total == nil {
			return nil
		}
		at := func(t *core.Totals, f resultjson.TotalsField) opt {
			if t == nil {
				return opt{}
			}
			return some(f.Of(t))
		}
		for _, f := range resultjson.TotalsFields {
			rows = append(rows, compareRow{path: fieldPath(f), steady: at(as.Steady, f), total: at(as.Total, f)})
		}
		return rows
	}
	ss := res.SteadyState()
	if ss == nil {
		return nil
	}
	w, t := ss.Window, ss.TPS
	for _, f := range resultjson.TotalsFields {
		var v opt
		switch f.Key {
		case "n_super_passes":
			if w != nil {
				v = opt{float64(w.NSuperPasses), true}
			}
		case "n_samples":
			if w != nil {
				v = opt{float64(w.NSamples), true}
			}
		case "ttft_ns", "tpot_ns":
			s := ss.TTFT
			if f.Key == "tpot_ns" {
				s = ss.TPOT
			}
			if s == nil { // the key's null: one row
				if f.Quantile == "p50" {
					rows = append(rows, compareRow{path: []string{f.Key}})
				}
				continue
			}
			v = opt{quantileOf(s, f.Quantile), true}
		case "tps_per_user":
			if t != nil {
				v = opt{t.PerUser, true}
			}
		case "tps_system":
			if t != nil {
				v = opt{t.System, true}
			}
		default: // not in the reference's tree
			continue
		}
		rows = append(rows, compareRow{path: fieldPath(f), steady: v})
	}
	return rows
}

// quantileOf is a summary's quantile q (p50, p90, p99).
func quantileOf(s *stats.Summary, q string) float64 {
	switch q {
	case "p50":
		return s.P50
	case "p90":
		return s.P90
	}
	return s.P99
}

// fieldPath is the JSON key path of a totals number.
func fieldPath(f resultjson.TotalsField) []string {
	if f.Quantile == "" {
		return []string{f.Key}
	}
	return []string{f.Key, f.Quantile}
}

// compareTable is steady against total: one row per number of the steady
// and total blocks (compareRows), the steady value's 95 % confidence
// interval beside it.
func compareTable(res *resultjson.Record) table {
	t := table{ID: "compare", Caption: "steady vs total", Head: []string{"", "steady (95% CI)", "total"}}
	if res.Assessment() == nil {
		t.Head = t.Head[:2]
		t.Note = "the reference's JSON has no whole-run totals"
	}
	for _, r := range compareRows(res) {
		unitKey := r.path[0]
		c := []cell{tcell(metricLabel(r.path))}
		sc := cell{Value: optValue(unitKey, r.steady), Class: "num strong"}
		if why := certReason(res, r.path[0]); sc.Value.NA && why != "" {
			sc.Value.Reason = why // a trending family: null with the certification's reason
		}
		if sc.Value.NA && sc.Value.Reason == "" && len(r.path) == 1 {
			sc.Value.Reason = throughputReason(res, r.path[0])
		}
		var ci value
		if len(r.path) == 1 {
			ci = ciOf(res, r.path[0], r.steady)
		}
		switch {
		case !ci.NA && ci.Text != "":
			sc.Sub = []string{ci.Text}
		case ci.NA:
			sc.Sub = []string{"CI " + naText(ci)}
		}
		c = append(c, sc)
		if len(t.Head) == 3 {
			c = append(c, cell{Value: optValue(unitKey, r.total), Class: "num"})
		}
		t.Rows = append(t.Rows, c)
	}
	return t
}

// optValue formats o by unitKey's unit, n/a when missing.
func optValue(unitKey string, o opt) value {
	if !o.ok {
		return na("")
	}
	return numberValue(unitKey, o.x)
}

// ciOf is the 95 % confidence interval of the steady rate key
// (tps_system, tps_per_user) whose value is own: the throughput block's
// interval, or the reason it has none, when it belongs to this very
// number; else, for the reference's tree, the steady_state.tps interval
// when it does; otherwise none (value{} for a key without an interval).
func ciOf(res *resultjson.Record, key string, own opt) value {
	pick, ok := rateOf(key)
	if !ok {
		return value{}
	}
	// The throughput block (issue 14) gives each reported rate with its
	// interval and the reason for a null one.
	if th, ok := res.Throughput(); ok {
		rate := pick.rate(th)
		if est := some(rate.Value); own.ok && est.ok && own.x == est.x {
			if v := ciText(rate.CI95, key); !v.NA {
				return v
			}
			return na(rate.Reason)
		}
	}
	ss := res.SteadyState()
	if ss == nil || ss.TPS == nil {
		return na("")
	}
	est, ci := pick.tps(ss.TPS)
	nullable := res.Assessment() != nil // steadysweep writes a non-finite rate as null
	if !own.ok || (nullable && !finite(est)) || own.x != est {
		return na("no interval for this estimate")
	}
	return ciText(ci, key)
}

// ratePick reads one of the two rates (system, per user) of the
// throughput and steady_state.tps blocks.
type ratePick struct {
	rate func(resultjson.Throughput) resultjson.Rate
	tps  func(*core.TPS) (float64, [2]float64)
}

// rateOf is the pick of the steady block's rate key (tps_system,
// tps_per_user); ok false for another key.
func rateOf(key string) (ratePick, bool) {
	switch key {
	case "tps_system":
		return ratePick{func(t resultjson.Throughput) resultjson.Rate { return t.System },
			func(t *core.TPS) (float64, [2]float64) { return t.System, t.SystemCI }}, true
	case "tps_per_user":
		return ratePick{func(t resultjson.Throughput) resultjson.Rate { return t.PerUser },
			func(t *core.TPS) (float64, [2]float64) { return t.PerUser, t.PerUserCI }}, true
	}
	return ratePick{}, false
}

// throughputReason is the throughput block's reason (issue 14) for the
// steady rate key (tps_system, tps_per_user), "" for another key or none.
func throughputReason(res *resultjson.Record, key string) string {
	pick, ok := rateOf(key)
	th, has := res.Throughput()
	if !ok || !has {
		return ""
	}
	return pick.rate(th).Reason
}

// ciText formats the interval ci by unitKey's unit, n/a when a bound is
// not a number.
func ciText(ci [2]float64, unitKey string) value {
	f, _ := unitOf(unitKey)
	a, b := f(ci[0]), f(ci[1])
	if a.NA || b.NA {
		return na("")
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
func findings(res *resultjson.Record) []field {
	var out []field
	as, ss := res.Assessment(), res.SteadyState()
	if as != nil {
		out = append(out, failuresField(as.Failures))
	}
	if ss != nil && ss.Anomaly.Detected {
		s := "level shift"
		if cp := changePoint(res); cp >= 0 {
			s += fmt.Sprintf(" at super-pass %d (absolute)", cp)
		}
		s += ", TPOT " + signedPct(ss.Anomaly.DeltaPct).Text + " in the later plateau"
		out = append(out, field{Name: "anomaly", Value: text(s), Tone: "bad"})
	} else if ss != nil {
		out = append(out, field{Name: "anomaly", Value: text("none")})
	}
	if as != nil {
		g := as.Gap
		if tps, ttft, kept := g.TPSUpliftPct, g.TTFTP99ChangePct, g.RetainedFrac; !finite(tps) && !finite(ttft) && !finite(kept) {
			out = append(out, field{Name: "gap", Value: na("")})
		} else {
			out = append(out, field{Name: "gap", Value: text(fmt.Sprintf("steady vs total: system TPS %s · TTFT p99 %s · window holds %s of samples",
				signedPct(tps).Text, signedPct(ttft).Text, percent(kept).Text))})
		}
		scope := &as.EarlyStop.Total
		if as.EarlyStop.Steady != nil {
			scope = as.EarlyStop.Steady
		}
		p99 := func(e core.EarlyStopEstimate) value {
			i := slices.Index(core.EarlyStopGrid(), 99)
			if i < 0 || i >= len(e.OK) || !e.OK[i] {
				return na("below the early-stopping floor")
			}
			return numberValue("_ns", e.Values[i])
		}
		out = append(out, field{Name: "early stopping", Value: text("p99 (LoadGen estimate, 99% confidence): TTFT " +
			p99(scope.TTFT).Text + " · TPOT " + p99(scope.TPOT).Text)})
		st := as.Selection.States
		s := "tpot_p50 " + orNA(string(st[tpotP50])) + " · tpot_p90 " + orNA(string(st[tpotP90]))
		out = append(out, field{Name: "state", Value: text(s)})
	}
	if ss != nil && len(ss.DriftingUp) > 0 {
		out = append(out, field{Name: "drift", Value: text(strings.Join(ss.DriftingUp, ", ") +
			" trend up from the window's start to the run's end: the window may be a local plateau"), Tone: "warn"})
	}
	return out
}

// changePoint is the first super-pass after the level shift, absolute; −1
// when none.
func changePoint(res *resultjson.Record) int {
	if cp, ok := res.ChangePointSP(); ok {
		return cp
	}
	return -1
}

// plateausOf are the admissible plateaus in absolute super-passes (the
// record's are post-warmup [lo, hi)).
func plateausOf(res *resultjson.Record) []span {
	ss := res.SteadyState()
	if ss == nil {
		return nil
	}
	var out []span
	for _, p := range ss.Anomaly.Plateaus {
		out = append(out, span{res.Warmup() + p.Lo, res.Warmup() + p.Hi - 1})
	}
	return out
}

// metricNotes qualify charted metric m: its state over the window when it
// drifts, and a trend up from the window to the run's end.
func metricNotes(res *resultjson.Record, m int) []string {
	var notes []string
	if as := res.Assessment(); as != nil {
		if s := string(as.Selection.States[m]); strings.HasPrefix(s, "Drifting") {
			notes = append(notes, strings.ToLower(s)+" in the window")
		}
	}
	if ss := res.SteadyState(); ss != nil && slices.Contains(ss.DriftingUp, core.Metrics()[m].Key) {
		notes = append(notes, "drifting up after the window")
	}
	return notes
}

// spValue is charted metric m of a super-pass, missing (JSON null) when
// the super-pass has none.
func spValue(d core.SuperPassDigest, m int) opt {
	if m == latencyP99 {
		return some(d.LatencyP99)
	}
	return opt{d.Value[m], d.Has[m]}
}

// latencyP99 stands for the p99 latency among the metric indices of
// spValue.
const latencyP99 = -1

// orNaN is o's number, NaN when missing.
func orNaN(o opt) float64 {
	if !o.ok {
		return math.NaN()
	}
	return o.x
}

// runCharts are the TPOT and TTFT charts over every super-pass, and for a
// run without either (no first-token events) the p99 latency.
func runCharts(rec *runRecord, win *span, verdict, reason string) []chart {
	res := rec.Result
	warmup, certified := res.Warmup(), rec.Certified
	sps := rec.SuperPasses
	n := len(sps)
	series := func(m int) []float64 {
		out := make([]float64, n)
		for i, d := range sps {
			out[i] = orNaN(spValue(d, m)) / 1e6
		}
		return out
	}
	hover := make([][]string, n)
	for i, d := range sps {
		where := "post-warmup"
		switch {
		case i < warmup:
			where = "warmup"
		case win != nil && i >= win.Lo && i <= win.Hi:
			where = "window"
		}
		ms := func(m int) string { return optValue("_ns", spValue(d, m)).Text }
		pair := func(name string, a, b int) string {
			return fmt.Sprintf("%s p50 %s · p90 %s", name, ms(a), ms(b))
		}
		hover[i] = []string{
			fmt.Sprintf("super-pass %d (%s)", i, where),
			fmt.Sprintf("issued %s · output tokens %s", count(float64(d.NIssued)).Text, count(float64(d.OutTokens)).Text),
			pair("TPOT", tpotP50, tpotP90),
			pair("TTFT", ttftP50, ttftP90),
			"latency p99 " + ms(latencyP99),
		}
	}
	var window *span
	if certified {
		window = win
	}
	cp := changePoint(res)
	cpLabel := ""
	if cp >= 0 {
		cpLabel = "level shift " + signedPct(res.SteadyState().Anomaly.DeltaPct).Text
	}
	empty := "no values"
	if reason != "" {
		empty += ": " + reason
	}
	note := ""
	if !certified {
		note = "no certified window (verdict " + orNA(verdict) + ")"
	}
	base := chartSpec{N: n, Warmup: warmup, Window: window, Plateaus: plateausOf(res), ChangePoint: cp,
		ChangeLabel: cpLabel, Hover: hover, Unit: "ms"}
	var total *core.Totals
	if as := res.Assessment(); as != nil {
		total = as.Total
	}
	mk := func(id, title, metric string, ms [2]int, whole func(*core.Totals) core.Quantiles, classes [2]string) chart {
		s := base
		s.ID, s.Title = id, title
		s.Empty = "no " + strings.ToUpper(metric) + " " + empty
		for i, q := range []string{"p50", "p90"} {
			s.Series = append(s.Series, chartSeries{Name: strings.ToUpper(metric) + " " + q, Class: classes[i],
				Values: series(ms[i]), Notes: metricNotes(res, ms[i])})
			if total == nil {
				continue
			}
			if t := [2]float64{whole(total).P50, whole(total).P90}[i]; finite(t) {
				s.Refs = append(s.Refs, chartRef{Class: classes[i], Label: "whole run " + q, Value: t / 1e6})
			}
		}
		c := s.layout()
		c.Note = note
		return c
	}
	charts := []chart{
		mk("tpot", "TPOT per super-pass (ms)", "tpot", [2]int{tpotP50, tpotP90}, func(t *core.Totals) core.Quantiles { return t.TPOT }, [2]string{"s1", "s2"}),
		mk("ttft", "TTFT per super-pass (ms)", "ttft", [2]int{ttftP50, ttftP90}, func(t *core.Totals) core.Quantiles { return t.TTFT }, [2]string{"s3", "s4"}),
	}
	if charts[0].Empty != "" {
		s := base
		s.ID, s.Title = "latency", "end-to-end latency p99 per super-pass (ms)"
		s.Empty = "no latency " + empty
		s.Series = []chartSeries{{Name: "latency p99", Class: "s5", Values: series(latencyP99)}}
		c := s.layout()
		c.Note = note
		charts = append(charts, c)
	}
	return charts
}

// failuresField is the failures block as one line: each count, the
// failures by kind as "kind n" pairs and the window's share; amber only
// when a request failed or did not complete.
func failuresField(f core.Failures) field {
	rate := func(r core.FailureRate, sep string) string {
		return strings.Join([]string{"n issued " + general(float64(r.NIssued)).Text, "n failed " + general(float64(r.NFailed)).Text,
			"failed frac " + optValue("_frac", some(r.Frac)).Text}, sep)
	}
	parts := []string{rate(f.FailureRate, " · ")}
	if len(f.ByKind) == 0 {
		parts = append(parts, "by kind: none")
	} else {
		kinds := make([]string, len(f.ByKind))
		for i, k := range f.ByKind {
			kinds[i] = label(k.Kind.String()) + " " + general(float64(k.N)).Text
		}
		parts = append(parts, "by kind: "+strings.Join(kinds, ", "))
	}
	parts = append(parts, "n incomplete "+general(float64(f.NIncomplete)).Text)
	if f.Window != nil {
		parts = append(parts, "window: "+rate(*f.Window, ", "))
	}
	fd := field{Name: "failures", Value: text(strings.Join(parts, " · "))}
	if f.NFailed > 0 || f.NIncomplete > 0 {
		fd.Tone = "warn"
	}
	return fd
}
