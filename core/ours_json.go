package core

import (
	"math"
	"strconv"
)

// num is x, or nil (JSON null) when x is NaN or infinite.
func num(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

// json returns the top-level keys Ours adds after the reference's, in a
// fixed order: status, partial, reason, verdict, mode, submission, total,
// steady, gap, tail_cut, early_stopping, selection, anomaly_sp, offline.
// Undefined numbers are null, never NaN.
func (o *Ours) json() JSONObject {
	var reason any
	if o.Reason != "" {
		reason = o.Reason
	}
	mode := JSONObject{{"name", o.Mode.Name}, {"method", o.Mode.Method}}
	if o.Mode.Name == "poisson" {
		mode = append(mode, JSONField{"offered_qps", num(o.Mode.OfferedQPS)},
			JSONField{"completion_qps", num(o.Mode.CompletionQPS)}, JSONField{"backlog", o.Mode.Backlog})
	}
	var steady any
	if o.Steady != nil {
		steady = o.Steady.json()
	}
	var total any
	if o.Total != nil {
		total = o.Total.json()
	}
	obj := JSONObject{
		{"status", o.Status},
		{"partial", o.Partial},
		{"reason", reason},
		{"verdict", o.Verdict},
		{"mode", mode},
		{"submission", o.Submission.json()},
		{"total", total},
		{"steady", steady},
		{"gap", JSONObject{
			{"tps_uplift_pct", num(o.Gap.TPSUpliftPct)},
			{"ttft_p99_change_pct", num(o.Gap.TTFTP99ChangePct)},
			{"retained_frac", num(o.Gap.RetainedFrac)},
			{"too_short_to_window", o.Gap.TooShortToWindow},
		}},
		{"tail_cut", o.TailCut.json()},
		{"early_stopping", o.EarlyStop.json()},
		{"selection", o.selectionJSON()},
	}
	if o.Offline != nil {
		obj = append(obj, JSONField{"offline", o.Offline.json()})
	}
	return obj
}

func (q Quantiles) json() JSONObject {
	return JSONObject{{"p50", num(q.P50)}, {"p90", num(q.P90)}, {"p99", num(q.P99)}}
}

func (t *Totals) json() JSONObject {
	return JSONObject{
		{"n_super_passes", t.NSuperPasses}, {"n_samples", t.NSamples}, {"duration_s", num(t.DurationS)},
		{"out_tokens", t.OutTokens},
		{"ttft_ns", t.TTFT.json()}, {"tpot_ns", t.TPOT.json()}, {"latency_ns", t.Lat.json()},
		{"tps_per_user", num(t.TPSPerUser)}, {"tps_system", num(t.TPSSystem)},
		{"completed_frac", num(t.CompletedFraction)},
	}
}

func (tc TailCut) json() JSONObject {
	var reason any
	if tc.Reason != "" {
		reason = tc.Reason
	}
	return JSONObject{{"applied", tc.Applied}, {"itl_cov", num(tc.CoV)}, {"itl_skew", num(tc.Skew)},
		{"n_tail", tc.NTail}, {"reason", reason}}
}

// gridKey is the grid-convention key of a percentile ("99.9", "99.0").
func gridKey(p float64) string {
	s := strconv.FormatFloat(p, 'f', -1, 64)
	if math.Trunc(p) == p {
		s += ".0"
	}
	return s
}

func (e EarlyStopEstimate) json() JSONObject {
	return JSONObject{{"n", e.N}, {"percentiles", e.percentilesJSON()}}
}

// percentilesJSON maps each grid key ("99.9" … "50.0") to the estimate, or
// null below its floor.
func (e EarlyStopEstimate) percentilesJSON() JSONObject {
	obj := make(JSONObject, len(EarlyStopGrid))
	for i, p := range EarlyStopGrid {
		var v any
		if i < len(e.OK) && e.OK[i] {
			v = e.Values[i]
		}
		obj[i] = JSONField{gridKey(p), v}
	}
	return obj
}

func (s EarlyStopSeries) json() JSONObject {
	return JSONObject{{"ttft_ns", s.TTFT.json()}, {"tpot_ns", s.TPOT.json()}, {"latency_ns", s.Latency.json()}}
}

func (e EarlyStopping) json() JSONObject {
	var steady any
	if e.Steady != nil {
		steady = e.Steady.json()
	}
	return JSONObject{{"confidence", 0.99}, {"tolerance", 0.0}, {"total", e.Total.json()}, {"steady", steady}}
}

func (o *Ours) selectionJSON() JSONObject {
	sel := o.Selection
	states := JSONObject{}
	for m, tm := range TrackedMetrics {
		var v any
		if sel.States[m] != "" {
			v = sel.States[m]
		}
		states = append(states, JSONField{tm.Key, v})
	}
	ens := make([]any, len(sel.Ensemble))
	for i, e := range sel.Ensemble {
		ens[i] = JSONObject{{"tpot_p50", e.P50}, {"tpot_p90", e.P90}}
	}
	cert := sel.Certifying
	if cert == nil {
		cert = []int{}
	}
	var drift any
	if d := sel.Drift; d != nil {
		drift = JSONObject{{"sp_lo", d.Lo}, {"sp_hi", d.Hi}, {"bic_line", num(d.BICLine)},
			{"bic_steps", num(d.BICStep)}, {"drift", d.Drift}, {"up", d.Up}}
	}
	var win any
	if o.WinLo >= 0 {
		win = []int{o.WinLo, o.WinHi}
	}
	var mser any
	if sel.MSERStart >= 0 {
		mser = sel.MSERStart
	}
	an := JSONObject{{"detected", o.Anomaly.Detected}}
	if o.Anomaly.Detected {
		an = append(an, JSONField{"change_point_sp", o.Anomaly.ChangePointSP},
			JSONField{"delta_pct", num(o.Anomaly.DeltaPct)})
	}
	an = append(an, JSONField{"pettitt_p", num(o.Anomaly.PettittP)})
	return JSONObject{
		{"baseline", o.Baseline},
		{"window_sp", win},
		{"states", states},
		{"cov_ensemble", ens},
		{"certifying", cert},
		{"drift_test", drift},
		{"mser_start_sp", mser},
		{"mser_agrees", sel.MSERAgrees},
		{"mser_applied", sel.MSERApplied},
		{"burst", sel.Burst},
		{"ols_p", num(sel.OLSP)},
		{"newey_west_p", num(sel.NeweyWestP)},
		{"corroborated", sel.Corroborated},
		{"concordance", num(sel.Concordance)},
		{"anomaly", an},
	}
}

func (ow *OfflineWindow) json() JSONObject {
	var plateau any
	if ow.Lo >= 0 {
		plateau = []int{ow.Lo, ow.Hi}
	}
	return JSONObject{
		{"bin_s", num(ow.BinS)}, {"n_bins", ow.NBins}, {"plateau_bins", plateau},
		{"start_s", num(ow.StartS)}, {"duration_s", num(ow.DurationS)}, {"tps_system", num(ow.TPS)},
		{"found", ow.Found}, {"low_confidence", ow.LowConfidence},
	}
}
