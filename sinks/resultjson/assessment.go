package resultjson

import (
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/submission"
)

// Assessment returns the top-level keys steadysweep adds after the
// reference's, in a fixed order: status, partial, reason, verdict, mode,
// submission, total, steady, gap, tail_cut, early_stopping, selection,
// offline (only for a token-rate window), throughput, failures, timing,
// source, certification, peer_window, earliest_stop (only when the
// caller computed it). Undefined numbers are null, never NaN. It is empty
// for a result without an assessment (the reference's output has no
// source key).
func Assessment(r *core.Result) pyjson.Object { return assessment(&Record{Result: r}) }

func assessment(rec *Record) pyjson.Object {
	r := rec.Result
	as := r.Assessment
	if as == nil {
		return nil
	}
	mode := pyjson.Object{{Key: "name", Value: as.Mode.Name}, {Key: "method", Value: as.Mode.Method}}
	if as.Mode.Name == "poisson" {
		mode = append(mode, pyjson.Field{Key: "offered_qps", Value: num(as.Mode.OfferedQPS)},
			pyjson.Field{Key: "completion_qps", Value: num(as.Mode.CompletionQPS)},
			pyjson.Field{Key: "backlog", Value: as.Mode.Backlog})
	}
	obj := pyjson.Object{
		{Key: "status", Value: string(as.Status)},
		{Key: "partial", Value: as.Partial},
		{Key: "reason", Value: str(as.Reason)},
		{Key: "verdict", Value: string(as.Verdict)},
		{Key: "mode", Value: mode},
		{Key: "submission", Value: submission.Block(as.Submission)},
		{Key: "total", Value: totals(as.Total)},
		{Key: "steady", Value: totals(as.Steady)},
		{Key: "gap", Value: pyjson.Object{
			{Key: "tps_uplift_pct", Value: num(as.Gap.TPSUpliftPct)},
			{Key: "ttft_p99_change_pct", Value: num(as.Gap.TTFTP99ChangePct)},
			{Key: "retained_frac", Value: num(as.Gap.RetainedFrac)},
			{Key: "too_short_to_window", Value: as.Gap.TooShortToWindow},
			{Key: "reason", Value: str(as.Gap.Reason)},
		}},
		{Key: "tail_cut", Value: tailCut(as.TailCut)},
		{Key: "early_stopping", Value: earlyStopping(as.EarlyStop)},
		{Key: "selection", Value: selection(rec)},
	}
	if as.Offline != nil {
		obj = append(obj, pyjson.Field{Key: "offline", Value: offline(as.Offline)})
	}
	obj = append(obj, pyjson.Field{Key: "throughput", Value: throughput(rec)},
		pyjson.Field{Key: "failures", Value: failures(as.Failures)},
		pyjson.Field{Key: "timing", Value: timing(as.Timing)},
		pyjson.Field{Key: "source", Value: source(r.RunInfo())},
		pyjson.Field{Key: "certification", Value: certification(as.Certification)},
		pyjson.Field{Key: "peer_window", Value: peerWindow(r)})
	if r.EarliestStop != nil {
		obj = append(obj, pyjson.Field{Key: "earliest_stop", Value: EarliestStop(r.EarliestStop)})
	}
	return obj
}

// certification is each reported metric family's own certification
// (core/certify.go): state, the span that decided, the rate in percent
// per 10 minutes, the OLS p-value, the relative noise and the reason a
// family is not certified (null when it is).
func certification(c *core.Certification) any {
	if c == nil {
		return nil
	}
	fams := make(pyjson.Object, len(c.Metrics))
	for i, m := range c.Metrics {
		fams[i] = pyjson.Field{Key: m.Family, Value: pyjson.Object{
			{Key: "state", Value: string(m.State)},
			{Key: "span", Value: str(m.Span)},
			{Key: "pct_per_10min", Value: num(m.PctPer10Min)},
			{Key: "p", Value: num(m.P)},
			{Key: "noise_pct", Value: num(m.NoisePct)},
			{Key: "reason", Value: str(m.Reason)},
		}}
	}
	return pyjson.Object{{Key: "basis", Value: str(c.Basis)}, {Key: "metrics", Value: fams}}
}

// throughput is the reported throughput with its intervals and the reason
// for every null, and what it was measured over: the issue-time window,
// an offline run's token-rate plateau, or nothing (null values).
func throughput(rec *Record) pyjson.Object {
	t, _ := rec.Throughput()
	rate := func(r Rate) pyjson.Object {
		return pyjson.Object{{Key: "value", Value: num(r.Value)}, {Key: "ci95", Value: interval(r.CI95)}, {Key: "reason", Value: str(r.Reason)}}
	}
	return pyjson.Object{
		{Key: "basis", Value: str(t.Basis)},
		{Key: "estimator", Value: "ratio of sums over super-passes (token-rate bins offline); 95% delta-method interval"},
		{Key: "system", Value: rate(t.System)},
		{Key: "per_user", Value: rate(t.PerUser)},
		{Key: "token_count", Value: pyjson.Object{
			{Key: "system", Value: core.SystemTokenCount},
			{Key: "per_user", Value: core.PerUserTokenCount},
		}},
	}
}

// failures is the failure summary: counts by kind over the run, the
// requests in flight at the end, and the window's own rate.
func failures(f core.Failures) pyjson.Object {
	kinds := make(pyjson.Object, len(f.ByKind))
	for i, k := range f.ByKind {
		kinds[i] = pyjson.Field{Key: k.Kind.String(), Value: k.N}
	}
	var win any
	if w := f.Window; w != nil {
		win = pyjson.Object{{Key: "n_issued", Value: w.NIssued}, {Key: "n_failed", Value: w.NFailed},
			{Key: "failed_frac", Value: num(w.Frac)}}
	}
	return pyjson.Object{
		{Key: "n_issued", Value: f.NIssued}, {Key: "n_failed", Value: f.NFailed}, {Key: "failed_frac", Value: num(f.Frac)},
		{Key: "by_kind", Value: kinds}, {Key: "n_incomplete", Value: f.NIncomplete}, {Key: "window", Value: win},
	}
}

// timing is the impossible-timing report: per kind the count and first
// line, the samples excluded and whether the log is trusted.
func timing(t core.TimingReport) pyjson.Object {
	kinds := make([]any, len(t.Kinds))
	for i, k := range t.Kinds {
		kinds[i] = pyjson.Object{{Key: "kind", Value: k.Kind}, {Key: "count", Value: k.Count}, {Key: "first_line", Value: k.FirstLine}}
	}
	return pyjson.Object{{Key: "kinds", Value: kinds}, {Key: "n_excluded", Value: t.NExcluded},
		{Key: "excluded_frac", Value: num(t.Frac)}, {Key: "max_frac", Value: t.MaxFrac()}, {Key: "trusted", Value: t.Trusted}}
}

// source says what the samples were read from: the log format
// ("endpoints" for runs read before formats were recorded), the file (with
// "#N" for one benchmark of a multi-benchmark report) and the recording
// tool's version where its log says it (null otherwise), and the
// whole-run summaries of per-request fields the tool records that have no
// column (core.RecordedStat: field, unit, n, sum, mean, max; an empty
// list when none).
func source(info core.RunInfo) pyjson.Object {
	format := info.SourceFormat
	if format == "" {
		format = "endpoints"
	}
	recorded := make([]any, len(info.Recorded))
	for i, r := range info.Recorded {
		recorded[i] = pyjson.Object{{Key: "field", Value: r.Field}, {Key: "unit", Value: r.Unit}, {Key: "n", Value: r.N},
			{Key: "sum", Value: num(r.Sum)}, {Key: "mean", Value: num(r.Mean())}, {Key: "max", Value: num(r.Max)}}
	}
	return pyjson.Object{{Key: "format", Value: format}, {Key: "path", Value: str(info.SourcePath)},
		{Key: "tool_version", Value: str(info.ToolVersion)}, {Key: "recorded", Value: recorded}}
}

// TotalsField is one number of a totals block (core.Totals): its JSON
// key, the quantile key under it ("" for a number of its own), whether it
// is a count (written as an integer) and its value in a block. Both the
// JSON and the run page's steady-vs-total table are laid out by
// TotalsFields.
type TotalsField struct {
	Key, Quantile string
	Count         bool
	Of            func(*core.Totals) float64
}

// TotalsFields are the numbers of a totals block in the JSON's order.
var TotalsFields = []TotalsField{
	{Key: "n_super_passes", Count: true, Of: func(t *core.Totals) float64 { return float64(t.NSuperPasses) }},
	{Key: "n_samples", Count: true, Of: func(t *core.Totals) float64 { return float64(t.NSamples) }},
	{Key: "duration_s", Of: func(t *core.Totals) float64 { return t.DurationS }},
	{Key: "out_tokens", Count: true, Of: func(t *core.Totals) float64 { return float64(t.OutTokens) }},
	{Key: "ttft_ns", Quantile: "p50", Of: func(t *core.Totals) float64 { return t.TTFT.P50 }},
	{Key: "ttft_ns", Quantile: "p90", Of: func(t *core.Totals) float64 { return t.TTFT.P90 }},
	{Key: "ttft_ns", Quantile: "p99", Of: func(t *core.Totals) float64 { return t.TTFT.P99 }},
	{Key: "tpot_ns", Quantile: "p50", Of: func(t *core.Totals) float64 { return t.TPOT.P50 }},
	{Key: "tpot_ns", Quantile: "p90", Of: func(t *core.Totals) float64 { return t.TPOT.P90 }},
	{Key: "tpot_ns", Quantile: "p99", Of: func(t *core.Totals) float64 { return t.TPOT.P99 }},
	{Key: "latency_ns", Quantile: "p50", Of: func(t *core.Totals) float64 { return t.Lat.P50 }},
	{Key: "latency_ns", Quantile: "p90", Of: func(t *core.Totals) float64 { return t.Lat.P90 }},
	{Key: "latency_ns", Quantile: "p99", Of: func(t *core.Totals) float64 { return t.Lat.P99 }},
	{Key: "tps_per_user", Of: func(t *core.Totals) float64 { return t.TPSPerUser }},
	{Key: "tps_system", Of: func(t *core.Totals) float64 { return t.TPSSystem }},
	{Key: "n_completed", Count: true, Of: func(t *core.Totals) float64 { return float64(t.NCompleted) }},
	{Key: "requests_per_s", Of: func(t *core.Totals) float64 { return t.RequestsPerS }},
	{Key: "completed_frac", Of: func(t *core.Totals) float64 { return t.CompletedFraction }},
}

// totals is a Totals block laid out by TotalsFields (a count an integer,
// any other number null when not finite), null for nil.
func totals(t *core.Totals) any {
	if t == nil {
		return nil
	}
	obj := pyjson.Object{}
	for _, f := range TotalsFields {
		var v any = num(f.Of(t))
		if f.Count {
			v = int64(f.Of(t))
		}
		if f.Quantile == "" {
			obj = append(obj, pyjson.Field{Key: f.Key, Value: v})
			continue
		}
		if n := len(obj); n == 0 || obj[n-1].Key != f.Key {
			obj = append(obj, pyjson.Field{Key: f.Key, Value: pyjson.Object{}})
		}
		q := &obj[len(obj)-1]
		q.Value = append(q.Value.(pyjson.Object), pyjson.Field{Key: f.Quantile, Value: v})
	}
	return obj
}

func tailCut(tc core.TailCut) pyjson.Object {
	return pyjson.Object{{Key: "applied", Value: tc.Applied}, {Key: "itl_cov", Value: num(tc.CoV)},
		{Key: "itl_skew", Value: num(tc.Skew)}, {Key: "n_tail", Value: tc.NTail}, {Key: "reason", Value: str(tc.Reason)}}
}

func earlyStopSeries(s core.EarlyStopSeries) pyjson.Object {
	est := func(e core.EarlyStopEstimate) pyjson.Object {
		return pyjson.Object{{Key: "n", Value: e.N}, {Key: "percentiles", Value: submission.EarlyStopPercentiles(e)}}
	}
	return pyjson.Object{{Key: "ttft_ns", Value: est(s.TTFT)}, {Key: "tpot_ns", Value: est(s.TPOT)},
		{Key: "latency_ns", Value: est(s.Latency)}}
}

func earlyStopping(e core.EarlyStopping) pyjson.Object {
	var steady any
	if e.Steady != nil {
		steady = earlyStopSeries(*e.Steady)
	}
	return pyjson.Object{{Key: "confidence", Value: 0.99}, {Key: "tolerance", Value: 0.0},
		{Key: "total", Value: earlyStopSeries(e.Total)}, {Key: "steady", Value: steady}}
}

// selection is the selection record with the level shift in absolute
// super-passes.
func selection(rec *Record) pyjson.Object {
	r := rec.Result
	as := r.Assessment
	sel := as.Selection
	states := pyjson.Object{}
	for m, tm := range core.Metrics() {
		states = append(states, pyjson.Field{Key: tm.Key, Value: str(sel.States[m])})
	}
	ens := make([]any, len(sel.Ensemble))
	for i, e := range sel.Ensemble {
		ens[i] = pyjson.Object{{Key: "tpot_p50", Value: e.P50}, {Key: "tpot_p90", Value: e.P90}}
	}
	cert := sel.Certifying
	if cert == nil {
		cert = []int{}
	}
	// Super-pass spans of this block are absolute, first..last inclusive:
	// the convention of the text, the rows and the submission block (the
	// reference's steady_state.window keeps its post-warmup [sp_lo, sp_hi)).
	var drift any
	if d := sel.Drift; d != nil {
		drift = pyjson.Object{{Key: "sp", Value: spSpan(d.SP)}, {Key: "bic_line", Value: num(d.BICLine)},
			{Key: "bic_steps", Value: num(d.BICStep)}, {Key: "drift", Value: d.Drift}, {Key: "up", Value: d.Up}}
	}
	var win any
	if first, last, ok := rec.Window(); ok {
		win = []int{first, last}
	}
	var settling any
	if st := sel.Settling; st != nil {
		var start any
		if st.Settled {
			start = int(st.Start)
		}
		settling = pyjson.Object{{Key: "detected", Value: st.Detected}, {Key: "settled", Value: st.Settled},
			{Key: "start_sp", Value: start}, {Key: "kind", Value: st.Kind}, {Key: "tau_sp", Value: num(st.Tau)},
			{Key: "up", Value: st.Up}, {Key: "rel_amp", Value: num(st.RelAmp)},
			{Key: "bic_curve", Value: num(st.BICCurve)}, {Key: "bic_alt", Value: num(st.BICAlt)}}
	}
	var mser any
	if sel.MSERStart >= 0 {
		mser = int(sel.MSERStart)
	}
	a := r.Steady.Anomaly
	an := pyjson.Object{{Key: "detected", Value: a.Detected}}
	if a.Detected {
		dir := "up"
		if a.DeltaPct < 0 {
			dir = "down"
		}
		an = append(an, pyjson.Field{Key: "change_point_sp", Value: r.Warmup + a.ChangePointSP},
			pyjson.Field{Key: "delta_pct", Value: num(a.DeltaPct)}, pyjson.Field{Key: "direction", Value: dir})
		if a.TailSuperPasses > 0 { // a short-tail shift: how long it lasted
			an = append(an, pyjson.Field{Key: "tail_sp", Value: a.TailSuperPasses},
				pyjson.Field{Key: "tail_s", Value: num(a.TailDurationS)})
		}
	}
	var pettittP any
	if a.Pettitt != nil {
		pettittP = num(a.Pettitt.P)
	}
	an = append(an, pyjson.Field{Key: "pettitt_p", Value: pettittP})
	return pyjson.Object{
		{Key: "baseline", Value: string(as.Baseline)},
		{Key: "window_sp", Value: win},
		{Key: "states", Value: states},
		{Key: "cov_ensemble", Value: ens},
		{Key: "certifying", Value: cert},
		{Key: "drift_test", Value: drift},
		{Key: "settling", Value: settling},
		{Key: "mser_start_sp", Value: mser},
		{Key: "mser_agrees", Value: sel.MSERAgrees},
		{Key: "mser_applied", Value: sel.MSERApplied},
		{Key: "head_trim_applied", Value: sel.HeadTrimApplied},
		{Key: "tail_trim_applied", Value: sel.TailTrimApplied},
		{Key: "burst", Value: sel.Burst},
		{Key: "drift_guard", Value: driftGuard(sel.DriftGuard)},
		{Key: "ols_p", Value: num(sel.OLSP)},
		{Key: "newey_west_p", Value: num(sel.NeweyWestP)},
		{Key: "corroborated", Value: sel.Corroborated},
		{Key: "concordance", Value: num(sel.Concordance)},
		{Key: "anomaly", Value: an},
	}
}

// spSpan is r as the JSON writes a span: [first, last], absolute and
// inclusive.
func spSpan(r core.SPRange) []int { return []int{int(r.Lo), int(r.Last())} }

// driftGuard is the drift guard's record, null when it did not run.
func driftGuard(dg *core.DriftGuard) any {
	if dg == nil {
		return nil
	}
	return pyjson.Object{
		{Key: "fired", Value: dg.Fired}, {Key: "metric", Value: dg.Metric}, {Key: "whole_run", Value: dg.WholeRun},
		{Key: "sp", Value: spSpan(dg.SP)}, {Key: "up", Value: dg.Up},
		{Key: "ols_p", Value: num(dg.P)}, {Key: "rel_drift", Value: num(dg.RelDrift)},
		{Key: "bic_line", Value: num(dg.BICLine)}, {Key: "bic_alt", Value: num(dg.BICAlt)},
	}
}

func offline(ow *core.OfflineWindow) pyjson.Object {
	var plateau any
	if ow.Lo >= 0 {
		plateau = []int{ow.Lo, ow.Hi}
	}
	return pyjson.Object{
		{Key: "bin_s", Value: num(ow.BinS)}, {Key: "n_bins", Value: ow.NBins}, {Key: "plateau_bins", Value: plateau},
		{Key: "start_s", Value: num(ow.StartS)}, {Key: "duration_s", Value: num(ow.DurationS)},
		{Key: "tps_system", Value: num(ow.TPS)}, {Key: "found", Value: ow.Found},
		{Key: "low_confidence", Value: ow.LowConfidence},
	}
}
