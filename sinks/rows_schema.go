package sinks

import (
	"math"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/core"
)

// rowColumns is the layout of the rows table, built on first use (not
// at package initialisation: every process links sinks, few write rows).
func rowColumns() []column[Row] { return rowColumnsOnce.get(buildRowColumns) }

var rowColumnsOnce lazy[[]column[Row]]

// RowsSchema returns the schema of OUT/rows: identity and
// provenance, the run's metadata, one column per detector parameter
// (named as core.Names(), lists as their canonical comma text), the
// analysis outcome, timings. Units are in each field's "unit" metadata;
// RowsColumns documents every column.
func RowsSchema() *batch.Schema { return schemaOf(rowColumns()) }

// lowCardinality reports whether a string parameter is worth a
// dictionary (a switch: a package-level map is built by every process).
func lowCardinality(name string) bool {
	switch name {
	case "compat", "method", "profile", "warmup_mode", "warmup_driver", "trend_gate", "window_sizes", "cov_bounds":
		return true
	}
	return false
}

func buildRowColumns() []column[Row] {
	type R = Row
	cols := []column[R]{
		strFn("run_path", "RunPath", false, func(r *R) string { return OneLine(r.RunPath) }, func(r *R, s string) error { r.RunPath = s; return nil }), // names are data: one line
		strFn("run_rel", "RunRel", false, func(r *R) string { return OneLine(r.RunRel) }, func(r *R, s string) error { r.RunRel = s; return nil }),     // names are data: one line
		strCol("run_id", "RunID", false, func(r *R) *string { return &r.RunID }),
		strCol("config_id", "ConfigID", true, func(r *R) *string { return &r.ConfigID }),
		strCol("preset", "Preset", true, func(r *R) *string { return &r.Preset }),
		strCol("config_label", "ConfigLabel", true, func(r *R) *string { return &r.ConfigLabel }),
		// The writer writes this binary's version; the reader the row's.
		i32Col("schema_version", "", func(*R) int32 { return SchemaVersion }, func(r *R, v int32) { r.SchemaVersion = v }),
		strFn("events_path", "Provenance.EventsPath", false, func(r *R) string { return OneLine(r.Provenance.EventsPath) }, func(r *R, s string) error { r.Provenance.EventsPath = s; return nil }), // names are data: one line
		i64Col("events_size_bytes", "Provenance.EventsSize", func(r *R) *int64 { return &r.Provenance.EventsSize }),
		i64Col("events_mtime_ns", "Provenance.EventsMtimeNs", func(r *R) *int64 { return &r.Provenance.EventsMtimeNs }),
		strCol("events_sha256", "Provenance.EventsSHA256", false, func(r *R) *string { return &r.Provenance.EventsSHA256 }),
		strCol("tool_version", "Provenance.ToolVersion", true, func(r *R) *string { return &r.Provenance.ToolVersion }),
		strCol("tool_commit", "Provenance.ToolCommit", true, func(r *R) *string { return &r.Provenance.ToolCommit }),
		strCol("tokenizer", "Provenance.Tokenizer", true, func(r *R) *string { return &r.Provenance.Tokenizer }),
		strCol("source_format", "Provenance.SourceFormat", true, func(r *R) *string { return &r.Provenance.SourceFormat }),
		strCol("model", "Meta.Model", true, func(r *R) *string { return &r.Meta.Model }),
		strCol("tokenizer_source", "Meta.TokenizerSource", true, func(r *R) *string { return &r.Meta.TokenizerSource }),
		strCol("load_pattern", "Meta.LoadPattern", true, func(r *R) *string { return &r.Meta.LoadPattern }),
		positiveCol("concurrency", "Meta.Concurrency", func(r *R) *int { return &r.Meta.Concurrency }),
		// A target of 0 is "none" in the run's metadata, null in the rows.
		f64Fn("target_qps", "Meta.TargetQPS", func(r *R) float64 { return nonZero(r.Meta.TargetQPS) },
			func(r *R, x float64) { r.Meta.TargetQPS = zeroIfNaN(x) }),
		strCol("dataset_name", "Meta.DatasetName", true, func(r *R) *string { return &r.Meta.DatasetName }),
		positiveCol("dataset_size", "Meta.DatasetSize", func(r *R) *int { return &r.Meta.DatasetSize }),
		strCol("endpoint", "Meta.Endpoint", true, func(r *R) *string { return &r.Meta.Endpoint }),
		// n_samples is null for a run that could not be read: a non-null
		// one is what says the run was (RunMeta.Loaded).
		optI64Col("n_samples", "Meta.NSamples", func(r *R) (int64, bool) { return int64(r.Meta.NSamples), r.Meta.Loaded },
			func(r *R, x int64, ok bool) { r.Meta.NSamples, r.Meta.Loaded = int(x), ok }),
		// The failures are the analysis's failure summary (the JSON's
		// failures.n_failed), null for a run that could not be read.
		optI64Col("n_failed", "NFailed", func(r *R) (int64, bool) { return int64(r.Outcome.NFailed), r.Meta.Loaded },
			func(r *R, x int64, _ bool) { r.Outcome.NFailed = int(x) }),
		f64Fn("failed_frac", "FailedFrac", func(r *R) float64 {
			if !r.Meta.Loaded {
				return math.NaN()
			}
			return r.Outcome.FailedFrac
		}, func(r *R, x float64) { r.Outcome.FailedFrac = x }),
		optI64Col("run_started_ns", "Meta.RunStartedNs", func(r *R) (int64, bool) { return r.Meta.RunStartedNs, r.Meta.HasStart },
			func(r *R, x int64, ok bool) { r.Meta.RunStartedNs, r.Meta.HasStart = x, ok }),
		f64Col("run_duration_s", "Meta.RunDurationS", func(r *R) *float64 { return &r.Meta.RunDurationS }),
	}
	cols = append(cols, paramColumns()...)
	type O = core.Outcome
	s := func(name, src string, f func(o *O) *string) column[R] {
		return strCol(name, src, true, func(r *R) *string { return f(&r.Outcome) })
	}
	f := func(name, src string, g func(o *O) *float64) column[R] {
		return f64Col(name, src, func(r *R) *float64 { return g(&r.Outcome) })
	}
	n := func(name, src string, g func(o *O) *int) column[R] {
		return i64Col(name, src, func(r *R) *int { return g(&r.Outcome) })
	}
	b := func(name, src string, g func(o *O) *bool) column[R] {
		return boolCol(name, src, func(r *R) *bool { return g(&r.Outcome) })
	}
	sp := func(name, src string, g func(o *O) *int) column[R] {
		return spCol(name, src, func(r *R) *int { return g(&r.Outcome) })
	}
	cols = append(cols,
		strCol("status", "Status", true, func(r *R) *core.Status { return &r.Outcome.Status }),
		b("partial", "Partial", func(o *O) *bool { return &o.Partial }),
		strCol("verdict", "Verdict", true, func(r *R) *core.Verdict { return &r.Outcome.Verdict }),
		s("reason", "Reason", func(o *O) *string { return &o.Reason }),
		b("found", "Found", func(o *O) *bool { return &o.Found }),
		n("n_superpasses", "NSuperPasses", func(o *O) *int { return &o.NSuperPasses }),
		n("superpass_size_used", "SuperpassSize", func(o *O) *int { return &o.SuperpassSize }),
		n("warmup_sp", "Warmup", func(o *O) *int { return &o.Warmup }),
		n("n_plateaus", "NPlateaus", func(o *O) *int { return &o.NPlateaus }),
		sp("window_start_sp", "WindowStartSP", func(o *O) *int { return &o.WindowStartSP }),
		sp("window_end_sp", "WindowEndSP", func(o *O) *int { return &o.WindowEndSP }),
		// Null without a window, like its bounds (0 read as "a window of no samples").
		optI64Col("window_samples", "WindowSamples", func(r *R) (int64, bool) {
			return int64(r.Outcome.WindowSamples), r.Outcome.WindowStartSP >= 0
		}, func(r *R, x int64, _ bool) { r.Outcome.WindowSamples = int(x) }),
		f("window_duration_s", "WindowDurationS", func(o *O) *float64 { return &o.WindowDurationS }),
		f("min_duration_s", "MinDurationS", func(o *O) *float64 { return &o.MinDurationS }),
		s("min_duration_dominant", "MinDurationDominant", func(o *O) *string { return &o.MinDurationDominant }),
		b("is_short", "IsShort", func(o *O) *bool { return &o.IsShort }),
		strCol("state_tpot_p50", "StateTPOTP50", true, func(r *R) *core.MetricState { return &r.Outcome.StateTPOTP50 }),
		strCol("state_tpot_p90", "StateTPOTP90", true, func(r *R) *core.MetricState { return &r.Outcome.StateTPOTP90 }),
		f("steady_ttft_p50_ns", "SteadyTTFTP50Ns", func(o *O) *float64 { return &o.SteadyTTFTP50Ns }),
		f("steady_ttft_p90_ns", "SteadyTTFTP90Ns", func(o *O) *float64 { return &o.SteadyTTFTP90Ns }),
		f("steady_ttft_p99_ns", "SteadyTTFTP99Ns", func(o *O) *float64 { return &o.SteadyTTFTP99Ns }),
		f("steady_tpot_p50_ns", "SteadyTPOTP50Ns", func(o *O) *float64 { return &o.SteadyTPOTP50Ns }),
		f("steady_tpot_p90_ns", "SteadyTPOTP90Ns", func(o *O) *float64 { return &o.SteadyTPOTP90Ns }),
		f("steady_tpot_p99_ns", "SteadyTPOTP99Ns", func(o *O) *float64 { return &o.SteadyTPOTP99Ns }),
		f("total_ttft_p50_ns", "TotalTTFTP50Ns", func(o *O) *float64 { return &o.TotalTTFTP50Ns }),
		f("total_ttft_p90_ns", "TotalTTFTP90Ns", func(o *O) *float64 { return &o.TotalTTFTP90Ns }),
		f("total_ttft_p99_ns", "TotalTTFTP99Ns", func(o *O) *float64 { return &o.TotalTTFTP99Ns }),
		f("total_tpot_p50_ns", "TotalTPOTP50Ns", func(o *O) *float64 { return &o.TotalTPOTP50Ns }),
		f("total_tpot_p90_ns", "TotalTPOTP90Ns", func(o *O) *float64 { return &o.TotalTPOTP90Ns }),
		f("total_tpot_p99_ns", "TotalTPOTP99Ns", func(o *O) *float64 { return &o.TotalTPOTP99Ns }),
		f("steady_tps_per_user", "SteadyTPSPerUser", func(o *O) *float64 { return &o.SteadyTPSPerUser }),
		f("steady_tps_per_user_ci_lo", "SteadyTPSPerUserCILo", func(o *O) *float64 { return &o.SteadyTPSPerUserCILo }),
		f("steady_tps_per_user_ci_hi", "SteadyTPSPerUserCIHi", func(o *O) *float64 { return &o.SteadyTPSPerUserCIHi }),
		f("steady_tps_system", "SteadyTPSSystem", func(o *O) *float64 { return &o.SteadyTPSSystem }),
		f("steady_tps_system_ci_lo", "SteadyTPSSystemCILo", func(o *O) *float64 { return &o.SteadyTPSSystemCILo }),
		f("steady_tps_system_ci_hi", "SteadyTPSSystemCIHi", func(o *O) *float64 { return &o.SteadyTPSSystemCIHi }),
		f("total_tps_per_user", "TotalTPSPerUser", func(o *O) *float64 { return &o.TotalTPSPerUser }),
		f("total_tps_system", "TotalTPSSystem", func(o *O) *float64 { return &o.TotalTPSSystem }),
		b("anomaly_detected", "AnomalyDetected", func(o *O) *bool { return &o.AnomalyDetected }),
		sp("change_point_sp", "ChangePointSP", func(o *O) *int { return &o.ChangePointSP }),
		f("anomaly_delta_pct", "AnomalyDeltaPct", func(o *O) *float64 { return &o.AnomalyDeltaPct }),
		strFn("drifting_up", "DriftingUp", true, func(r *R) string { return strings.Join(r.Outcome.DriftingUp, ",") },
			func(r *R, s string) error {
				r.Outcome.DriftingUp = nil
				if s != "" {
					r.Outcome.DriftingUp = strings.Split(s, ",")
				}
				return nil
			}),
		b("tail_cut_applied", "TailCutApplied", func(o *O) *bool { return &o.TailCutApplied }),
		f("early_stop_ttft_p99_ns", "EarlyStopTTFTP99Ns", func(o *O) *float64 { return &o.EarlyStopTTFTP99Ns }),
		f("early_stop_tpot_p99_ns", "EarlyStopTPOTP99Ns", func(o *O) *float64 { return &o.EarlyStopTPOTP99Ns }),
		f("gap_tps_uplift_pct", "GapTPSUpliftPct", func(o *O) *float64 { return &o.GapTPSUpliftPct }),
		f("gap_ttft_p99_change_pct", "GapTTFTP99ChangePct", func(o *O) *float64 { return &o.GapTTFTP99ChangePct }),
		f("gap_retained_frac", "GapRetainedFrac", func(o *O) *float64 { return &o.GapRetainedFrac }),
		i64Col("analysis_ns", "AnalysisNs", func(r *R) *int64 { return &r.AnalysisNs }),
		i64Col("ingest_ns", "IngestNs", func(r *R) *int64 { return &r.IngestNs }),
		f("stop_at_s", "StopAtS", func(o *O) *float64 { return &o.StopAtS }),
		f("stop_saved_frac", "StopSavedFrac", func(o *O) *float64 { return &o.StopSavedFrac }),
		optBoolCol("stop_agrees", "StopAgrees", func(r *R) (bool, bool) { return r.Outcome.StopAgrees, r.Outcome.HasStop() },
			func(r *R, x, _ bool) { r.Outcome.StopAgrees = x }),
		f("stop_saved_s", "StopSavedS", func(o *O) *float64 { return &o.StopSavedS }),
		strCol("cert_ttft", "CertTTFT", true, func(r *R) *core.CertState { return &r.Outcome.CertTTFT }),
		strCol("cert_tpot", "CertTPOT", true, func(r *R) *core.CertState { return &r.Outcome.CertTPOT }),
		strCol("cert_latency", "CertLatency", true, func(r *R) *core.CertState { return &r.Outcome.CertLatency }),
		strCol("cert_tps_per_user", "CertTPSPerUser", true, func(r *R) *core.CertState { return &r.Outcome.CertTPSPerUser }),
		strCol("cert_tps_system", "CertTPSSystem", true, func(r *R) *core.CertState { return &r.Outcome.CertTPSSystem }),
		s("peer_window_source", "PeerSource", func(o *O) *string { return &o.PeerSource }),
		optI64Col("peer_window_start_ns", "PeerStartNs", func(r *R) (int64, bool) { return r.Outcome.PeerStartNs, r.Outcome.HasPeer() },
			func(r *R, x int64, _ bool) { r.Outcome.PeerStartNs = x }),
		optI64Col("peer_window_end_ns", "PeerEndNs", func(r *R) (int64, bool) { return r.Outcome.PeerEndNs, r.Outcome.HasPeer() },
			func(r *R, x int64, _ bool) { r.Outcome.PeerEndNs = x }),
		f64Fn("peer_window_start_diff_s", "PeerStartDiffS", func(r *R) float64 { return peerDiff(&r.Outcome, r.Outcome.PeerStartDiffS) },
			func(r *R, x float64) { r.Outcome.PeerStartDiffS = x }),
		f64Fn("peer_window_end_diff_s", "PeerEndDiffS", func(r *R) float64 { return peerDiff(&r.Outcome, r.Outcome.PeerEndDiffS) },
			func(r *R, x float64) { r.Outcome.PeerEndDiffS = x }),
	)
	return documented(cols, rowDocs())
}

// positiveCol is a count or target of the run's metadata where 0 is
// "none": null in the rows, and null reads back as 0.
func positiveCol(name, src string, field func(*Row) *int) column[Row] {
	return optI64Col(name, src, func(r *Row) (int64, bool) { x := *field(r); return int64(x), x > 0 },
		func(r *Row, x int64, _ bool) { *field(r) = int(x) })
}

// zeroIfNaN is x, 0 when NaN (null).
func zeroIfNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// peerDiff is a difference to the peer window, NaN (null) without one
// (an error row's zero Outcome has none).
func peerDiff(o *core.Outcome, d float64) float64 {
	if !o.HasPeer() {
		return math.NaN()
	}
	return d
}

// nonZero is x, NaN (null) when 0.
func nonZero(x float64) float64 {
	if x == 0 {
		return math.NaN()
	}
	return x
}

// paramCols are the parameter columns alone (ParamFields).
func paramCols() []column[Row] {
	return paramColsOnce.get(func() []column[Row] { return documented(paramColumns(), nil) })
}

var paramColsOnce lazy[[]column[Row]]

// ParamFields are the parameter columns as the rows table types them, in
// core.Names() order. Other tables keyed by parameter set
// (calibration.parquet) use them, so a parameter has one type everywhere.
func ParamFields() []batch.Field { return schemaOf(paramCols()).Fields() }

// AppendParams appends p's values to bs, columns of ParamFields' types
// in their order.
func AppendParams(bs []*batch.Column, p core.Params) {
	r := Row{Params: p}
	for i, c := range paramCols() {
		c.append(bs[i], &r)
	}
}

// paramColumns returns one column per parameter of the parameter table
// (core.ParamSpecs), in core.Names() order, typed by its kind: strings
// (dictionary-encoded when low-cardinality), int64, float64, bool; lists
// as their canonical text. An absent or null cell reads as the field's
// zero value (Row.Has tells an absent column).
func paramColumns() []column[Row] {
	specs := core.ParamSpecs()
	cols := make([]column[Row], 0, len(specs))
	for _, s := range specs {
		name, src := s.Name, "Params."+s.Name
		switch s.Kind {
		case core.KindInteger:
			cols = append(cols, optI64Col(name, src, func(r *Row) (int64, bool) { return int64(*s.Int(&r.Params)), true },
				func(r *Row, x int64, _ bool) { *s.Int(&r.Params) = int(x) }))
		case core.KindNumber:
			cols = append(cols, f64Col(name, src, func(r *Row) *float64 { return s.Float(&r.Params) }))
		case core.KindBool:
			cols = append(cols, optBoolCol(name, src, func(r *Row) (bool, bool) { return *s.Bool(&r.Params), true },
				func(r *Row, x, _ bool) { *s.Bool(&r.Params) = x }))
		default: // text and lists
			cols = append(cols, strFn(name, src, lowCardinality(name), func(r *Row) string { return s.Text(&r.Params) },
				func(r *Row, v string) error { return s.SetText(&r.Params, v) }))
		}
	}
	return cols
}

// appendRow appends r to the columns of rb (laid out as rowColumns).
func appendRow(rb *batch.Batch, r *Row) {
	for i, c := range rowColumns() {
		c.append(rb.Column(i), r)
	}
}
