package core

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// memoView addresses the rollup's memos of parameter-independent
// statistics by post-warmup relative super-pass ranges (base is the
// absolute index of post[0]). Every method computes directly when the view
// is nil (the stage functions' tests), so a memo can only change the cost.
type memoView struct {
	roll *rollup
	base int
	// sc is the analysis's scratch (its run's), for the window summaries
	// computed through the view; nil allocates.
	sc   *scratch
	stop *stopper // the analysis's: long statistics poll it, and are not memoised when it fails
	// rec, while set, records the levels at which the trend verdicts taken
	// stay the same (recordAlpha).
	rec *alphaRange
}

// spanMemo holds the parameter-independent statistics of one span
// [lo, hi) of a rollup, each computed on first use.
type spanMemo struct {
	window   *windowStats
	tail     *tailStats
	duration *durationStats
	tpotMean *float64
	mser     map[int]mserStat // by the minimum trim length
	guard    *guardStats
	lists    *listSummary
	settling map[int]Settling // settlingCurve of the span to the series' end, by minN
	drift    map[driftKey]DriftGuard
	certs    map[int]*certMemo // the certification's series of the window to the series' end, by end
}

// listSummary is the reference's summary of a window: the TTFT and TPOT
// summaries of its pooled lists (nil without data), computed from the
// super-passes' sorted lists without merging them, and its TPS block.
type listSummary struct {
	ttft, tpot *stats.Summary
	nTTFT      int
	tps        TPS
}

// listSummaryOf computes the listSummary of the window w (pct its
// percentiles) with sc's window scratch (nil: fresh).
func listSummaryOf(w []SuperPass, pct []*spPercentiles, sc *scratch) *listSummary {
	ls := &listSummary{tps: windowTPSCached(w, pct, sc)}
	var vals []float64 // without sc, the two summaries' selection scratch
	valsBuf := sc.vals()
	if valsBuf == nil {
		valsBuf = &vals
	}
	if ttft := sc.sortedLists(pct, func(d *spPercentiles) []float64 { return d.sortedTTFT }); len(ttft) > 0 {
		s := summarizeLists(ttft, valsBuf, sc.startsBuf())
		ls.ttft, ls.nTTFT = &s, s.Count
	}
	if tpot := sc.sortedLists(pct, func(d *spPercentiles) []float64 { return d.sortedTPOT }); len(tpot) > 0 {
		s := summarizeLists(tpot, valsBuf, sc.startsBuf())
		ls.tpot = &s
	}
	return ls
}

// listSummary is listSummaryOf(post[lo:hi]), memoised.
func (v *memoView) listSummary(post []SuperPass, pct []*spPercentiles, lo, hi int) *listSummary {
	if v == nil {
		return listSummaryOf(post[lo:hi], pct[lo:hi], nil)
	}
	m := v.roll.span(v.base+lo, v.base+hi)
	if m.lists == nil {
		m.lists = listSummaryOf(post[lo:hi], pct[lo:hi], v.sc)
	}
	return m.lists
}

// span returns the memo of the absolute span [lo, hi).
func (r *rollup) span(lo, hi int) *spanMemo {
	k := [2]int{lo, hi}
	if m, ok := r.spans[k]; ok {
		return m
	}
	m := &spanMemo{}
	if r.spans == nil {
		r.spans = map[[2]int]*spanMemo{}
	}
	r.spans[k] = m
	return m
}

// settling is settlingCurve(pct, minN) of the whole post-warmup series,
// memoised (it depends on no other parameter; a sweep fitted it per
// configuration). A fit the stop hook cut short is not kept.
func (v *memoView) settling(pct []*spPercentiles, minN int) Settling {
	if v == nil {
		return settlingCurve(pct, minN, nil)
	}
	m := v.roll.span(v.base, v.base+len(pct))
	if st, ok := m.settling[minN]; ok {
		return st
	}
	st := settlingCurve(pct, minN, v.stop)
	if v.stop.failed() {
		return st
	}
	if m.settling == nil {
		m.settling = map[int]Settling{}
	}
	m.settling[minN] = st
	return st
}

// pooledTPOTMean is pooledTPOTMean(post[lo:hi]), memoised.
func (v *memoView) pooledTPOTMean(post []SuperPass, lo, hi int) float64 {
	if v == nil {
		return pooledTPOTMean(post[lo:hi])
	}
	m := v.roll.span(v.base+lo, v.base+hi)
	if m.tpotMean == nil {
		mu := pooledTPOTMean(post[lo:hi])
		m.tpotMean = &mu
	}
	return *m.tpotMean
}

// minDuration is minSteadyDuration(post[lo:hi]) with its measurements
// memoised.
func (v *memoView) minDuration(post []SuperPass, pct []*spPercentiles, lo, hi int, c minDurationConfig) ShortWindow {
	if v == nil {
		return minSteadyDuration(post[lo:hi], pct[lo:hi], c)
	}
	m := v.roll.span(v.base+lo, v.base+hi)
	if m.duration == nil {
		d := durationStatsOf(post[lo:hi], pct[lo:hi], v.sc)
		m.duration = &d
	}
	return m.duration.gate(c)
}

// mserStat is mserStart's answer for one window and trim length.
type mserStat struct {
	start          int // post-relative
	seFull, seBest float64
}

// mserStart is mserStart(pct, lo, hi, minN), memoised (the scan is
// quadratic in the window's length).
func (v *memoView) mserStart(pct []*spPercentiles, lo, hi, minN int, stop *stopper) (int, float64, float64) {
	if v == nil {
		return mserStart(pct, lo, hi, minN, stop)
	}
	m := v.roll.span(v.base+lo, v.base+hi)
	if st, ok := m.mser[minN]; ok {
		return st.start, st.seFull, st.seBest
	}
	s, full, best := mserStart(pct, lo, hi, minN, stop)
	if stop.failed() {
		return s, full, best // incomplete: not memoised
	}
	if m.mser == nil {
		m.mser = map[int]mserStat{}
	}
	m.mser[minN] = mserStat{s, full, best}
	return s, full, best
}

// guardStats are the guardrails' measurements of a window: the CoV of the
// gating trajectories and the OLS and Newey–West slope p-values of
// tpot_p50 (NaN below three points).
type guardStats struct {
	cov       [2]float64
	olsP, nwP float64
}

func guardStatsOf(pct []*spPercentiles) guardStats {
	g := guardStats{olsP: math.NaN(), nwP: math.NaN()}
	for k, m := range gatedMetrics() {
		g.cov[k] = stats.CoV(trajectory(pct, m))
	}
	if traj := trajectory(pct, mTPOTP50); len(traj) >= 3 {
		g.olsP = stats.OLS(traj).P
		g.nwP = stats.NeweyWest(traj, -1).P
	}
	return g
}

// guard is guardStatsOf(pct[lo:hi]), memoised.
func (v *memoView) guard(pct []*spPercentiles, lo, hi int) guardStats {
	if v == nil {
		return guardStatsOf(pct[lo:hi])
	}
	m := v.roll.span(v.base+lo, v.base+hi)
	if m.guard == nil {
		g := guardStatsOf(pct[lo:hi])
		m.guard = &g
	}
	return *m.guard
}

// trendKey identifies one trend test: a gate on metric m's trajectory
// over the absolute span [lo, hi).
type trendKey struct {
	gate      TrendGate
	m, lo, hi int
}

// trendStat is what a trend test computes of a trajectory before the
// significance level is applied: the verdict as a function of alpha (the
// Mann–Kendall or Newey–West p-value, or the verdict of the level-free
// tests, Theil–Sen and slope vs scatter).
type trendStat struct {
	sig stats.Significance
}

// maxTrendMemo bounds the trend memo of a rollup (a long run's windows
// would otherwise grow it quadratically); past it tests are not stored.
const maxTrendMemo = 1 << 15

// trendMemoRoom is the trend memo's first size.
const trendMemoRoom = 64

// trendStatOf runs gate's test on xs (len(xs) ≥ stats.MinTrendN). Only
// Hamed–Rao is O(n²) (all n − 1 autocorrelation lags): it polls stop, and
// ok is false when stop ended it.
func trendStatOf(gate TrendGate, xs []float64, stop *stopper) (t trendStat, ok bool) {
	switch gate {
	case TrendMKHamedRao:
		mk, ok := stats.HamedRaoStop(xs, stop.failed)
		return trendStat{mk.Significance()}, ok
	case TrendMannKendall:
		return trendStat{stats.MannKendall(xs).Significance()}, true
	case TrendNeweyWest:
		return trendStat{stats.NeweyWest(xs, -1).Significance()}, true
	}
	return trendStat{stats.Significance{Fixed: true, V: stats.TrendVerdict(stats.TrendAlgo(gate), xs, stats.Alpha)}}, true
}

// at is the test's verdict at significance alpha, as stats.TrendVerdict
// decides it.
func (t trendStat) at(alpha float64) stats.Verdict { return t.sig.Verdict(alpha) }

// trend is trendVerdict(gate, xs, minN, alpha) for xs the trajectory of
// metric m over post[lo:hi], with the test memoised: a sweep over alpha
// reruns only the comparison.
func (v *memoView) trend(gate TrendGate, m, lo, hi int, xs []float64, minN int, alpha float64) stats.Verdict {
	if len(xs) < minN {
		return stats.VerdictInsufficient
	}
	if len(xs) < stats.MinTrendN || !gate.Valid() {
		if v != nil {
			v.rec.unknown()
		}
		return stats.TrendVerdict(stats.TrendAlgo(gate), xs, alpha)
	}
	if v == nil {
		t, _ := trendStatOf(gate, xs, nil)
		return t.at(alpha)
	}
	if v.stop.failed() {
		// Abandoned: callers test many windows, each test O(n log n) at
		// least, between their own polls.
		return stats.VerdictInsufficient
	}
	k := trendKey{gate, m, v.base + lo, v.base + hi}
	r := v.roll
	t, ok := r.trends[k]
	if !ok {
		var complete bool
		if t, complete = trendStatOf(gate, xs, v.stop); !complete {
			return stats.VerdictInsufficient // stopped: the analysis is abandoned
		}
		if len(r.trends) < maxTrendMemo {
			if r.trends == nil {
				// Room for a one-shot analysis's tests (the reference's
				// plateau scan of the 185 MB streamed log takes 39):
				// grown from empty, the map left each smaller table as
				// garbage, fresh memory each.
				r.trends = make(map[trendKey]trendStat, trendMemoRoom)
			}
			r.trends[k] = t
		}
	}
	v.rec.narrow(t.sig, alpha)
	return t.at(alpha)
}

// alphaRange is the significance levels (lo, hi] at which every trend
// verdict a computation took (memoView.trend while it records) is the
// same: a computation that depends on alpha only through those verdicts
// has the same answer at every level of the range. known is false once a
// verdict was taken outside the record.
type alphaRange struct {
	lo, hi float64
	known  bool
}

func newAlphaRange() *alphaRange { return &alphaRange{lo: math.Inf(-1), hi: math.Inf(1), known: true} }

// narrow keeps the levels at which s's verdict is the one at alpha.
func (a *alphaRange) narrow(s stats.Significance, alpha float64) {
	if a != nil {
		a.lo, a.hi = s.AlphaRange(alpha, a.lo, a.hi)
	}
}

// unknown records a verdict taken outside the record.
func (a *alphaRange) unknown() {
	if a != nil {
		a.known = false
	}
}

func (a *alphaRange) contains(alpha float64) bool { return a.known && a.lo < alpha && alpha <= a.hi }

// intersect narrows a to the levels b holds too.
func (a *alphaRange) intersect(b alphaRange) {
	if a != nil {
		a.lo, a.hi, a.known = max(a.lo, b.lo), min(a.hi, b.hi), a.known && b.known
	}
}

// recordAlpha runs compute while v records the levels at which its trend
// verdicts stay the same; a record in progress (an enclosing memoised
// computation) is narrowed to them too.
func recordAlpha[T any](v *memoView, compute func() T) (T, alphaRange) {
	outer, rec := v.rec, newAlphaRange()
	v.rec = rec
	val := compute()
	v.rec = outer
	outer.intersect(*rec)
	return val, *rec
}

// alphaMemo is a computation's answer, valid at the levels alpha.
type alphaMemo[T any] struct {
	alpha alphaRange
	val   T
}

// maxAlphaMemos bounds the answers kept per key (ranges of alpha).
const maxAlphaMemos = 64

// lookupAlpha returns the answer among memos valid at alpha (and
// accepted by ok, when given), narrowing a record in progress to its
// range.
func lookupAlpha[T any](v *memoView, memos []alphaMemo[T], alpha float64, ok func(T) bool) (T, bool) {
	for i := range memos {
		if m := &memos[i]; m.alpha.contains(alpha) && (ok == nil || ok(m.val)) {
			v.rec.intersect(m.alpha)
			return m.val, true
		}
	}
	var zero T
	return zero, false
}

// statesKey identifies statesOver of a span of a rollup's series: the
// absolute span and the parameters it reads but alpha.
type statesKey struct {
	lo, hi, minN int
	gate         TrendGate
	relDriftMin  float64
}

// statesOver is statesOver(pct, lo, hi, p) memoised over alpha as
// ensemblePlateausFrom is: the states depend on alpha only through their
// trend verdicts.
func (v *memoView) statesOver(pct []*spPercentiles, lo, hi int, p Params) [NumMetrics]MetricState {
	if v == nil {
		return statesOver(pct, lo, hi, p, v)
	}
	k := statesKey{lo: v.base + lo, hi: v.base + hi, minN: p.MinTrendN, gate: p.TrendGate, relDriftMin: p.TrendRelDriftMin}
	memos := v.roll.states[k]
	if st, ok := lookupAlpha(v, memos, p.Alpha, nil); ok {
		return st
	}
	st, rec := recordAlpha(v, func() [NumMetrics]MetricState { return statesOver(pct, lo, hi, p, v) })
	if v.stop.failed() || !rec.known || len(memos) >= maxAlphaMemos {
		return st
	}
	if v.roll.states == nil {
		v.roll.states = map[statesKey][]alphaMemo[[NumMetrics]MetricState]{}
	}
	v.roll.states[k] = append(memos, alphaMemo[[NumMetrics]MetricState]{rec, st})
	return st
}

// plateauKey identifies an ensemble segmentation of a rollup's series
// (ensemblePlateausFrom): the post-warmup series [base, base+n), the
// start and the admissibility's parameters but alpha and the ensemble.
type plateauKey struct {
	base, n, from, minN           int
	gate                          TrendGate
	covMax, relDriftMin, shiftSDs float64
}

// plateauMemo is one segmentation's plateaus under the ensemble ens.
type plateauMemo struct {
	ens []EnsembleSetting
	out []Plateau
}

// ensemblePlateausFrom is ensemblePlateausFrom(pct, from, g, ens) memoised
// over alpha: the grow-from-left scan depends on alpha only through its
// trend verdicts, so its plateaus serve every level at which each of those
// verdicts is the same (alphaRange). The caller owns the slice returned.
func (v *memoView) ensemblePlateausFrom(pct []*spPercentiles, from int, g gateConfig, ens []EnsembleSetting,
	stop *stopper) []Plateau {
	if v == nil {
		return ensemblePlateausFrom(pct, from, g, ens, v, stop)
	}
	k := plateauKey{base: v.base, n: len(pct), from: from, minN: g.minN, gate: g.gate, covMax: g.covMax,
		relDriftMin: g.relDriftMin, shiftSDs: g.shiftSDs}
	memos := v.roll.plateaus[k]
	if m, ok := lookupAlpha(v, memos, g.alpha, func(m plateauMemo) bool { return slices.Equal(m.ens, ens) }); ok {
		return slices.Clone(m.out)
	}
	out, rec := recordAlpha(v, func() []Plateau { return ensemblePlateausFrom(pct, from, g, ens, v, stop) })
	if stop.failed() || !rec.known || len(memos) >= maxAlphaMemos {
		return out
	}
	if v.roll.plateaus == nil {
		v.roll.plateaus = map[plateauKey][]alphaMemo[plateauMemo]{}
	}
	v.roll.plateaus[k] = append(memos, alphaMemo[plateauMemo]{rec, plateauMemo{ens: slices.Clone(ens), out: slices.Clone(out)}})
	return out
}

// driftKey identifies a drift test's measurements on a span: the gated
// metric, the test's form and the minimum trend length.
type driftKey struct {
	m, minN int
	hinge   bool
}

// drift is driftOver(trajectory(pct[lo:hi], m), p, hinge) for the absolute
// span [lo, hi) of the rollup (pct the series' percentiles from its
// start), its measurements memoised: a parameter set only applies its
// thresholds (DriftGuard.fire). Measurements the stop hook cut short are
// not kept.
func (v *memoView) drift(pct []*spPercentiles, m, lo, hi int, hinge bool, p Params, stop *stopper) DriftGuard {
	if v == nil {
		return driftOver(trajectory(pct[lo:hi], m), p, hinge, stop)
	}
	sm := v.roll.span(lo, hi)
	k := driftKey{m, p.MinTrendN, hinge}
	dg, ok := sm.drift[k]
	if !ok {
		dg = driftMeasure(trajectory(pct[lo:hi], m), p.MinTrendN, hinge, stop)
		if stop.failed() {
			dg.fire(p)
			return dg
		}
		if sm.drift == nil {
			sm.drift = map[driftKey]DriftGuard{}
		}
		sm.drift[k] = dg
	}
	dg.fire(p)
	return dg
}

// certMemo is the certification's series of one window (certSeriesOf)
// with their measurements, kept on first use.
type certMemo struct {
	fams []certSeries
	winN int
}

// maxCertFloats bounds the values the certification memos of a rollup
// hold (a long run's windows would otherwise hold O(P) each); past it the
// series are built per analysis.
const maxCertFloats = 1 << 21

// certSeries is build() — the certification's series of the absolute
// window [lo, hi) to the series' end — memoised with the measurements the
// analyses take of it (certSeries.stat): a parameter set only applies its
// thresholds (certStat.decide).
func (v *memoView) certSeries(lo, hi, end int, build func() ([]certSeries, int)) ([]certSeries, int) {
	if v == nil {
		return build()
	}
	sm := v.roll.span(lo, hi)
	if c, ok := sm.certs[end]; ok {
		return c.fams, c.winN
	}
	fams, winN := build()
	n := 0
	for _, f := range fams {
		n += 2 * len(f.ys)
	}
	if v.roll.certFloats+n > maxCertFloats {
		return fams, winN
	}
	v.roll.certFloats += n
	if sm.certs == nil {
		sm.certs = map[int]*certMemo{}
	}
	sm.certs[end] = &certMemo{fams, winN}
	return fams, winN
}
