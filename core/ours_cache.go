package core

import (
	"sync"

	"github.com/steadysweep/steadysweep/core/stats"
)

// A parameter sweep analyses one rollup under many parameter sets; the
// whole-run totals and early-stopping estimates do not depend on the
// parameters and the window ones repeat across sets, so both are memoised.
// The caches are bounded and keyed by the identity of the super-pass
// sub-slice (first element's address and length), which is sound because
// a rollup must not be modified once built (Rollup).

type spanKey struct {
	first *SuperPass
	n     int
	whole bool
}

type spanStats struct {
	totals Totals
	es     EarlyStopSeries
}

// spanCacheSize bounds the memo (FIFO eviction); each entry is small but
// keeps its rollup reachable until evicted.
const spanCacheSize = 256

var spanCache struct {
	sync.Mutex
	m     map[spanKey]*spanStats
	order []spanKey
}

// spanStatsOf returns the totals and early-stopping estimates of sps
// (whole: drain-inclusive duration), memoised.
func spanStatsOf(sps []SuperPass, whole bool) *spanStats {
	if len(sps) == 0 {
		return &spanStats{totals: totalsOf(sps, whole), es: earlyStoppingOf(sps)}
	}
	k := spanKey{&sps[0], len(sps), whole}
	spanCache.Lock()
	if v, ok := spanCache.m[k]; ok {
		spanCache.Unlock()
		return v
	}
	spanCache.Unlock()
	v := &spanStats{totals: totalsOf(sps, whole), es: earlyStoppingOf(sps)}
	spanCache.Lock()
	if spanCache.m == nil {
		spanCache.m = map[spanKey]*spanStats{}
	}
	if _, ok := spanCache.m[k]; !ok {
		if len(spanCache.order) >= spanCacheSize {
			delete(spanCache.m, spanCache.order[0])
			spanCache.order = spanCache.order[1:]
		}
		spanCache.m[k] = v
		spanCache.order = append(spanCache.order, k)
	}
	spanCache.Unlock()
	return v
}

type budgetKey struct {
	n int
	p float64
}

// budgetCache memoises LoadGen's over-latency budget t(n, p) at c = 0.99,
// d = 0 (a pure function; bounded by clearing when full).
var budgetCache struct {
	sync.Mutex
	m map[budgetKey]int
}

const budgetCacheSize = 1 << 16

// earlyStopBudget is stats.EarlyStoppingOverLatencyBudget(n, p, 0.99, 0)
// memoised; t = 0 means below the floor.
func earlyStopBudget(n int, p float64) int {
	k := budgetKey{n, p}
	budgetCache.Lock()
	if t, ok := budgetCache.m[k]; ok {
		budgetCache.Unlock()
		return t
	}
	budgetCache.Unlock()
	t, ok := stats.EarlyStoppingOverLatencyBudget(n, p, stats.EarlyStoppingConfidence, stats.EarlyStoppingTolerance)
	if !ok {
		t = 0
	}
	budgetCache.Lock()
	if budgetCache.m == nil || len(budgetCache.m) >= budgetCacheSize {
		budgetCache.m = map[budgetKey]int{}
	}
	budgetCache.m[k] = t
	budgetCache.Unlock()
	return t
}

// windowSummary is the pooled TTFT and TPOT summaries (nil without data)
// and the TPS block of a window; callers must not modify them.
type windowSummary struct {
	ttft, tpot *stats.Summary
	nTTFT      int
	tps        TPS
}

var winCache struct {
	sync.Mutex
	m     map[spanKey]*windowSummary
	order []spanKey
}

// windowSummaryOf computes (memoised) the windowSummary of w.
func windowSummaryOf(w []SuperPass) *windowSummary {
	var k spanKey
	if len(w) > 0 {
		k = spanKey{&w[0], len(w), false}
		winCache.Lock()
		if v, ok := winCache.m[k]; ok {
			winCache.Unlock()
			return v
		}
		winCache.Unlock()
	}
	v := &windowSummary{tps: windowTPS(w)}
	ttft := pooled(w, func(sp *SuperPass) []float64 { return sp.TTFT })
	tpot := pooled(w, func(sp *SuperPass) []float64 { return sp.TPOT })
	v.nTTFT = len(ttft)
	if len(ttft) > 0 {
		s := stats.Summarize(ttft)
		v.ttft = &s
	}
	if len(tpot) > 0 {
		s := stats.Summarize(tpot)
		v.tpot = &s
	}
	if len(w) == 0 {
		return v
	}
	winCache.Lock()
	if winCache.m == nil {
		winCache.m = map[spanKey]*windowSummary{}
	}
	if _, ok := winCache.m[k]; !ok {
		if len(winCache.order) >= spanCacheSize {
			delete(winCache.m, winCache.order[0])
			winCache.order = winCache.order[1:]
		}
		winCache.m[k] = v
		winCache.order = append(winCache.order, k)
	}
	winCache.Unlock()
	return v
}
