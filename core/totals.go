package core

import (
	"math"

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

// pooledOrder is one list pooled over a span in super-pass order: its
// count, its compensated sum in that order (the reference's means are of
// the unsorted pooled list), and the order statistics the totals and the
// early-stopping estimates read, selected without sorting the pool.
type pooledOrder struct {
	n        int
	orderSum float64
	q        Quantiles
	es       EarlyStopEstimate
}

// pooledOrderOf takes xs's p50/p90/p99 (PercentileLower) and its
// early-stopping estimates (earlyStopEstimate of sorted xs) in one
// stats.FloatSorter.OrderStats call; xs is not modified.
func (run *Run) pooledOrderOf(xs []float64, fs *stats.FloatSorter) pooledOrder {
	return run.orderStatsOf(len(xs), stats.Sum(xs), func(ranks []int, vals []float64) { fs.OrderStats(xs, ranks, vals) })
}

// orderStatsOf is pooledOrderOf of a pool of n values with compensated
// sum sum, whose order statistics of the given ranks selectRanks puts in
// vals.
func (run *Run) orderStatsOf(n int, sum float64, selectRanks func(ranks []int, vals []float64)) pooledOrder {
	grid := EarlyStopGrid()
	po := pooledOrder{n: n, orderSum: sum, q: Quantiles{math.NaN(), math.NaN(), math.NaN()},
		es: EarlyStopEstimate{N: n, Values: make([]float64, len(grid)), OK: make([]bool, len(grid))}}
	if n == 0 {
		return po
	}
	var rankBuf [3 + 8]int
	var valBuf [3 + 8]float64
	ranks := rankBuf[:0]
	for _, p := range [3]float64{0.50, 0.90, 0.99} {
		ranks = append(ranks, int(p*float64(n-1))) // stats.PercentileLower's index
	}
	for i, p := range grid {
		if t := run.earlyStopBudget(n, p/100); t > 0 {
			po.es.OK[i] = true
			ranks = append(ranks, n-t)
		}
	}
	vals := valBuf[:len(ranks)]
	if len(ranks) > len(valBuf) {
		vals = make([]float64, len(ranks))
	}
	selectRanks(ranks, vals)
	po.q = Quantiles{vals[0], vals[1], vals[2]}
	k := 3
	for i := range grid {
		if po.es.OK[i] {
			po.es.Values[i], k = vals[k], k+1
		}
	}
	return po
}

// poolOrder is pooledOrderOf src's lists pooled over sps. When every
// super-pass has its sorted lists cached (a Run's rollup), the order
// statistics are selected from them (listsOrderStats) and the sum is
// taken list by list, without building the pool; orderSum is then only
// TPOT's (the one read: a Run's TTFT and latency lists are sorted, so
// their sum in file order is not at hand) and NaN for the others.
func (run *Run) poolOrder(sps []SuperPass, src MetricSource) pooledOrder {
	sc := &run.scratch
	lists, n := sortedListsOf(sps, src, sc.lists[:0])
	sc.lists = lists[:0]
	if lists == nil || !positiveLists(lists) {
		return run.pooledOrderOf(sc.pooled(sps, src.list), &sc.fs)
	}
	sum := math.NaN()
	if src == SourceTPOT {
		var s stats.Summer
		for i := range sps {
			s.Add(sps[i].TPOT)
		}
		sum = s.Sum()
	}
	return run.orderStatsOf(n, sum, func(ranks []int, vals []float64) { listsOrderStats(lists, n, ranks, vals, sc) })
}

// sortedListsOf appends to buf the cached sorted list of src of every
// super-pass of sps that has values, and returns them with their total
// count; nil when a super-pass has no cache (built by hand).
func sortedListsOf(sps []SuperPass, src MetricSource, buf [][]float64) ([][]float64, int) {
	n := 0
	for i := range sps {
		pct := sps[i].pct
		if pct == nil {
			return nil, 0
		}
		var l []float64
		switch src {
		case SourceTTFT:
			l = pct.sortedTTFT
		case SourceTPOT:
			l = pct.sortedTPOT
		case SourceLatency:
			l = pct.sortedLatency
		default:
			return nil, 0
		}
		if len(l) > 0 {
			buf, n = append(buf, l), n+len(l)
		}
	}
	return buf, n
}

// positiveLists reports whether every value of the ascending lists is
// positive and finite: then a value's rank in their union is
// unambiguous, bits included (no NaN, no zeros of two signs), the
// histogram's bins are finite, and listsOrderStats selects what a sort
// of the pool would give.
func positiveLists(lists [][]float64) bool {
	for _, l := range lists {
		if !(l[0] > 0) || !(l[len(l)-1] < math.Inf(1)) {
			return false
		}
	}
	return true
}

// listsOrderStats puts in vals the values of the given ranks in the
// sorted union of the n values of the ascending, positive lists
// (positiveLists), located by listUnion's bins without merging; sc's
// pool is the selections' scratch (one bin's values) and its starts the
// lists' segment offsets, reused from call to call.
func listsOrderStats(lists [][]float64, n int, ranks []int, vals []float64, sc *scratch) {
	if n == 0 {
		return
	}
	u := newListUnion(lists)
	if len(lists) == 1 || u.lo == u.hi {
		for i, r := range ranks {
			vals[i] = u.lo
			if len(lists) == 1 {
				vals[i] = lists[0][r]
			}
		}
		return
	}
	u.walkBins(&sc.starts)
	u.vals = sc.pool[:0]
	for i, r := range ranks {
		vals[i] = u.kth(r)
	}
	sc.pool = u.vals[:0]
}

// pooledSummary is stats.Summarize of the list chosen by list (TTFT or
// TPOT) pooled over sps, nil without values: from the super-passes'
// sorted lists (summarizeLists) when they are cached, else from a sorted
// pool.
func pooledSummary(sps []SuperPass, list func(*SuperPass) []float64, sorted func(*spPercentiles) []float64,
	sc *scratch) *stats.Summary {
	lists := make([][]float64, 0, len(sps))
	n := 0
	for i := range sps {
		if sps[i].pct == nil {
			lists = nil
			break
		}
		if l := sorted(sps[i].pct); len(l) > 0 {
			lists, n = append(lists, l), n+len(l)
		}
	}
	if lists == nil {
		return sortedSummary(sc.pooled(sps, list), &sc.fs)
	}
	if n == 0 {
		return nil
	}
	s := summarizeLists(lists, &sc.pool, &sc.starts)
	return &s
}

// sortedSummary is stats.Summarize of xs (nil without values), sorting xs.
func sortedSummary(xs []float64, fs *stats.FloatSorter) *stats.Summary {
	if len(xs) == 0 {
		return nil
	}
	fs.Sort(xs)
	s := stats.SummarizeSorted(xs)
	return &s
}

// spanStatsOf summarises sps; whole selects the drain-inclusive span.
func (run *Run) spanStatsOf(sps []SuperPass, whole bool) *spanStats {
	ttft := run.poolOrder(sps, SourceTTFT)
	tpot := run.poolOrder(sps, SourceTPOT)
	lat := run.poolOrder(sps, SourceLatency)
	return run.spanStatsFrom(sps, whole, ttft, tpot, lat)
}

func (run *Run) spanStatsFrom(sps []SuperPass, whole bool, ttft, tpot, lat pooledOrder) *spanStats {
	t := Totals{NSuperPasses: len(sps), NSamples: countIssued(sps), OutTokens: pooledSysTokens(sps),
		NCompleted: countCompleted(sps)}
	span := issueSpanNs(sps)
	if whole {
		span = completionSpanNs(sps)
	}
	t.DurationS = float64(span) / 1e9
	t.TPSPerUser = math.NaN()
	if n := tpot.n; n > 0 {
		t.TPSPerUser = perUserTPS(tpot.orderSum / float64(n))
	}
	t.TTFT, t.TPOT, t.Lat = ttft.q, tpot.q, lat.q
	t.TPSSystem, t.RequestsPerS = math.NaN(), math.NaN()
	if span > 0 {
		t.TPSSystem = systemTPS(t.OutTokens, span)
		t.RequestsPerS = float64(t.NCompleted) / t.DurationS
	}
	t.CompletedFraction = math.NaN()
	if t.NSamples > 0 {
		t.CompletedFraction = float64(t.NCompleted) / float64(t.NSamples)
	}
	es := EarlyStopSeries{TTFT: ttft.es, TPOT: tpot.es, Latency: lat.es}
	return &spanStats{totals: t, es: es}
}

// computeWindowStats summarises the window w: its totals and
// early-stopping estimates (spanStatsOf), its TTFT and TPOT summaries and
// its throughput.
func (run *Run) computeWindowStats(w []SuperPass) *windowStats {
	ttft := func(sp *SuperPass) []float64 { return sp.TTFT }
	tpot := func(sp *SuperPass) []float64 { return sp.TPOT }
	span := run.spanStatsOf(w, false)
	return &windowStats{
		spanStats: *span,
		ttft:      pooledSummary(w, ttft, func(d *spPercentiles) []float64 { return d.sortedTTFT }, &run.scratch),
		tpot:      pooledSummary(w, tpot, func(d *spPercentiles) []float64 { return d.sortedTPOT }, &run.scratch),
		nTTFT:     span.es.TTFT.N,
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
