package resultjson

import (
	"strconv"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// window is the reference's window-path tree (§11.1).
func window(rec *Record) pyjson.Object {
	r := rec.Result
	ms := core.Metrics()
	metrics := make([]string, len(ms))
	traj := make(pyjson.Object, len(ms))
	var gated []string
	for m, tm := range ms {
		metrics[m] = tm.Key
		traj[m] = pyjson.Field{Key: tm.Key, Value: r.Trajectory(m)}
		if tm.Gated {
			gated = append(gated, tm.Key)
		}
	}
	cov, drift := diagnostics(rec.Diagnostics, r.DistinctCovBounds())
	return pyjson.Object{
		{Key: "n_super_passes", Value: r.NSuperPasses},
		{Key: "superpass_size", Value: r.SuperpassSize},
		{Key: "warmup", Value: r.Warmup},
		{Key: "warmup_mode", Value: string(r.WarmupMode)},
		{Key: "n_post_warmup", Value: r.NPostWarmup},
		{Key: "metrics", Value: metrics},
		{Key: "gated_metrics", Value: gated},
		{Key: "trajectories", Value: traj},
		{Key: "cov", Value: cov},
		{Key: "drift", Value: drift},
		{Key: "steady_state", Value: steadyState(&r.Steady, r.Assessment != nil)},
		{Key: "per_super_pass", Value: &superPassTable{rows: r.PerSuperPass()}},
	}
}

// diagnostics are the cov and drift tables keyed by window size (§9).
func diagnostics(diags []core.WindowDiagnostics, bounds []float64) (cov, drift pyjson.Object) {
	ms := core.Metrics()
	cov, drift = pyjson.Object{}, pyjson.Object{}
	frags := new(cellText) // every rolling table is written at the same level
	keys := make([]string, len(bounds))
	for i, b := range bounds {
		keys[i] = pyjson.Float(b) // every cov table's pass keys
	}
	for _, d := range diags {
		key := strconv.Itoa(d.W)
		ct := make(pyjson.Object, len(ms))
		dt := make(pyjson.Object, len(ms))
		for m, tm := range ms {
			c := d.Cov[m]
			passes := make(pyjson.Object, len(bounds))
			for i, key := range keys {
				var v any
				if c.N >= 2 {
					v = c.Passes[i]
				}
				passes[i] = pyjson.Field{Key: key, Value: v}
			}
			var cv any
			if c.N >= 2 {
				cv = c.CoV
			}
			ct[m] = pyjson.Field{Key: tm.Key, Value: pyjson.Object{
				{Key: "gated", Value: c.Gated}, {Key: "n", Value: c.N}, {Key: "cov", Value: cv}, {Key: "passes", Value: passes}}}
			dt[m] = pyjson.Field{Key: tm.Key, Value: pyjson.Object{
				{Key: "whole_run", Value: verdicts(d.Drift[m].WholeRun)}, {Key: "rolling", Value: &rollingTable{cells: d.Drift[m].Rolling, text: frags}}}}
		}
		cov = append(cov, pyjson.Field{Key: key, Value: ct})
		drift = append(drift, pyjson.Field{Key: key, Value: dt})
	}
	return cov, drift
}

// rollingTable is a drift table's rolling cells (§9): for a 60-super-pass
// run 1650 of them, four objects each, nine tenths of the JSON (of a
// 10,000-super-pass run's 107 MB, 300,000 cells). It is a Marshaler for
// readers of the tree (the HTML page) and a pyjson.ListAppender that
// writes the cells one by one without building them.
type rollingTable struct {
	cells []core.RollingCell
	// text is the constant text between a cell's values, shared by the
	// tables of one tree (30 of them for 10 metrics and 3 windows).
	text *cellText
}

// cellText is the constant text between a rolling cell's values at the
// level last written (cellFragments).
type cellText struct {
	level int
	frag  *[9]string
}

func newRollingTable(cells []core.RollingCell) *rollingTable {
	return &rollingTable{cells: cells, text: new(cellText)}
}

// PyJSON is the cells' value tree: [{"window": [lo, hi], "verdicts": {…}}, …].
func (t *rollingTable) PyJSON() any {
	out := make([]any, len(t.cells))
	for i, rc := range t.cells {
		out[i] = pyjson.Object{{Key: "window", Value: []int{rc.Lo, rc.Hi}}, {Key: "verdicts", Value: verdicts(rc.Verdicts())}}
	}
	return out
}

// Len is the number of cells.
func (t *rollingTable) Len() int { return len(t.cells) }

// AppendElem appends the text pyjson writes for cell i of PyJSON() at
// level: the constant text between the values is made once per level
// (and shared with the tree's other tables).
func (t *rollingTable) AppendElem(b []byte, i, level int) []byte {
	if ct := t.text; ct.frag == nil || ct.level != level {
		ct.frag, ct.level = cellFragments(level), level
	}
	f, rc := t.text.frag, &t.cells[i]
	b = strconv.AppendInt(append(b, f[0]...), int64(rc.Lo), 10)
	b = strconv.AppendInt(append(b, f[1]...), int64(rc.Hi), 10)
	b = append(b, f[2]...)
	for j := range 5 {
		b = pyjson.AppendString(append(b, f[3+j]...), string(rc.Verdict(j)))
	}
	return append(b, f[8]...)
}

// cellFragments are the texts around a rolling cell's values at level:
// before lo, between lo and hi, after hi, before each of the five
// verdicts (its key included; registry order), and after the last.
func cellFragments(level int) *[9]string {
	var f [9]string
	in := func(l int) []byte { return pyjson.AppendIndent(nil, l) }
	f[0] = "{" + string(in(level+1)) + `"window": [` + string(in(level+2))
	f[1] = "," + string(in(level+2))
	f[2] = string(in(level+1)) + "]," + string(in(level+1)) + `"verdicts": {`
	for j, g := range core.TrendGates() {
		sep := ""
		if j > 0 {
			sep = ","
		}
		f[3+j] = sep + string(pyjson.AppendString(in(level+2), string(g))) + ": "
	}
	f[8] = string(in(level+1)) + "}" + string(in(level)) + "}"
	return &f
}

// verdicts maps each trend algorithm to its verdict, in registry order.
func verdicts(v [5]stats.Verdict) pyjson.Object {
	gates := core.TrendGates()
	o := make(pyjson.Object, len(gates))
	for i, g := range gates {
		o[i] = pyjson.Field{Key: string(g), Value: string(v[i])}
	}
	return o
}

// superPassTable is per_super_pass (§11.1): one row per post-warmup
// super-pass, 10,000 of them on a long run. Like rollingTable it is a
// Marshaler for readers of the tree and a pyjson.ListAppender that writes
// the rows without building them (no value boxed per field).
type superPassTable struct {
	rows []core.SuperPassDigest
	// level and frag are the rows' keys with their separators at the
	// level last written (objectFragments).
	level int
	frag  []string
}

// superPassKeys are a row's keys in order: six integers, then the four
// percentiles (null when the super-pass has no TTFT, or no TPOT).
var superPassKeys = []string{"i", "n_issued", "out_tokens", "first_issue_ns", "last_issue_ns", "last_event_ns",
	"ttft_p50", "ttft_p90", "tpot_p50", "tpot_p90"}

// PyJSON is the rows' value tree.
func (t *superPassTable) PyJSON() any {
	out := make([]any, len(t.rows))
	for i, d := range t.rows {
		out[i] = perSuperPass(d)
	}
	return out
}

// Len is the number of rows.
func (t *superPassTable) Len() int { return len(t.rows) }

// AppendElem appends the text pyjson writes for row i of PyJSON() at level.
func (t *superPassTable) AppendElem(b []byte, i, level int) []byte {
	if t.frag == nil || t.level != level {
		t.frag, t.level = objectFragments(level, superPassKeys), level
	}
	f, d := t.frag, &t.rows[i]
	for k, v := range [6]int64{int64(d.I), int64(d.NIssued), d.OutTokens, d.FirstIssueNs, d.LastIssueNs, d.LastEventNs} {
		b = strconv.AppendInt(append(b, f[k]...), v, 10)
	}
	v := perSuperPassValues(d)
	for k := range v {
		b = append(b, f[6+k]...)
		if v[k] == nil {
			b = append(b, "null"...)
		} else {
			b = pyjson.AppendFloat(b, *v[k])
		}
	}
	return append(b, f[len(superPassKeys)]...)
}

// objectFragments are the texts of an object at level with keys, for
// writing its values between them: before each value its key (with the
// comma, line break and indentation before it), and last the object's
// end. The object's "{" is the first fragment's first byte.
func objectFragments(level int, keys []string) []string {
	f := make([]string, len(keys)+1)
	for k, key := range keys {
		b := []byte{','}
		if k == 0 {
			b[0] = '{'
		}
		b = append(pyjson.AppendString(pyjson.AppendIndent(b, level+1), key), ": "...)
		f[k] = string(b)
	}
	f[len(keys)] = string(append(pyjson.AppendIndent(nil, level), '}'))
	return f
}

// perSuperPassValues are a row's four percentiles, nil for null.
func perSuperPassValues(d *core.SuperPassDigest) [4]*float64 {
	const ttftP50, ttftP90, tpotP50, tpotP90 = 0, 1, 2, 3 // indices of core.Metrics
	var v [4]*float64
	if d.HasTTFT() {
		v[0], v[1] = &d.Value[ttftP50], &d.Value[ttftP90]
	}
	if d.HasTPOT() {
		v[2], v[3] = &d.Value[tpotP50], &d.Value[tpotP90]
	}
	return v
}

// perSuperPass is one row of per_super_pass (§11.1).
func perSuperPass(d core.SuperPassDigest) pyjson.Object {
	row := pyjson.Object{
		{Key: "i", Value: d.I}, {Key: "n_issued", Value: d.NIssued}, {Key: "out_tokens", Value: d.OutTokens},
		{Key: "first_issue_ns", Value: d.FirstIssueNs}, {Key: "last_issue_ns", Value: d.LastIssueNs},
		{Key: "last_event_ns", Value: d.LastEventNs},
		{Key: "ttft_p50"}, {Key: "ttft_p90"}, {Key: "tpot_p50"}, {Key: "tpot_p90"},
	}
	for k, v := range perSuperPassValues(&d) {
		if v != nil {
			row[6+k].Value = *v
		}
	}
	return row
}

// summary is the reference's summarize record (§5.11), null without data.
func summary(s *stats.Summary) any {
	if s == nil {
		return nil
	}
	hist := make([]any, len(s.Histogram))
	for i, b := range s.Histogram {
		hist[i] = pyjson.Object{{Key: "lo", Value: b.Lo}, {Key: "hi", Value: b.Hi}, {Key: "count", Value: b.Count}}
	}
	return pyjson.Object{
		{Key: "count", Value: s.Count}, {Key: "mean", Value: s.Mean}, {Key: "min", Value: s.Min}, {Key: "max", Value: s.Max},
		{Key: "p50", Value: s.P50}, {Key: "p90", Value: s.P90}, {Key: "p99", Value: s.P99}, {Key: "histogram", Value: hist},
	}
}

func plateaus(ps []core.Plateau) []any {
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = []int{p.Lo, p.Hi}
	}
	return out
}

// steadyState is the steady_state block (§10). Under steadysweep
// (nullable) a throughput the data cannot support is null: its NaN.
func steadyState(ss *core.SteadyState, nullable bool) pyjson.Object {
	var window, tps, short any
	if w := ss.Window; w != nil {
		window = pyjson.Object{
			{Key: "sp_lo", Value: w.SPLo}, {Key: "sp_hi", Value: w.SPHi}, {Key: "n_super_passes", Value: w.NSuperPasses},
			{Key: "n_samples", Value: w.NSamples}, {Key: "plateau_index", Value: w.PlateauIndex},
			{Key: "n_plateaus", Value: w.NPlateaus}, {Key: "skipped_short", Value: w.SkippedShort},
		}
	}
	if t := ss.TPS; t != nil && nullable {
		tps = pyjson.Object{
			{Key: "per_user", Value: num(t.PerUser)}, {Key: "per_user_ci", Value: interval(t.PerUserCI)},
			{Key: "system", Value: num(t.System)}, {Key: "system_ci", Value: interval(t.SystemCI)},
		}
	} else if t != nil {
		tps = pyjson.Object{
			{Key: "per_user", Value: t.PerUser}, {Key: "per_user_ci", Value: t.PerUserCI[:]},
			{Key: "system", Value: t.System}, {Key: "system_ci", Value: t.SystemCI[:]},
		}
	}
	if s := ss.ShortWindow; s != nil {
		short = pyjson.Object{
			{Key: "is_short", Value: s.IsShort}, {Key: "window_duration_s", Value: s.WindowDurationS},
			{Key: "min_duration_s", Value: s.MinDurationS}, {Key: "dominant", Value: s.Dominant},
			{Key: "t_precision_s", Value: s.TPrecisionS}, {Key: "t_relaxation_s", Value: s.TRelaxationS},
			{Key: "t_floor_s", Value: s.TFloorS}, {Key: "kstar", Value: s.KStar}, {Key: "cov_b", Value: s.CovB},
			{Key: "tau_sp_s", Value: s.TauSPS}, {Key: "l_p90_s", Value: s.LP90S},
		}
	}
	a := ss.Anomaly
	var cp, pet any
	if a.ChangePointSP >= 0 {
		cp = a.ChangePointSP
	}
	if a.Pettitt != nil {
		pet = pyjson.Object{
			{Key: "change_point", Value: a.Pettitt.ChangePoint}, {Key: "k_stat", Value: a.Pettitt.K},
			{Key: "pvalue", Value: a.Pettitt.P}, {Key: "significant", Value: a.Pettitt.Significant},
		}
	}
	ms := core.Metrics()
	watched := []int{0, 1, 2, 3} // ttft_p50, ttft_p90, tpot_p50, tpot_p90: the GlobalTrend order
	gt := make(pyjson.Object, len(watched))
	for i, m := range watched {
		gt[i] = pyjson.Field{Key: ms[m].Key, Value: string(ss.GlobalTrend[i])}
	}
	du := ss.DriftingUp
	if du == nil {
		du = []string{}
	}
	return pyjson.Object{
		{Key: "found", Value: ss.Found},
		{Key: "reason", Value: str(ss.Reason)},
		{Key: "window", Value: window},
		{Key: "ttft", Value: summary(ss.TTFT)},
		{Key: "tpot", Value: summary(ss.TPOT)},
		{Key: "tps", Value: tps},
		{Key: "anomaly", Value: pyjson.Object{
			{Key: "detected", Value: a.Detected}, {Key: "change_point_sp", Value: cp}, {Key: "delta_pct", Value: a.DeltaPct},
			{Key: "pettitt", Value: pet}, {Key: "plateaus", Value: plateaus(a.Plateaus)},
		}},
		{Key: "short_window", Value: short},
		{Key: "global_trend", Value: gt},
		{Key: "drifting_up", Value: du},
	}
}

// natl is the reference's NATL dict (§13).
func natl(n *core.NATLResult) pyjson.Object {
	return pyjson.Object{
		{Key: "n_trajectories", Value: n.NTrajectories},
		{Key: "superpass_trajectories", Value: n.SuperpassTrajectories},
		{Key: "n_super_passes", Value: n.NSuperPasses},
		{Key: "distribution", Value: pyjson.Object{
			{Key: "p10", Value: n.P10}, {Key: "p50", Value: n.P50}, {Key: "p90", Value: n.P90}, {Key: "p99", Value: n.P99},
			{Key: "mean", Value: n.Mean}, {Key: "cov", Value: n.CoV},
		}},
		{Key: "sp_median", Value: n.SPMedian},
		{Key: "across_cov", Value: n.AcrossCoV},
		{Key: "batch_means_se_pct", Value: n.BatchMeansSEPct},
		{Key: "found", Value: n.Found},
	}
}
