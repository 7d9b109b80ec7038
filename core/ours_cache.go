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

// spanCacheSize bounds each span memo (FIFO eviction); each entry is
// small but keeps its rollup reachable until evicted.
const spanCacheSize = 256

// spanMemo is a bounded, concurrency-safe memo of values computed from a
// span of a rollup (FIFO eviction). Computing happens outside the lock, so
// two goroutines may compute the same entry; the first stored wins.
type spanMemo[V any] struct {
	mu    sync.Mutex
	m     map[spanKey]V
	order []spanKey
}

// get returns the value memoised under k, computing and storing it with
// compute on a miss.
func (c *spanMemo[V]) get(k spanKey, compute func() V) V {
	c.mu.Lock()
	if v, ok := c.m[k]; ok {
		c.mu.Unlock()
		return v
	}
	c.mu.Unlock()
	v := compute()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[k]; ok {
		return old
	}
	if c.m == nil {
		c.m = map[spanKey]V{}
	}
	if len(c.order) >= spanCacheSize {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[k] = v
	c.order = append(c.order, k)
	return v
}

var spanCache spanMemo[*spanStats]

// spanStatsOf returns the totals and early-stopping estimates of sps
// (whole: drain-inclusive duration), memoised.
func spanStatsOf(sps []SuperPass, whole bool) *spanStats {
	compute := func() *spanStats { return &spanStats{totals: totalsOf(sps, whole), es: earlyStoppingOf(sps)} }
	if len(sps) == 0 {
		return compute()
	}
	return spanCache.get(spanKey{&sps[0], len(sps), whole}, compute)
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

var winCache spanMemo[*windowSummary]

// windowSummaryOf computes (memoised) the windowSummary of w.
func windowSummaryOf(w []SuperPass) *windowSummary {
	if len(w) == 0 {
		return computeWindowSummary(w)
	}
	return winCache.get(spanKey{&w[0], len(w), false}, func() *windowSummary { return computeWindowSummary(w) })
}

func computeWindowSummary(w []SuperPass) *windowSummary {
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
	return v
}
