package core

import "github.com/steadysweep/steadysweep/core/stats"

// WindowInfo describes the reported window (detector spec §10.7);
// indices are post-relative, Hi exclusive.
type WindowInfo struct {
	SPLo, SPHi   int
	NSuperPasses int
	NSamples     int // samples with a TTFT
	PlateauIndex int
	NPlateaus    int
	SkippedShort int
}

// TPS is the throughput block of the reported window (§10.7).
type TPS struct {
	PerUser   float64    // tok/s/user = 1e9 / mean TPOT (ns)
	PerUserCI [2]float64 // [lo, hi]
	System    float64    // tok/s over the issue span (reference: post-first-chunk tokens; steadysweep: SystemTokenCount)
	SystemCI  [2]float64
	// SystemReason and PerUserReason say why a value or its interval is
	// NaN (steadysweep only; "" when both are numbers).
	SystemReason, PerUserReason string
}

// The token counts the throughputs use, as the report and the schema
// name them: system TPS counts every output token (design §5.8), per-user
// TPS is 1e9 / mean TPOT and TPOT divides a request's decode time by the
// tokens after its first chunk.
const (
	SystemTokenCount  = "every output token of the successful completions, first chunk included"
	PerUserTokenCount = "1e9 / mean TPOT; TPOT = decode time / tokens after the first chunk"
)

// perUserTPS is 1e9/meanTPOTNs, 0 if meanTPOTNs ≤ 0.
func perUserTPS(meanTPOTNs float64) float64 {
	if meanTPOTNs > 0 {
		return 1e9 / meanTPOTNs
	}
	return 0
}

// systemTPS is tokens/(double(spanNs)/1e9), 0 if spanNs ≤ 0.
func systemTPS(tokens, spanNs int64) float64 {
	if spanNs > 0 {
		return float64(tokens) / (float64(spanNs) / 1e9)
	}
	return 0
}

// windowTPS computes the TPS block of the window w (§10.7):
//
//	per_user    = 1e9 / (Σ pooled TPOT / count)   (pooled, unsorted order)
//	per_user_ci = [f(H), f(L)], (L, H) = BatchMeansCI(per-sp TPOT means of
//	              super-passes with TPOT) if ≥ 2 of them, else the mean twice;
//	              f(x) = 1e9/x or 0 if x ≤ 0 (bounds inverted)
//	system      = Σ out_tokens / issue span (s), 0 if the span ≤ 0
//	system_ci   = system ± half-width of BatchMeansCI(per-sp rates of
//	              super-passes with LastIssueNs > FirstIssueNs ≥ 0) if ≥ 2
//	              rates, else [system, system]
func windowTPS(w []SuperPass) TPS {
	return windowTPSCached(w, nil, nil)
}

// windowTPSCached is windowTPS using the per-super-pass caches pct of w
// (nil: none): the per-sp TPOT means, and the pooled mean without pooling
// when orderFreeSum proves the compensated sum order-independent.
func windowTPSCached(w []SuperPass, pct []*spPercentiles, sc *scratch) TPS {
	mean, haveMean := 0.0, false
	if pct != nil {
		lists := sc.sortedLists(pct, func(d *spPercentiles) []float64 { return d.sortedTPOT })
		if len(lists) == 0 {
			haveMean = true
		} else if total, ok := orderFreeSum(lists); ok {
			n := 0
			for _, l := range lists {
				n += len(l)
			}
			mean, haveMean = total/float64(n), true
		}
	}
	if !haveMean {
		if tpot := pooled(w, func(sp *SuperPass) []float64 { return sp.TPOT }); len(tpot) > 0 {
			mean = stats.Sum(tpot) / float64(len(tpot))
		}
	}
	var spMeans []float64
	for i := range w {
		if len(w[i].TPOT) > 0 {
			if pct != nil {
				spMeans = append(spMeans, pct[i].tpotMean)
			} else {
				spMeans = append(spMeans, tpotMean(&w[i]))
			}
		}
	}
	lo, hi := mean, mean
	if len(spMeans) >= 2 {
		lo, hi = stats.BatchMeansCI(spMeans)
	}
	t := TPS{PerUser: perUserTPS(mean), PerUserCI: [2]float64{perUserTPS(hi), perUserTPS(lo)}}
	t.System = systemTPS(pooledOutTokens(w), issueSpanNs(w))
	var rates []float64
	for i := range w {
		if w[i].LastIssueNs > w[i].FirstIssueNs && w[i].FirstIssueNs >= 0 {
			rates = append(rates, systemTPS(w[i].OutTokens, w[i].LastIssueNs-w[i].FirstIssueNs))
		}
	}
	t.SystemCI = [2]float64{t.System, t.System}
	if len(rates) >= 2 {
		clo, chi := stats.BatchMeansCI(rates)
		half := (chi - clo) / 2.0
		t.SystemCI = [2]float64{t.System - half, t.System + half}
	}
	return t
}
