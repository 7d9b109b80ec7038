package core

import (
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core/stats"
)

func itoa(i int) string { return strconv.Itoa(i) }

// ReferenceJSON returns the reference's --json bytes (detector spec §11):
// the key tree of §11.1 (or the NATL dict of §13), Python's json.dumps
// layout with indent=2 and Python float repr, no trailing newline. Extra
// top-level keys follow the reference's keys.
func (r *Result) ReferenceJSON() []byte {
	return encodePyJSON(r.JSONTree())
}

// JSONTree returns the ordered JSON tree that ReferenceJSON encodes, so
// callers can append keys before encoding.
func (r *Result) JSONTree() JSONObject {
	var obj JSONObject
	if r.Path == "natl" && r.NATL != nil {
		obj = r.NATL.json()
	} else {
		obj = r.windowJSON()
	}
	return append(obj, r.Extra...)
}

func verdictObj(v [5]string) JSONObject {
	o := make(JSONObject, len(stats.TrendAlgos))
	for i, a := range stats.TrendAlgos {
		o[i] = JSONField{string(a), v[i]}
	}
	return o
}

func summaryJSON(s *stats.Summary) any {
	if s == nil {
		return nil
	}
	hist := make([]any, len(s.Histogram))
	for i, b := range s.Histogram {
		hist[i] = JSONObject{{"lo", b.Lo}, {"hi", b.Hi}, {"count", b.Count}}
	}
	return JSONObject{
		{"count", s.Count}, {"mean", s.Mean}, {"min", s.Min}, {"max", s.Max},
		{"p50", s.P50}, {"p90", s.P90}, {"p99", s.P99}, {"histogram", hist},
	}
}

func plateausJSON(ps []Plateau) []any {
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = []int{p.Lo, p.Hi}
	}
	return out
}

func (r *Result) windowJSON() JSONObject {
	metrics := make([]string, numMetrics)
	traj := make(JSONObject, numMetrics)
	var gated []string
	for m, tm := range TrackedMetrics {
		metrics[m] = tm.Key
		traj[m] = JSONField{tm.Key, r.Trajectories[m]}
		if tm.Gated {
			gated = append(gated, tm.Key)
		}
	}
	bounds := distinctBounds(r.CovBounds)
	var cov, drift JSONObject
	for _, d := range r.Diagnostics() {
		key := strconv.Itoa(d.W)
		ct := make(JSONObject, numMetrics)
		dt := make(JSONObject, numMetrics)
		for m, tm := range TrackedMetrics {
			c := d.Cov[m]
			passes := make(JSONObject, len(bounds))
			for i, b := range bounds {
				var v any
				if c.N >= 2 {
					v = c.Passes[i]
				}
				passes[i] = JSONField{pyFloat(b), v}
			}
			var cv any
			if c.N >= 2 {
				cv = c.CoV
			}
			ct[m] = JSONField{tm.Key, JSONObject{{"gated", c.Gated}, {"n", c.N}, {"cov", cv}, {"passes", passes}}}
			rolling := make([]any, len(d.Drift[m].Rolling))
			for i, rc := range d.Drift[m].Rolling {
				rolling[i] = JSONObject{{"window", []int{rc.Lo, rc.Hi}}, {"verdicts", verdictObj(rc.Verdicts)}}
			}
			dt[m] = JSONField{tm.Key, JSONObject{{"whole_run", verdictObj(d.Drift[m].WholeRun)}, {"rolling", rolling}}}
		}
		cov = append(cov, JSONField{key, ct})
		drift = append(drift, JSONField{key, dt})
	}
	if cov == nil {
		cov, drift = JSONObject{}, JSONObject{}
	}
	pspRows := make([]any, len(r.PerSuperPass))
	for i, d := range r.PerSuperPass {
		var t50, t90, p50, p90 any
		if d.HasTTFT {
			t50, t90 = d.TTFTP50, d.TTFTP90
		}
		if d.HasTPOT {
			p50, p90 = d.TPOTP50, d.TPOTP90
		}
		pspRows[i] = JSONObject{
			{"i", d.I}, {"n_issued", d.NIssued}, {"out_tokens", d.OutTokens},
			{"first_issue_ns", d.FirstIssueNs}, {"last_issue_ns", d.LastIssueNs}, {"last_event_ns", d.LastEventNs},
			{"ttft_p50", t50}, {"ttft_p90", t90}, {"tpot_p50", p50}, {"tpot_p90", p90},
		}
	}
	return JSONObject{
		{"n_super_passes", r.NSuperPasses},
		{"superpass_size", r.SuperpassSize},
		{"warmup", r.Warmup},
		{"warmup_mode", r.WarmupMode},
		{"n_post_warmup", r.NPostWarmup},
		{"metrics", metrics},
		{"gated_metrics", gated},
		{"trajectories", traj},
		{"cov", cov},
		{"drift", drift},
		{"steady_state", r.Steady.json()},
		{"per_super_pass", pspRows},
	}
}

func (ss *SteadyState) json() JSONObject {
	var reason, window, tps, short any
	if ss.Reason != "" {
		reason = ss.Reason
	}
	if w := ss.Window; w != nil {
		window = JSONObject{
			{"sp_lo", w.SPLo}, {"sp_hi", w.SPHi}, {"n_super_passes", w.NSuperPasses},
			{"n_samples", w.NSamples}, {"plateau_index", w.PlateauIndex},
			{"n_plateaus", w.NPlateaus}, {"skipped_short", w.SkippedShort},
		}
	}
	if t := ss.TPS; t != nil {
		tps = JSONObject{
			{"per_user", t.PerUser}, {"per_user_ci", t.PerUserCI[:]},
			{"system", t.System}, {"system_ci", t.SystemCI[:]},
		}
	}
	if s := ss.ShortWindow; s != nil {
		short = JSONObject{
			{"is_short", s.IsShort}, {"window_duration_s", s.WindowDurationS},
			{"min_duration_s", s.MinDurationS}, {"dominant", s.Dominant},
			{"t_precision_s", s.TPrecisionS}, {"t_relaxation_s", s.TRelaxationS},
			{"t_floor_s", s.TFloorS}, {"kstar", s.KStar}, {"cov_b", s.CovB},
			{"tau_sp_s", s.TauSPS}, {"l_p90_s", s.LP90S},
		}
	}
	a := ss.Anomaly
	var cp, pet any
	if a.ChangePointSP >= 0 {
		cp = a.ChangePointSP
	}
	if a.Pettitt != nil {
		pet = JSONObject{
			{"change_point", a.Pettitt.ChangePoint}, {"k_stat", a.Pettitt.K},
			{"pvalue", a.Pettitt.P}, {"significant", a.Pettitt.Significant},
		}
	}
	gt := make(JSONObject, len(watchedMetrics))
	for i, m := range watchedMetrics {
		gt[i] = JSONField{TrackedMetrics[m].Key, ss.GlobalTrend[i]}
	}
	du := ss.DriftingUp
	if du == nil {
		du = []string{}
	}
	return JSONObject{
		{"found", ss.Found},
		{"reason", reason},
		{"window", window},
		{"ttft", summaryJSON(ss.TTFT)},
		{"tpot", summaryJSON(ss.TPOT)},
		{"tps", tps},
		{"anomaly", JSONObject{
			{"detected", a.Detected}, {"change_point_sp", cp}, {"delta_pct", a.DeltaPct},
			{"pettitt", pet}, {"plateaus", plateausJSON(a.Plateaus)},
		}},
		{"short_window", short},
		{"global_trend", gt},
		{"drifting_up", du},
	}
}

var verdictGlyph = map[string]string{
	VerdictUp: "^ up", VerdictDown: "v down", VerdictSteady: "= steady", VerdictInsufficient: ". n/a",
}

func ljust(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func rjust(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

func fmtMs(ns float64) string { return pyFixed(ns/1e6, 2) + "ms" }

// pyFixedW is Python's format(x, "W.Pf") (right-aligned in W columns).
func pyFixedW(x float64, w, prec int) string { return rjust(pyFixed(x, prec), w) }

// pySigned is Python's format(x, "+.Pf").
func pySigned(x float64, prec int) string {
	s := pyFixed(x, prec)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// ReferenceText returns the reference CLI's stdout (detector spec §12, or
// the NATL report and banner of §13), ending with "\n".
func (r *Result) ReferenceText() string {
	if r.Path == "natl" && r.NATL != nil {
		return r.NATL.text()
	}
	var lines []string
	add := func(s ...string) { lines = append(lines, strings.Join(s, "")) }
	add("super-passes: ", itoa(r.NSuperPasses), " (size ", itoa(r.SuperpassSize), ", warmup ", itoa(r.Warmup),
		" [", r.WarmupMode, "], post-warmup ", itoa(r.NPostWarmup), ")")
	add()
	add("=== STEADY STATE (headline) ===")
	ss := &r.Steady
	if !ss.Found {
		add("  not found: ", ss.Reason)
	} else {
		w, t := ss.Window, ss.TPS
		add("  window: super-passes ", itoa(w.SPLo), "..", itoa(w.SPHi-1), " (post-warmup), ", itoa(w.NSamples), " samples")
		if w.SkippedShort > 0 {
			add("  note: skipped ", itoa(w.SkippedShort), " earlier plateau(s) below min-duration; reporting plateau ",
				itoa(w.PlateauIndex+1), " of ", itoa(w.NPlateaus))
		}
		add("  TPS per-user: ", pyFixedW(t.PerUser, 8, 1), " tok/s/user  CI [", pyFixed(t.PerUserCI[0], 1), ", ",
			pyFixed(t.PerUserCI[1], 1), "]")
		add("  TPS system:   ", pyFixedW(t.System, 8, 1), " tok/s        CI [", pyFixed(t.SystemCI[0], 1), ", ",
			pyFixed(t.SystemCI[1], 1), "]")
		for _, nm := range []struct {
			name string
			s    *stats.Summary
		}{{"TTFT", ss.TTFT}, {"TPOT", ss.TPOT}} {
			if nm.s != nil {
				add("  ", nm.name, " p50 ", fmtMs(nm.s.P50), "  p90 ", fmtMs(nm.s.P90), "  p99 ", fmtMs(nm.s.P99),
					"  mean ", fmtMs(nm.s.Mean))
			}
		}
	}
	if sw := ss.ShortWindow; ss.Found && sw != nil && sw.IsShort {
		add("  WARNING: Window too short -- ", pyFixed(sw.WindowDurationS, 0), "s steady vs ", pyFixed(sw.MinDurationS, 0),
			"s desired (", sw.Dominant, "-dominated); the steady number is a best-effort estimate over too little wall-time")
	}
	if len(ss.DriftingUp) > 0 {
		add("  WARNING: ", strings.Join(ss.DriftingUp, ", "),
			" drifting UP over the rest of the run -- the window is a local plateau; global steady state is questionable")
	}
	if a := ss.Anomaly; a.Detected {
		add("  ANOMALY: level shift at super-pass ", itoa(a.ChangePointSP), ", TPOT ", pySigned(a.DeltaPct, 1),
			"% toward end of run (likely degradation)")
	}
	add()
	add("--- diagnostics (per window size) ---")
	hdr := make([]string, len(r.CovBounds))
	for i, b := range r.CovBounds {
		hdr[i] = "cov<=" + pyFloat(b)
	}
	boundHdr := strings.Join(hdr, "  ")
	distinct := distinctBounds(r.CovBounds)
	tables := r.Diagnostics()
	diags := make([]*WindowDiagnostics, len(tables))
	for i := range tables {
		diags[i] = &tables[i]
	}
	sortByW(diags)
	for _, d := range diags {
		ws := itoa(d.W)
		add()
		add("=== window size ", ws, " ===")
		add()
		add("CoV steadiness (trailing ", ws, " super-passes)")
		add("  ", ljust("metric", 12), " ", ljust("gate", 5), " ", rjust("CoV", 8), "   ", boundHdr)
		for m, tm := range TrackedMetrics {
			c := d.Cov[m]
			covs := "   n/a"
			if c.N >= 2 {
				covs = pyFixed(c.CoV, 4)
			}
			cells := make([]string, len(r.CovBounds))
			for i, b := range r.CovBounds {
				g := "n/a"
				if c.N >= 2 {
					g = "fail"
					for j, db := range distinct {
						if db == b && c.Passes[j] {
							g = "PASS"
						}
					}
				}
				cells[i] = rjust(g, 7)
			}
			tag := "diag"
			if tm.Gated {
				tag = "gate"
			}
			add("  ", ljust(tm.Key, 12), " ", ljust(tag, 5), " ", rjust(covs, 8), "   ", strings.Join(cells, "  "))
		}
		add()
		add("drift (whole-run trend per metric; rolling scan is in --json)")
		algos := make([]string, len(stats.TrendAlgos))
		for i, a := range stats.TrendAlgos {
			algos[i] = rjust(string(a), 16)
		}
		add("  ", ljust("metric", 12), " ", strings.Join(algos, "  "))
		for m, tm := range TrackedMetrics {
			cells := make([]string, 5)
			for i, v := range d.Drift[m].WholeRun {
				cells[i] = rjust(verdictGlyph[v], 16)
			}
			add("  ", ljust(tm.Key, 12), " ", strings.Join(cells, "  "))
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// sortByW orders the tables by window size (stable; the reference sorts
// the keys by integer value).
func sortByW(ds []*WindowDiagnostics) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].W < ds[j-1].W; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}
