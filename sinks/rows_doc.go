package sinks

import (
	"fmt"

	"github.com/steadysweep/steadysweep/core"
)

// ColumnDoc documents one column of a sweep table: its name, Arrow type,
// unit ("" for text, flags and identifiers) and meaning. Notebooks and the
// HTML pages filter on these names; they are stable within a schema
// version.
type ColumnDoc struct{ Name, Type, Unit, Doc string }

// RowsColumns documents every column of OUT/rows in schema order.
func RowsColumns() []ColumnDoc { return columnDocs(rowColumns()) }

// SeriesColumns documents every column of OUT/series in schema order.
func SeriesColumns() []ColumnDoc { return columnDocs(seriesColumns()) }

func columnDocs[T any](cols []column[T]) []ColumnDoc {
	out := make([]ColumnDoc, len(cols))
	for i, c := range cols {
		out[i] = ColumnDoc{Name: c.name, Type: c.typ.String(), Unit: c.unit, Doc: c.doc}
	}
	return out
}

// colDoc is a column's unit and meaning.
type colDoc struct{ unit, doc string }

// documented sets the unit and doc of every column from docs (parameter
// columns from paramDocs). A column without one is a programming error,
// caught when the package loads.
func documented[T any](cols []column[T], docs map[string]colDoc) []column[T] {
	params := paramDocs()
	for i := range cols {
		d, ok := docs[cols[i].name]
		if !ok {
			d, ok = params[cols[i].name]
		}
		if !ok {
			panic(fmt.Sprintf("sinks: column %s is not documented", cols[i].name))
		}
		cols[i].unit, cols[i].doc = d.unit, d.doc
	}
	return cols
}

// Units used in the docs.
const (
	unitNs       = "ns"
	unitEpochNs  = "ns since the Unix epoch"
	unitS        = "s"
	unitTokS     = "tok/s"
	unitTokSUser = "tok/s/user"
	unitQPS      = "req/s"
	unitFrac     = "fraction 0–1"
	unitPct      = "%"
	unitCount    = "count"
	unitBytes    = "bytes"
	unitSP       = "super-pass index"
	unitSPs      = "super-passes"
	unitSamples  = "samples"
)

// rowDocs documents the rows columns other than the parameters. A
// function, not a package-level map: only the first use of the rows
// schema needs it, and every process paid a map literal's building at
// start-up (bench/RESULTS.md §8).
func rowDocs() map[string]colDoc {
	return map[string]colDoc{
		"run_path":          {"", "run directory (or events file) as discovered"},
		"run_rel":           {"", "run path relative to the sweep root, slash form: the run's identity"},
		"run_id":            {"", "first 16 hex digits of SHA-256(run_rel)"},
		"config_id":         {"", "first 16 hex digits of SHA-256 of the parameter set's canonical text"},
		"preset":            {"", "preset the parameter set was built from (default, reference, total, fixed-pct, mser5, aiperf, vllm-bench, sglang, guidellm); empty when not given"},
		"config_label":      {"", "short label of the parameter set within its sweep: compat[/method] and each swept axis abbreviated, e.g. \"steadysweep wb=0.03 md=false\""},
		"schema_version":    {"", "rows schema version (steadysweep schema)"},
		"events_path":       {"", "events file the run resolved to"},
		"events_size_bytes": {unitBytes, "events file size"},
		"events_mtime_ns":   {unitEpochNs, "events file modification time"},
		"events_sha256":     {"", "hex SHA-256 of the events file as stored"},
		"tool_version":      {"", "steadysweep version that wrote the row"},
		"tool_commit":       {"", "steadysweep commit that wrote the row"},
		"tokenizer":         {"", "identity of the output-token counter (words, a tokenizer.json hash, recorded:FORMAT)"},
		"source_format":     {"", "log format read: endpoints, endpoints-legacy, aiperf, guidellm, vllm"},
		"model":             {"", "model name from config.yaml model_params.name (or tokenizer_name), or the tool's own metadata"},
		"tokenizer_source":  {"", "which token counter was used and where it was found (registry key, --tokenizer, file path), or the log's own counts"},
		"load_pattern":      {"", "load pattern: concurrency, poisson, max_throughput, agentic_inference, … (config.yaml settings.load_pattern.type, or the tool's mode mapped onto these)"},
		"concurrency":       {unitCount, "target concurrency (concurrency and agentic runs; a capped open loop's cap); null when none"},
		"target_qps":        {unitQPS, "target request rate (poisson and other rate-driven runs); null when none"},
		"dataset_name":      {"", "performance dataset as recorded (config.yaml datasets[].name, GuideLLM's data, vLLM's dataset_name); empty when not recorded"},
		"dataset_size":      {unitSamples, "samples per dataset pass (run_meta.json, sample_idx_map.json, --dataset-size); null when unknown"},
		"endpoint":          {"", "API type and server host as recorded, e.g. \"openai 10.0.4.17:8000\" (paths and credentials dropped)"},
		"n_samples":         {unitCount, "tracked samples (issued while performance tracking was on); null when the run could not be read"},
		"n_failed":          {unitCount, "tracked samples that failed (an error event, or a completion without data); null when the run could not be read"},
		"failed_frac":       {unitFrac, "n_failed / n_samples; null without samples"},
		"run_started_ns":    {unitEpochNs, "first tracked issue on the wall clock; null when the log's clock is monotonic (the endpoints client, vLLM)"},
		"run_duration_s":    {unitS, "first tracked issue to the last event of a tracked sample (drain included)"},

		"status":                    {"", "coverage status: windowable, insufficient_duration, insufficient_passes, partial_dataset, not_supported, error (empty under compat reference without one)"},
		"partial":                   {"", "the log was truncated or interrupted"},
		"verdict":                   {"", "outcome: STEADY STATE, not found, anomaly, drifting_up, drifting_down; empty for error rows"},
		"reason":                    {"", "why a run has no steady window or could not be analysed"},
		"found":                     {"", "a steady window was found and reported"},
		"n_superpasses":             {unitSPs, "super-passes of the run at the size used"},
		"superpass_size_used":       {unitSamples, "super-pass size of the analysis"},
		"warmup_sp":                 {unitSPs, "super-passes cropped as warmup"},
		"n_plateaus":                {unitCount, "admissible plateaus found"},
		"window_start_sp":           {unitSP, "first super-pass of the reported window (absolute); null without one"},
		"window_end_sp":             {unitSP, "last super-pass of the reported window (absolute, inclusive); null without one"},
		"window_samples":            {unitSamples, "samples issued in the reported window (null without one)"},
		"window_duration_s":         {unitS, "issue span of the reported window"},
		"min_duration_s":            {unitS, "minimum window duration the gate required"},
		"min_duration_dominant":     {"", "which term set the minimum duration: precision, relaxation or floor"},
		"is_short":                  {"", "the window is shorter than the minimum duration"},
		"state_tpot_p50":            {"", "state of tpot_p50 over the window: Plateau, Drifting Up, Drifting Down; empty without one"},
		"state_tpot_p90":            {"", "state of tpot_p90 over the window"},
		"steady_ttft_p50_ns":        {unitNs, "TTFT p50 over the steady window (pooled samples)"},
		"steady_ttft_p90_ns":        {unitNs, "TTFT p90 over the steady window"},
		"steady_ttft_p99_ns":        {unitNs, "TTFT p99 over the steady window"},
		"steady_tpot_p50_ns":        {unitNs, "TPOT p50 over the steady window"},
		"steady_tpot_p90_ns":        {unitNs, "TPOT p90 over the steady window"},
		"steady_tpot_p99_ns":        {unitNs, "TPOT p99 over the steady window"},
		"total_ttft_p50_ns":         {unitNs, "TTFT p50 over the whole tracked run"},
		"total_ttft_p90_ns":         {unitNs, "TTFT p90 over the whole tracked run"},
		"total_ttft_p99_ns":         {unitNs, "TTFT p99 over the whole tracked run"},
		"total_tpot_p50_ns":         {unitNs, "TPOT p50 over the whole tracked run"},
		"total_tpot_p90_ns":         {unitNs, "TPOT p90 over the whole tracked run"},
		"total_tpot_p99_ns":         {unitNs, "TPOT p99 over the whole tracked run"},
		"steady_tps_per_user":       {unitTokSUser, "per-user output rate over the window: 1e9 / mean TPOT"},
		"steady_tps_per_user_ci_lo": {unitTokSUser, "95 % batch-means CI of steady_tps_per_user, low"},
		"steady_tps_per_user_ci_hi": {unitTokSUser, "95 % batch-means CI of steady_tps_per_user, high"},
		"steady_tps_system":         {unitTokS, "system output rate over the window: every output token, first chunk included (--compat reference: tokens after the first chunk) / issue span"},
		"steady_tps_system_ci_lo":   {unitTokS, "95 % batch-means CI of steady_tps_system, low"},
		"steady_tps_system_ci_hi":   {unitTokS, "95 % batch-means CI of steady_tps_system, high"},
		"total_tps_per_user":        {unitTokSUser, "per-user output rate over the whole run"},
		"total_tps_system":          {unitTokS, "system output rate over the whole run (completion span)"},
		"anomaly_detected":          {"", "a later plateau is a level shift from the reported one"},
		"change_point_sp":           {unitSP, "super-pass of the level shift (absolute); null without one"},
		"anomaly_delta_pct":         {unitPct, "TPOT change of the level shift"},
		"drifting_up":               {"", "comma list of the watched metrics trending up after the plateau"},
		"tail_cut_applied":          {"", "the drain tail was cut from the window"},
		"early_stop_ttft_p99_ns":    {unitNs, "LoadGen early-stopping estimate of TTFT p99; null below its sample floor"},
		"early_stop_tpot_p99_ns":    {unitNs, "LoadGen early-stopping estimate of TPOT p99; null below its sample floor"},
		"gap_tps_uplift_pct":        {unitPct, "steady system TPS over the whole run's, minus 100"},
		"gap_ttft_p99_change_pct":   {unitPct, "steady TTFT p99 change from the whole run's"},
		"gap_retained_frac":         {unitFrac, "share of the run's samples inside the window"},
		"analysis_ns":               {unitNs, "wall time of this analysis"},
		"ingest_ns":                 {unitNs, "wall time of loading the run (shared by its rows)"},
		"stop_at_s":                 {unitS, "earliest certifiable stop (core.EarliestStopOf), seconds after the first issue; null without one or when the run's window is not certified"},
		"stop_saved_frac":           {unitFrac, "share of the run's wall time (first issue to last event) after stop_at_s"},
		"stop_agrees":               {"", "the full run's system TPS and TPOT p50 lie inside the stop's 95 % intervals; null without a stop"},
		"stop_saved_s":              {unitS, "wall time after stop_at_s: the GPU time the run could have saved"},
		"peer_window_source":        {"", "the recording tool's own measurement window (GuideLLM's measure window, vllm-bench's steady_state, AIPerf's steady-state block): the tool and fields it came from; empty when the log records none"},
		"peer_window_start_ns":      {unitNs, "start of the tool's own window on the run's clock (epoch ns for GuideLLM and AIPerf); null without one"},
		"peer_window_end_ns":        {unitNs, "end of the tool's own window on the run's clock; null without one"},
		"peer_window_start_diff_s":  {unitS, "our window's first issue minus the tool's window start (positive: ours starts later); null without either window"},
		"peer_window_end_diff_s":    {unitS, "our window's last event minus the tool's window end (positive: ours ends later); null without either window"},
		"cert_ttft":                 {"", certDoc("TTFT")},
		"cert_tpot":                 {"", certDoc("TPOT")},
		"cert_latency":              {"", certDoc("e2e latency")},
		"cert_tps_per_user":         {"", certDoc("per-user TPS")},
		"cert_tps_system":           {"", certDoc("system TPS")},
	}
}

// certDoc documents a per-metric certification column (core/certify.go).
func certDoc(family string) string {
	return "certification of the steady " + family + ": certified, rising or falling (then its steady values are null " +
		"and the reason names the rate per 10 minutes), or not_assessed without a certified window"
}

// seriesDocs documents the series columns (a function: see rowDocs).
func seriesDocs() map[string]colDoc {
	return map[string]colDoc{
		"run_id":         {"", "run id, as in rows"},
		"events_sha256":  {"", "hash of the events file the series came from"},
		"schema_version": {"", "schema version, as in rows"},
		"sp":             {unitSP, "super-pass index (absolute: warmup included)"},
		"superpass_size": {unitSamples, "super-pass size (the run's dataset size)"},
		"n_issued":       {unitSamples, "samples issued in the super-pass"},
		"first_issue_ns": {unitNs, "first issue in the super-pass (the log's clock)"},
		"last_issue_ns":  {unitNs, "last issue in the super-pass (the log's clock)"},
		"ttft_p50_ns":    {unitNs, "TTFT p50 of the super-pass"},
		"ttft_p90_ns":    {unitNs, "TTFT p90 of the super-pass"},
		"ttft_p99_ns":    {unitNs, "TTFT p99 of the super-pass"},
		"tpot_p50_ns":    {unitNs, "TPOT p50 of the super-pass"},
		"tpot_p90_ns":    {unitNs, "TPOT p90 of the super-pass"},
		"tpot_p99_ns":    {unitNs, "TPOT p99 of the super-pass"},
		"tpot_mean_ns":   {unitNs, "mean TPOT of the super-pass (the batch mean behind per-user TPS CIs)"},
		"latency_p50_ns": {unitNs, "end-to-end latency p50 of the super-pass"},
		"latency_p90_ns": {unitNs, "end-to-end latency p90 of the super-pass"},
		"latency_p99_ns": {unitNs, "end-to-end latency p99 of the super-pass"},
		"out_tokens":     {unitCount, "output tokens after the first of the super-pass's samples"},
	}
}

// paramDocs documents the parameter columns from the parameters' one
// description (core.ParamSpecs): unit and meaning, lists noted as comma
// text.
func paramDocs() map[string]colDoc {
	m := map[string]colDoc{}
	for _, p := range core.ParamSpecs() {
		doc := "detector parameter: " + p.Doc
		if p.Kind == core.KindInts || p.Kind == core.KindNumbers {
			doc += " (as comma text)"
		}
		m[p.Name] = colDoc{p.Unit, doc}
	}
	return m
}
