package core

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Quantiles are p50, p90 and p99 (PercentileLower) of a metric in ns; NaN
// without data.
type Quantiles struct{ P50, P90, P99 float64 }

// Totals summarise a set of super-passes: the whole tracked run (design
// §5.8 "total", drain included) or the reported window.
type Totals struct {
	NSuperPasses int
	NSamples     int // samples issued
	// DurationS is the issue span for a window and the completion span
	// (first issue to last event, drain included) for the whole run, as the
	// live aggregator's whole-run numbers use it.
	DurationS         float64
	OutTokens         int64
	TTFT, TPOT, Lat   Quantiles
	TPSPerUser        float64 // 1e9 / mean TPOT
	TPSSystem         float64 // OutTokens / DurationS
	CompletedFraction float64 // samples with a latency / samples issued
}

// totalsOf summarises sps; whole selects the drain-inclusive span.
func totalsOf(sps []SuperPass, whole bool) Totals {
	t := Totals{NSuperPasses: len(sps), NSamples: countIssued(sps), OutTokens: pooledOutTokens(sps)}
	span := issueSpanNs(sps)
	if whole {
		span = completionSpanNs(sps)
	}
	t.DurationS = float64(span) / 1e9
	ttft := pooled(sps, func(sp *SuperPass) []float64 { return sp.TTFT })
	tpot := pooled(sps, func(sp *SuperPass) []float64 { return sp.TPOT })
	lat := pooled(sps, func(sp *SuperPass) []float64 { return sp.Latency })
	t.TPSPerUser = math.NaN()
	if len(tpot) > 0 {
		t.TPSPerUser = perUserTPS(stats.Sum(tpot) / float64(len(tpot)))
	}
	t.TTFT, t.TPOT, t.Lat = quantilesOf(ttft), quantilesOf(tpot), quantilesOf(lat)
	t.TPSSystem = math.NaN()
	if span > 0 {
		t.TPSSystem = systemTPS(t.OutTokens, span)
	}
	t.CompletedFraction = math.NaN()
	if t.NSamples > 0 {
		t.CompletedFraction = float64(len(lat)) / float64(t.NSamples)
	}
	return t
}

// quantilesOf sorts xs in place and returns its p50/p90/p99.
func quantilesOf(xs []float64) Quantiles {
	if len(xs) == 0 {
		return Quantiles{math.NaN(), math.NaN(), math.NaN()}
	}
	slices.Sort(xs)
	return Quantiles{stats.PercentileLower(xs, 0.50), stats.PercentileLower(xs, 0.90), stats.PercentileLower(xs, 0.99)}
}

// quantiles3 takes the quantiles of a Summary.
func quantiles3(s stats.Summary) Quantiles { return Quantiles{s.P50, s.P90, s.P99} }

// Gap is the total-versus-steady divergence (design §5.8): a large gap
// means excessive ramp for the run length, or a run too short to window.
type Gap struct {
	// TPSUpliftPct is 100·(steady system TPS / total system TPS − 1).
	TPSUpliftPct float64
	// TTFTP99ChangePct is 100·(steady p99 TTFT / total p99 TTFT − 1).
	TTFTP99ChangePct float64
	// RetainedFrac is the fraction of the run's samples inside the window.
	RetainedFrac float64
	// TooShortToWindow is set when the status is insufficient_passes,
	// partial_dataset or insufficient_duration (or not_supported).
	TooShortToWindow bool
}

// pctChange is 100·(a/b − 1), NaN when b ≤ 0 or either is NaN.
func pctChange(a, b float64) float64 {
	if !(b > 0) || math.IsNaN(a) {
		return math.NaN()
	}
	return 100 * (a/b - 1)
}

// gapOf compares the steady window (or an offline run's token-rate
// plateau) with the whole run; NaN fields without a window.
func gapOf(total, steady *Totals) Gap {
	g := Gap{TPSUpliftPct: math.NaN(), TTFTP99ChangePct: math.NaN(), RetainedFrac: math.NaN()}
	if total == nil || steady == nil {
		return g
	}
	g.TPSUpliftPct = pctChange(steady.TPSSystem, total.TPSSystem)
	g.TTFTP99ChangePct = pctChange(steady.TTFT.P99, total.TTFT.P99)
	if total.NSamples > 0 {
		g.RetainedFrac = float64(steady.NSamples) / float64(total.NSamples)
	}
	return g
}
