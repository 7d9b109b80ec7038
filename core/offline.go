package core

import (
	"fmt"
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// OfflineWindow is the steady region of a run whose issue time is
// degenerate (offline / max-throughput, or a Poisson run with a backlog):
// found from the output-token rate over time instead of an issue-time
// window, which would span 0 s (detector spec §17.3, §18.1; design §5.6).
//
// The run [t0, t_end] (first issue to last completion) is cut into NBins
// bins of BinS = min(60 s, span/20) seconds; every successful sample's
// output tokens (as SuperPass.SysTokens counts them) are spread uniformly
// over its decode interval [first token, completion], so Rates[b] is the decode throughput of bin b in tok/s. With
// steady = median(Rates), the plateau [Lo, Hi) is the longest run of
// consecutive bins within ±10 % of steady (the first on ties); TPS is the
// plateau's tokens over its duration. Fewer than 10 bins, or a plateau of
// fewer than 3 bins, is LowConfidence.
type OfflineWindow struct {
	BinS      float64
	NBins     int
	Rates     []float64
	Lo, Hi    int
	StartS    float64 // plateau start, seconds after t0
	DurationS float64
	TPS       float64
	// NSamples is the number of samples decoded entirely inside the plateau.
	NSamples      int
	Found         bool
	LowConfidence bool
}

// offlineBand is the relative band around the median bin rate.
const offlineBand = 0.10

// offlineWindowOf computes the OfflineWindow of s (Found false when no
// sample has a decode interval), leaving out the samples exclude marks
// (failed or impossible timing; nil for none).
func offlineWindowOf(s *Samples, exclude []bool) OfflineWindow {
	ow := OfflineWindow{Lo: -1, Hi: -1, TPS: math.NaN()}
	t0, tEnd := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range s.Len() {
		t0 = min(t0, s.IssueNs[i])
		if at(s.HasComplete, i, false) && !at(exclude, i, false) {
			tEnd = max(tEnd, at(s.CompleteNs, i, 0))
		}
	}
	if tEnd <= t0 {
		return ow
	}
	span := float64(tEnd-t0) / 1e9
	ow.BinS = math.Min(60, span/20)
	ow.NBins = int(math.Ceil(span / ow.BinS))
	if ow.NBins < 1 || ow.NBins > 1<<20 {
		return ow
	}
	tokens := make([]float64, ow.NBins)
	binOf := func(t float64) int { return min(ow.NBins-1, max(0, int(t/ow.BinS))) }
	for i := range s.Len() {
		tok := systemTokens(s, i)
		if tok <= 0 || !at(s.HasFirstToken, i, false) || !at(s.HasComplete, i, false) || at(exclude, i, false) {
			continue
		}
		a := float64(at(s.FirstTokenNs, i, 0)-t0) / 1e9
		b := float64(at(s.CompleteNs, i, 0)-t0) / 1e9
		if !(b > a) {
			tokens[binOf(b)] += float64(tok)
			continue
		}
		rate := float64(tok) / (b - a)
		for k := binOf(a); k <= binOf(b); k++ {
			lo, hi := math.Max(a, float64(k)*ow.BinS), math.Min(b, float64(k+1)*ow.BinS)
			if hi > lo {
				tokens[k] += rate * (hi - lo)
			}
		}
	}
	ow.Rates = make([]float64, ow.NBins)
	for k := range tokens {
		width := math.Min(ow.BinS, span-float64(k)*ow.BinS)
		if width > 0 {
			ow.Rates[k] = tokens[k] / width
		}
	}
	steady := stats.Median(ow.Rates)
	if !(steady > 0) {
		return ow
	}
	bestLo, bestLen := -1, 0
	for k := 0; k < ow.NBins; {
		if math.Abs(ow.Rates[k]-steady)/steady > offlineBand {
			k++
			continue
		}
		j := k
		for j < ow.NBins && math.Abs(ow.Rates[j]-steady)/steady <= offlineBand {
			j++
		}
		if j-k > bestLen {
			bestLo, bestLen = k, j-k
		}
		k = j
	}
	if bestLo < 0 {
		return ow
	}
	ow.Lo, ow.Hi = bestLo, bestLo+bestLen
	ow.StartS = float64(ow.Lo) * ow.BinS
	end := math.Min(span, float64(ow.Hi)*ow.BinS)
	ow.DurationS = end - ow.StartS
	sum := 0.0
	for k := ow.Lo; k < ow.Hi; k++ {
		sum += tokens[k]
	}
	ow.TPS = sum / ow.DurationS
	ow.Found = true
	ow.LowConfidence = ow.NBins < 10 || bestLen < 3
	return ow
}

// offlineStats are an offline run's token-rate plateau and the summary of
// the samples decoded inside it: parameter-independent, memoised on the run.
type offlineStats struct {
	ow         OfflineWindow
	steady     Totals
	es         EarlyStopSeries
	tps        TPS
	ttft, tpot *stats.Summary
}

// offlineStatsOf returns the run's offlineStats, computing them once.
func (run *Run) offlineStatsOf() *offlineStats {
	if m := run.perSample.offline; m != nil {
		return m
	}
	st := &offlineStats{ow: offlineWindowOf(run.samples, run.excluded())}
	if st.ow.Found {
		st.steady, st.es, st.ttft, st.tpot = run.offlineSteady(&st.ow)
		st.tps = offlineTPS(&st.ow, st.steady)
	}
	run.perSample.offline = st
	return st
}

// offlineSteady summarises the samples decoded entirely inside the
// plateau of ow (first token ≥ start, completion ≤ end), with their
// early-stopping estimates and TTFT and TPOT summaries (nil without data).
func (run *Run) offlineSteady(ow *OfflineWindow) (Totals, EarlyStopSeries, *stats.Summary, *stats.Summary) {
	s := run.samples
	t0 := int64(math.MaxInt64)
	for _, t := range s.IssueNs {
		t0 = min(t0, t)
	}
	start := t0 + int64(ow.StartS*1e9)
	end := t0 + int64((ow.StartS+ow.DurationS)*1e9)
	var ttft, tpot, lat []float64
	var out int64
	exclude := run.excluded()
	for i := range s.Len() {
		if !at(s.HasFirstToken, i, false) || !at(s.HasComplete, i, false) || at(exclude, i, false) {
			continue
		}
		ft, ct := at(s.FirstTokenNs, i, 0), at(s.CompleteNs, i, 0)
		if ft < start || ct > end {
			continue
		}
		ttft = append(ttft, float64(at(s.TTFTNs, i, 0)))
		lat = append(lat, float64(at(s.LatencyNs, i, 0)))
		if tok := at(s.OutTokens, i, -1); tok > 0 {
			tpot = append(tpot, float64(ct-ft)/float64(tok))
		}
		out += systemTokens(s, i)
	}
	t := Totals{NSamples: len(lat), DurationS: ow.DurationS, OutTokens: out, TPSSystem: ow.TPS,
		TPSPerUser: math.NaN(), CompletedFraction: 1, RequestsPerS: math.NaN()}
	if len(tpot) > 0 {
		t.TPSPerUser = perUserTPS(stats.Mean(tpot))
	}
	var fs stats.FloatSorter
	ps := [3]pooledOrder{run.pooledOrderOf(ttft, &fs), run.pooledOrderOf(tpot, &fs), run.pooledOrderOf(lat, &fs)}
	es := EarlyStopSeries{TTFT: ps[0].es, TPOT: ps[1].es, Latency: ps[2].es}
	t.TTFT, t.TPOT, t.Lat = ps[0].q, ps[1].q, ps[2].q
	t.NCompleted = len(lat)
	if t.DurationS > 0 {
		t.RequestsPerS = float64(t.NCompleted) / t.DurationS
	}
	return t, es, sortedSummary(ttft, &fs), sortedSummary(tpot, &fs)
}

// offlineTPS is the TPS block of the token-rate plateau of ow: system is
// the plateau's TPS, with the ratio interval (stats.RatioCI) of its bins'
// tokens over their widths as batches, re-centred exactly on it (the two
// ratios differ only by rounding); per-user is the plateau samples' with
// no interval.
func offlineTPS(ow *OfflineWindow, steady Totals) TPS {
	end := ow.StartS + ow.DurationS
	var tokens, widths []float64
	for k := ow.Lo; k < ow.Hi; k++ {
		w := math.Min(float64(k+1)*ow.BinS, end) - math.Max(float64(k)*ow.BinS, ow.StartS)
		tokens = append(tokens, ow.Rates[k]*w)
		widths = append(widths, w)
	}
	t := TPS{System: ow.TPS, PerUser: steady.TPSPerUser, PerUserCI: [2]float64{math.NaN(), math.NaN()},
		PerUserReason: "no per-user interval over a token-rate plateau"}
	r, lo, hi := stats.RatioCI(tokens, widths)
	t.SystemCI, t.SystemReason = supportedCI(ow.TPS, ow.TPS-(r-lo), ow.TPS+(hi-r), len(tokens), "plateau bin(s)")
	return t
}

// windowOffline windows an offline run by its token-rate plateau and sets
// its status: windowable when the plateau is found with confidence and
// lasts at least MinDurFloorS (when the min-duration gate is on, as for
// the super-pass window), insufficient_duration when shorter,
// insufficient_passes when no confident plateau exists, partial_dataset
// without a full super-pass. The issue-time window of the select stage is
// not reported (it spans 0 s).
func (a *analysis) windowOffline() {
	as, p := a.assess, a.p
	as.Mode.Method = "tps_trend"
	as.Window = NoSPRange
	as.Steady = nil
	as.EarlyStop.Steady = nil
	as.TailCut = TailCut{CoV: math.NaN(), Skew: math.NaN(), Reason: "not meaningful for a time window (design §5.4)"}
	st := a.run.offlineStatsOf()
	ow := st.ow
	ow.Rates = slices.Clone(ow.Rates)
	as.Offline = &ow
	a.res.Steady.Found = false
	switch {
	case as.NFull == 0:
		as.Status, as.Verdict = StatusPartialDataset, VerdictNotFound
		as.Reason = "less than one full super-pass"
	case !ow.Found || ow.LowConfidence:
		as.Status, as.Verdict = StatusInsufficientPasses, VerdictNotFound
		as.Reason = fmt.Sprintf("no confident token-rate plateau (%d bins)", ow.NBins)
	case p.MinDuration && ow.DurationS < p.MinDurFloorS:
		as.Status, as.Verdict = StatusInsufficientDuration, VerdictNotFound
		as.Reason = fmt.Sprintf("token-rate plateau %ss < %ss floor", fixed0(ow.DurationS), fixed0(p.MinDurFloorS))
	default:
		as.Status, as.Verdict = StatusWindowable, VerdictSteadyState
	}
	// The issue-time window of the select stage is not the result.
	ss := &a.res.Steady
	ss.Window, ss.ShortWindow, ss.TTFT, ss.TPOT = nil, nil, nil, nil
	if ow.Found {
		steady, es := st.steady, st.es.clone()
		as.Steady = &steady
		as.EarlyStop.Steady = &es
		ss.TTFT, ss.TPOT = cloneSummary(st.ttft), cloneSummary(st.tpot)
	}
}
