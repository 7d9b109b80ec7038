package sinks

import "github.com/steadysweep/steadysweep/columnar/batch"

// seriesColumns is the layout of the series table, built on first use.
func seriesColumns() []column[SeriesRow] { return seriesColumnsOnce.get(buildSeriesColumns) }

var seriesColumnsOnce lazy[[]column[SeriesRow]]

// SeriesSchema returns the schema of OUT/series: per-super-pass
// trajectories, once per run (independent of the parameter sets);
// SeriesColumns documents every column.
func SeriesSchema() *batch.Schema { return schemaOf(seriesColumns()) }

func buildSeriesColumns() []column[SeriesRow] {
	type S = SeriesRow
	return documented([]column[S]{
		strCol("run_id", "RunID", false, func(s *S) *string { return &s.RunID }),
		strCol("events_sha256", "EventsSHA256", false, func(s *S) *string { return &s.EventsSHA256 }),
		i32Col("schema_version", "", func(*S) int32 { return SchemaVersion }, func(s *S, v int32) { s.SchemaVersion = v }),
		i64Col("sp", "SP", func(s *S) *int { return &s.SP }),
		i64Col("superpass_size", "SuperpassSize", func(s *S) *int { return &s.SuperpassSize }),
		i64Col("n_issued", "NIssued", func(s *S) *int { return &s.NIssued }),
		i64Col("first_issue_ns", "FirstIssueNs", func(s *S) *int64 { return &s.FirstIssueNs }),
		i64Col("last_issue_ns", "LastIssueNs", func(s *S) *int64 { return &s.LastIssueNs }),
		f64Col("ttft_p50_ns", "TTFTP50Ns", func(s *S) *float64 { return &s.TTFTP50Ns }),
		f64Col("ttft_p90_ns", "TTFTP90Ns", func(s *S) *float64 { return &s.TTFTP90Ns }),
		f64Col("ttft_p99_ns", "TTFTP99Ns", func(s *S) *float64 { return &s.TTFTP99Ns }),
		f64Col("tpot_p50_ns", "TPOTP50Ns", func(s *S) *float64 { return &s.TPOTP50Ns }),
		f64Col("tpot_p90_ns", "TPOTP90Ns", func(s *S) *float64 { return &s.TPOTP90Ns }),
		f64Col("tpot_p99_ns", "TPOTP99Ns", func(s *S) *float64 { return &s.TPOTP99Ns }),
		f64Col("tpot_mean_ns", "TPOTMeanNs", func(s *S) *float64 { return &s.TPOTMeanNs }),
		f64Col("latency_p50_ns", "LatencyP50Ns", func(s *S) *float64 { return &s.LatencyP50Ns }),
		f64Col("latency_p90_ns", "LatencyP90Ns", func(s *S) *float64 { return &s.LatencyP90Ns }),
		f64Col("latency_p99_ns", "LatencyP99Ns", func(s *S) *float64 { return &s.LatencyP99Ns }),
		i64Col("out_tokens", "OutTokens", func(s *S) *int64 { return &s.OutTokens }),
	}, seriesDocs())
}

func appendSeries(rb *batch.Batch, s *SeriesRow) {
	for i, c := range seriesColumns() {
		c.append(rb.Column(i), s)
	}
}
