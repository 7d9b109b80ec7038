package sinks

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/steadysweep/steadysweep/core"
)

// rowColumns is the layout of the rows table, built once.
var rowColumns = buildRowColumns()

// RowsSchema returns the Arrow schema of OUT/rows: identity and
// provenance, the run's metadata, one column per detector parameter
// (named as core.Names(), lists as their canonical comma text), the
// analysis outcome, timings. Units are in each field's "unit" metadata;
// RowsColumns documents every column.
func RowsSchema() *arrow.Schema { return schemaOf(rowColumns) }

// lowCardinality are the string parameters worth a dictionary.
var lowCardinality = map[string]bool{
	"compat": true, "method": true, "profile": true, "warmup_mode": true,
	"warmup_driver": true, "trend_gate": true, "window_sizes": true, "cov_bounds": true,
}

// positive is x and whether it is set (> 0): a count or target of 0 is
// "none" in the run's metadata, null in the rows.
func positive(x int) (int64, bool) { return int64(x), x > 0 }

// loadedCount is a count of a run that was read (null otherwise).
func loadedCount(m *RunMeta, x int) (int64, bool) { return int64(x), m.Loaded }

func buildRowColumns() []column[Row] {
	type R = Row
	cols := []column[R]{
		strCol("run_path", "RunPath", false, func(r *R) string { return OneLine(r.RunPath) }), // names are data: one line
		strCol("run_rel", "RunRel", false, func(r *R) string { return OneLine(r.RunRel) }),
		strCol("run_id", "RunID", false, func(r *R) string { return r.RunID }),
		strCol("config_id", "ConfigID", true, func(r *R) string { return r.ConfigID }),
		strCol("preset", "Preset", true, func(r *R) string { return r.Preset }),
		strCol("config_label", "ConfigLabel", true, func(r *R) string { return r.ConfigLabel }),
		i32Col("schema_version", "", func(*R) int32 { return SchemaVersion }),
		strCol("events_path", "Provenance.EventsPath", false, func(r *R) string { return OneLine(r.Provenance.EventsPath) }),
		i64Col("events_size_bytes", "Provenance.EventsSize", func(r *R) int64 { return r.Provenance.EventsSize }),
		i64Col("events_mtime_ns", "Provenance.EventsMtimeNs", func(r *R) int64 { return r.Provenance.EventsMtimeNs }),
		strCol("events_sha256", "Provenance.EventsSHA256", false, func(r *R) string { return r.Provenance.EventsSHA256 }),
		strCol("tool_version", "Provenance.ToolVersion", true, func(r *R) string { return r.Provenance.ToolVersion }),
		strCol("tool_commit", "Provenance.ToolCommit", true, func(r *R) string { return r.Provenance.ToolCommit }),
		strCol("tokenizer", "Provenance.Tokenizer", true, func(r *R) string { return r.Provenance.Tokenizer }),
		strCol("source_format", "Provenance.SourceFormat", true, func(r *R) string { return r.Provenance.SourceFormat }),
		strCol("model", "Meta.Model", true, func(r *R) string { return r.Meta.Model }),
		strCol("tokenizer_source", "Meta.TokenizerSource", true, func(r *R) string { return r.Meta.TokenizerSource }),
		strCol("load_pattern", "Meta.LoadPattern", true, func(r *R) string { return r.Meta.LoadPattern }),
		optI64Col("concurrency", "Meta.Concurrency", func(r *R) (int64, bool) { return positive(r.Meta.Concurrency) }),
		f64Col("target_qps", "Meta.TargetQPS", func(r *R) float64 { return nonZero(r.Meta.TargetQPS) }),
		strCol("dataset_name", "Meta.DatasetName", true, func(r *R) string { return r.Meta.DatasetName }),
		optI64Col("dataset_size", "Meta.DatasetSize", func(r *R) (int64, bool) { return positive(r.Meta.DatasetSize) }),
		strCol("endpoint", "Meta.Endpoint", true, func(r *R) string { return r.Meta.Endpoint }),
		optI64Col("n_samples", "Meta.NSamples", func(r *R) (int64, bool) { return loadedCount(&r.Meta, r.Meta.NSamples) }),
		// The failures are the analysis's failure summary (the JSON's
		// failures.n_failed), null for a run that could not be read.
		optI64Col("n_failed", "NFailed", func(r *R) (int64, bool) { return int64(r.Outcome.NFailed), r.Meta.Loaded }),
		f64Col("failed_frac", "FailedFrac", func(r *R) float64 {
			if !r.Meta.Loaded {
				return math.NaN()
			}
			return r.Outcome.FailedFrac
		}),
		optI64Col("run_started_ns", "Meta.RunStartedNs", func(r *R) (int64, bool) { return r.Meta.RunStartedNs, r.Meta.HasStart }),
		f64Col("run_duration_s", "Meta.RunDurationS", func(r *R) float64 { return r.Meta.RunDurationS }),
	}
	cols = append(cols, paramColumns()...)
	type O = core.Outcome
	out := func(f func(o *O) string) func(*R) string { return func(r *R) string { return f(&r.Outcome) } }
	outF := func(f func(o *O) float64) func(*R) float64 { return func(r *R) float64 { return f(&r.Outcome) } }
	outI := func(f func(o *O) int) func(*R) int64 { return func(r *R) int64 { return int64(f(&r.Outcome)) } }
	outB := func(f func(o *O) bool) func(*R) bool { return func(r *R) bool { return f(&r.Outcome) } }
	outSP := func(f func(o *O) int) func(*R) int { return func(r *R) int { return f(&r.Outcome) } }
	cols = append(cols,
		strCol("status", "Status", true, out(func(o *O) string { return string(o.Status) })),
		boolCol("partial", "Partial", outB(func(o *O) bool { return o.Partial })),
		strCol("verdict", "Verdict", true, out(func(o *O) string { return string(o.Verdict) })),
		strCol("reason", "Reason", true, out(func(o *O) string { return o.Reason })),
		boolCol("found", "Found", outB(func(o *O) bool { return o.Found })),
		i64Col("n_superpasses", "NSuperPasses", outI(func(o *O) int { return o.NSuperPasses })),
		i64Col("superpass_size_used", "SuperpassSize", outI(func(o *O) int { return o.SuperpassSize })),
		i64Col("warmup_sp", "Warmup", outI(func(o *O) int { return o.Warmup })),
		i64Col("n_plateaus", "NPlateaus", outI(func(o *O) int { return o.NPlateaus })),
		spCol("window_start_sp", "WindowStartSP", outSP(func(o *O) int { return o.WindowStartSP })),
		spCol("window_end_sp", "WindowEndSP", outSP(func(o *O) int { return o.WindowEndSP })),
		// Null without a window, like its bounds (0 read as "a window of no samples").
		optI64Col("window_samples", "WindowSamples", func(r *R) (int64, bool) {
			return int64(r.Outcome.WindowSamples), r.Outcome.WindowStartSP >= 0
		}),
		f64Col("window_duration_s", "WindowDurationS", outF(func(o *O) float64 { return o.WindowDurationS })),
		f64Col("min_duration_s", "MinDurationS", outF(func(o *O) float64 { return o.MinDurationS })),
		strCol("min_duration_dominant", "MinDurationDominant", true, out(func(o *O) string { return o.MinDurationDominant })),
		boolCol("is_short", "IsShort", outB(func(o *O) bool { return o.IsShort })),
		strCol("state_tpot_p50", "StateTPOTP50", true, out(func(o *O) string { return string(o.StateTPOTP50) })),
		strCol("state_tpot_p90", "StateTPOTP90", true, out(func(o *O) string { return string(o.StateTPOTP90) })),
		f64Col("steady_ttft_p50_ns", "SteadyTTFTP50Ns", outF(func(o *O) float64 { return o.SteadyTTFTP50Ns })),
		f64Col("steady_ttft_p90_ns", "SteadyTTFTP90Ns", outF(func(o *O) float64 { return o.SteadyTTFTP90Ns })),
		f64Col("steady_ttft_p99_ns", "SteadyTTFTP99Ns", outF(func(o *O) float64 { return o.SteadyTTFTP99Ns })),
		f64Col("steady_tpot_p50_ns", "SteadyTPOTP50Ns", outF(func(o *O) float64 { return o.SteadyTPOTP50Ns })),
		f64Col("steady_tpot_p90_ns", "SteadyTPOTP90Ns", outF(func(o *O) float64 { return o.SteadyTPOTP90Ns })),
		f64Col("steady_tpot_p99_ns", "SteadyTPOTP99Ns", outF(func(o *O) float64 { return o.SteadyTPOTP99Ns })),
		f64Col("total_ttft_p50_ns", "TotalTTFTP50Ns", outF(func(o *O) float64 { return o.TotalTTFTP50Ns })),
		f64Col("total_ttft_p90_ns", "TotalTTFTP90Ns", outF(func(o *O) float64 { return o.TotalTTFTP90Ns })),
		f64Col("total_ttft_p99_ns", "TotalTTFTP99Ns", outF(func(o *O) float64 { return o.TotalTTFTP99Ns })),
		f64Col("total_tpot_p50_ns", "TotalTPOTP50Ns", outF(func(o *O) float64 { return o.TotalTPOTP50Ns })),
		f64Col("total_tpot_p90_ns", "TotalTPOTP90Ns", outF(func(o *O) float64 { return o.TotalTPOTP90Ns })),
		f64Col("total_tpot_p99_ns", "TotalTPOTP99Ns", outF(func(o *O) float64 { return o.TotalTPOTP99Ns })),
		f64Col("steady_tps_per_user", "SteadyTPSPerUser", outF(func(o *O) float64 { return o.SteadyTPSPerUser })),
		f64Col("steady_tps_per_user_ci_lo", "SteadyTPSPerUserCILo", outF(func(o *O) float64 { return o.SteadyTPSPerUserCILo })),
		f64Col("steady_tps_per_user_ci_hi", "SteadyTPSPerUserCIHi", outF(func(o *O) float64 { return o.SteadyTPSPerUserCIHi })),
		f64Col("steady_tps_system", "SteadyTPSSystem", outF(func(o *O) float64 { return o.SteadyTPSSystem })),
		f64Col("steady_tps_system_ci_lo", "SteadyTPSSystemCILo", outF(func(o *O) float64 { return o.SteadyTPSSystemCILo })),
		f64Col("steady_tps_system_ci_hi", "SteadyTPSSystemCIHi", outF(func(o *O) float64 { return o.SteadyTPSSystemCIHi })),
		f64Col("total_tps_per_user", "TotalTPSPerUser", outF(func(o *O) float64 { return o.TotalTPSPerUser })),
		f64Col("total_tps_system", "TotalTPSSystem", outF(func(o *O) float64 { return o.TotalTPSSystem })),
		boolCol("anomaly_detected", "AnomalyDetected", outB(func(o *O) bool { return o.AnomalyDetected })),
		spCol("change_point_sp", "ChangePointSP", outSP(func(o *O) int { return o.ChangePointSP })),
		f64Col("anomaly_delta_pct", "AnomalyDeltaPct", outF(func(o *O) float64 { return o.AnomalyDeltaPct })),
		strCol("drifting_up", "DriftingUp", true, out(func(o *O) string { return strings.Join(o.DriftingUp, ",") })),
		boolCol("tail_cut_applied", "TailCutApplied", outB(func(o *O) bool { return o.TailCutApplied })),
		f64Col("early_stop_ttft_p99_ns", "EarlyStopTTFTP99Ns", outF(func(o *O) float64 { return o.EarlyStopTTFTP99Ns })),
		f64Col("early_stop_tpot_p99_ns", "EarlyStopTPOTP99Ns", outF(func(o *O) float64 { return o.EarlyStopTPOTP99Ns })),
		f64Col("gap_tps_uplift_pct", "GapTPSUpliftPct", outF(func(o *O) float64 { return o.GapTPSUpliftPct })),
		f64Col("gap_ttft_p99_change_pct", "GapTTFTP99ChangePct", outF(func(o *O) float64 { return o.GapTTFTP99ChangePct })),
		f64Col("gap_retained_frac", "GapRetainedFrac", outF(func(o *O) float64 { return o.GapRetainedFrac })),
		i64Col("analysis_ns", "AnalysisNs", func(r *R) int64 { return r.AnalysisNs }),
		i64Col("ingest_ns", "IngestNs", func(r *R) int64 { return r.IngestNs }),
		f64Col("stop_at_s", "StopAtS", outF(func(o *O) float64 { return o.StopAtS })),
		f64Col("stop_saved_frac", "StopSavedFrac", outF(func(o *O) float64 { return o.StopSavedFrac })),
		optBoolCol("stop_agrees", "StopAgrees", func(r *R) (bool, bool) { return r.Outcome.StopAgrees, r.Outcome.HasStop() }),
		f64Col("stop_saved_s", "StopSavedS", outF(func(o *O) float64 { return o.StopSavedS })),
		strCol("cert_ttft", "CertTTFT", true, out(func(o *O) string { return string(o.CertTTFT) })),
		strCol("cert_tpot", "CertTPOT", true, out(func(o *O) string { return string(o.CertTPOT) })),
		strCol("cert_latency", "CertLatency", true, out(func(o *O) string { return string(o.CertLatency) })),
		strCol("cert_tps_per_user", "CertTPSPerUser", true, out(func(o *O) string { return string(o.CertTPSPerUser) })),
		strCol("cert_tps_system", "CertTPSSystem", true, out(func(o *O) string { return string(o.CertTPSSystem) })),
	)
	return documented(cols, rowDocs)
}

// nonZero is x, NaN (null) when 0.
func nonZero(x float64) float64 {
	if x == 0 {
		return math.NaN()
	}
	return x
}

// paramCols are the parameter columns alone (ParamFields).
var paramCols = documented(paramColumns(), nil)

// ParamFields are the parameter columns as the rows table types them, in
// core.Names() order. Other tables keyed by parameter set
// (calibration.parquet) use them, so a parameter has one type everywhere.
func ParamFields() []arrow.Field { return schemaOf(paramCols).Fields() }

// AppendParams appends p's values to bs, builders of ParamFields' types
// in their order.
func AppendParams(bs []array.Builder, p core.Params) {
	r := Row{Params: p}
	for i, c := range paramCols {
		c.append(bs[i], &r)
	}
}

// paramColumns returns one column per core.Params field, in core.Names()
// order, typed after the field: strings (dictionary-encoded when
// low-cardinality), int64, float64, bool; lists as their canonical text.
func paramColumns() []column[Row] {
	t := reflect.TypeFor[core.Params]()
	cols := make([]column[Row], 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("param")
		src := "Params." + f.Name
		field := func(r *Row) reflect.Value { return reflect.ValueOf(&r.Params).Elem().Field(i) }
		switch f.Type.Kind() {
		case reflect.String:
			cols = append(cols, strCol(name, src, lowCardinality[name], func(r *Row) string { return field(r).String() }))
		case reflect.Int:
			cols = append(cols, i64Col(name, src, func(r *Row) int64 { return field(r).Int() }))
		case reflect.Float64:
			cols = append(cols, f64Col(name, src, func(r *Row) float64 { return field(r).Float() }))
		case reflect.Bool:
			cols = append(cols, boolCol(name, src, func(r *Row) bool { return field(r).Bool() }))
		case reflect.Slice:
			cols = append(cols, strCol(name, src, lowCardinality[name], func(r *Row) string {
				v, _ := r.Params.Get(name)
				return v
			}))
		default:
			panic(fmt.Sprintf("sinks: core.Params.%s has unsupported kind %s", f.Name, f.Type.Kind()))
		}
	}
	return cols
}

// appendRow appends r to the builders of rb (laid out as rowColumns).
func appendRow(rb *array.RecordBuilder, r *Row) {
	for i, c := range rowColumns {
		c.append(rb.Field(i), r)
	}
}
