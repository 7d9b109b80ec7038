package compare

import (
	"math"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// Metric is one compared steady metric.
type Metric struct {
	// Key names it in the JSON and the text ("tpot_p50", "tps_system").
	Key string
	// Unit is the unit of the JSON values; TextUnit and TextScale those of
	// the text (ns shown as ms).
	Unit, TextUnit string
	TextScale      float64
	// HigherIsBetter is true for throughputs, false for latencies.
	HigherIsBetter bool
	// steady is the reported value (and its reported CI, NaN when none or
	// not applicable) of an outcome; batch the per-super-pass value of a
	// series row (NaN when the super-pass has none).
	steady func(o *core.Outcome) (v, ciLo, ciHi float64, hasCI bool)
	batch  func(s *sinks.SeriesRow) float64
}

// Metrics are the compared metrics, in report order.
func Metrics() []Metric {
	lat := func(key string, steady func(o *core.Outcome) float64, batch func(s *sinks.SeriesRow) float64) Metric {
		return Metric{Key: key, Unit: "ns", TextUnit: "ms", TextScale: 1e-6, batch: batch,
			steady: func(o *core.Outcome) (float64, float64, float64, bool) { return steady(o), 0, 0, false }}
	}
	return []Metric{
		lat("ttft_p50", func(o *core.Outcome) float64 { return o.SteadyTTFTP50Ns }, func(s *sinks.SeriesRow) float64 { return s.TTFTP50Ns }),
		lat("ttft_p90", func(o *core.Outcome) float64 { return o.SteadyTTFTP90Ns }, func(s *sinks.SeriesRow) float64 { return s.TTFTP90Ns }),
		lat("ttft_p99", func(o *core.Outcome) float64 { return o.SteadyTTFTP99Ns }, func(s *sinks.SeriesRow) float64 { return s.TTFTP99Ns }),
		lat("tpot_p50", func(o *core.Outcome) float64 { return o.SteadyTPOTP50Ns }, func(s *sinks.SeriesRow) float64 { return s.TPOTP50Ns }),
		lat("tpot_p90", func(o *core.Outcome) float64 { return o.SteadyTPOTP90Ns }, func(s *sinks.SeriesRow) float64 { return s.TPOTP90Ns }),
		lat("tpot_p99", func(o *core.Outcome) float64 { return o.SteadyTPOTP99Ns }, func(s *sinks.SeriesRow) float64 { return s.TPOTP99Ns }),
		{Key: "tps_per_user", Unit: "tok/s/user", TextUnit: "tok/s/u", TextScale: 1, HigherIsBetter: true,
			steady: func(o *core.Outcome) (float64, float64, float64, bool) {
				return o.SteadyTPSPerUser, o.SteadyTPSPerUserCILo, o.SteadyTPSPerUserCIHi, true
			},
			batch: func(s *sinks.SeriesRow) float64 { return perUserRate(s.TPOTMeanNs) }},
		{Key: "tps_system", Unit: "tok/s", TextUnit: "tok/s", TextScale: 1, HigherIsBetter: true,
			steady: func(o *core.Outcome) (float64, float64, float64, bool) {
				return o.SteadyTPSSystem, o.SteadyTPSSystemCILo, o.SteadyTPSSystemCIHi, true
			},
			batch: systemRate},
	}
}

// perUserRate is a super-pass's per-user TPS, 1e9 / its mean TPOT (NaN
// without a TPOT), as core's per-user TPS is of the window's.
func perUserRate(meanTPOTNs float64) float64 {
	if !(meanTPOTNs > 0) {
		return math.NaN()
	}
	return 1e9 / meanTPOTNs
}

// systemRate is a super-pass's system TPS: its output tokens over its
// issue span (NaN for an empty or one-instant span), the per-super-pass
// rate core's system TPS interval is built from.
func systemRate(s *sinks.SeriesRow) float64 {
	if s.FirstIssueNs < 0 || s.LastIssueNs <= s.FirstIssueNs {
		return math.NaN()
	}
	return float64(s.OutTokens) / (float64(s.LastIssueNs-s.FirstIssueNs) / 1e9)
}
