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
	DurationS float64
	// OutTokens are the output tokens of the successful completions
	// (SuperPass.SysTokens).
	OutTokens       int64
	TTFT, TPOT, Lat Quantiles
	TPSPerUser      float64 // 1e9 / mean TPOT
	TPSSystem       float64 // OutTokens / DurationS
	// NCompleted counts the successful completions; RequestsPerS is
	// NCompleted / DurationS.
	NCompleted   int
	RequestsPerS float64
	// CompletedFraction is NCompleted / samples issued.
	CompletedFraction float64
}

// spanStats are the totals and early-stopping estimates of a span of
// super-passes; callers must not modify them.
type spanStats struct {
	totals Totals
	es     EarlyStopSeries
}

// windowStats are what steadysweep reports of a window: its spanStats,
// the pooled TTFT and TPOT summaries (nil without data) and its TPS block.
type windowStats struct {
	spanStats
	ttft, tpot *stats.Summary
	nTTFT      int
	tps        TPS
}

// pooledSorted is one list pooled over sps in super-pass order and sorted
// once; every quantile, summary and early-stopping estimate of the span
// reads it. (An unstable sort gives the stable sort's order here: the
// values are never NaN or −0, the only values whose order among equals
// could show.)
type pooledSorted struct {
	sorted []float64
	// orderSum is stats.Sum of the values in super-pass order (the
	// reference's means are of the unsorted pooled list).
	orderSum float64
}

func poolSorted(sps []SuperPass, list func(*SuperPass) []float64) pooledSorted {
	xs := pooled(sps, list)
	ps := pooledSorted{orderSum: stats.Sum(xs)}
	slices.Sort(xs)
	ps.sorted = xs
	return ps
}

func (ps pooledSorted) quantiles() Quantiles {
	if len(ps.sorted) == 0 {
		return Quantiles{math.NaN(), math.NaN(), math.NaN()}
	}
	s := ps.sorted
	return Quantiles{stats.PercentileLower(s, 0.50), stats.PercentileLower(s, 0.90), stats.PercentileLower(s, 0.99)}
}

// summary is stats.Summarize of the values (nil without any).
func (ps pooledSorted) summary() *stats.Summary {
	if len(ps.sorted) == 0 {
		return nil
	}
	s := summarizeSorted(ps.sorted)
	return &s
}

// spanStatsOf summarises sps; whole selects the drain-inclusive span.
// Each pooled list is sorted once and shared by the totals and the
// early-stopping estimates.
func (run *Run) spanStatsOf(sps []SuperPass, whole bool) *spanStats {
	ttft := poolSorted(sps, func(sp *SuperPass) []float64 { return sp.TTFT })
	tpot := poolSorted(sps, func(sp *SuperPass) []float64 { return sp.TPOT })
	lat := poolSorted(sps, func(sp *SuperPass) []float64 { return sp.Latency })
	return run.spanStatsFrom(sps, whole, ttft, tpot, lat)
}

func (run *Run) spanStatsFrom(sps []SuperPass, whole bool, ttft, tpot, lat pooledSorted) *spanStats {
	t := Totals{NSuperPasses: len(sps), NSamples: countIssued(sps), OutTokens: pooledSysTokens(sps),
		NCompleted: countCompleted(sps)}
	span := issueSpanNs(sps)
	if whole {
		span = completionSpanNs(sps)
	}
	t.DurationS = float64(span) / 1e9
	t.TPSPerUser = math.NaN()
	if n := len(tpot.sorted); n > 0 {
		t.TPSPerUser = perUserTPS(tpot.orderSum / float64(n))
	}
	t.TTFT, t.TPOT, t.Lat = ttft.quantiles(), tpot.quantiles(), lat.quantiles()
	t.TPSSystem, t.RequestsPerS = math.NaN(), math.NaN()
	if span > 0 {
		t.TPSSystem = systemTPS(t.OutTokens, span)
		t.RequestsPerS = float64(t.NCompleted) / t.DurationS
	}
	t.CompletedFraction = math.NaN()
	if t.NSamples > 0 {
		t.CompletedFraction = float64(t.NCompleted) / float64(t.NSamples)
	}
	es := EarlyStopSeries{
		TTFT:    run.earlyStopEstimate(ttft.sorted),
		TPOT:    run.earlyStopEstimate(tpot.sorted),
		Latency: run.earlyStopEstimate(lat.sorted),
	}
	return &spanStats{totals: t, es: es}
}

// computeWindowStats summarises the window w: one
// sort per pooled list serves the summaries, the totals and the
// early-stopping estimates.
func (run *Run) computeWindowStats(w []SuperPass) *windowStats {
	ttft := poolSorted(w, func(sp *SuperPass) []float64 { return sp.TTFT })
	tpot := poolSorted(w, func(sp *SuperPass) []float64 { return sp.TPOT })
	lat := poolSorted(w, func(sp *SuperPass) []float64 { return sp.Latency })
	return &windowStats{
		spanStats: *run.spanStatsFrom(w, false, ttft, tpot, lat),
		ttft:      ttft.summary(),
		tpot:      tpot.summary(),
		nTTFT:     len(ttft.sorted),
		tps:       windowThroughput(w),
	}
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
	// Reason says why there is no gap ("" when there is one).
	Reason string
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
		g.Reason = "no steady window"
		return g
	}
	g.TPSUpliftPct = pctChange(steady.TPSSystem, total.TPSSystem)
	g.TTFTP99ChangePct = pctChange(steady.TTFT.P99, total.TTFT.P99)
	if total.NSamples > 0 {
		g.RetainedFrac = float64(steady.NSamples) / float64(total.NSamples)
	}
	return g
}
