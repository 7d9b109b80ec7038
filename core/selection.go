package core

import (
	"fmt"
	"math"
	"strconv"
)

// The select stage: which post-warmup window is the steady state. The
// reference takes the first plateau long enough for the min-duration gate
// (§10.4); steadysweep segments with the CoV ensemble and the step guard,
// tells a drift from a staircase, checks the window against the first
// plateau, trims a settling head by MSER and rejects bursts (design §5.5).
// The peer baselines choose by a fixed rule (baselines.go).

// Selection is steadysweep's record of how the reported window was chosen:
// the per-metric states and the guardrails (design §5.5; detector spec
// §17.6–§17.7). Super-pass indices are absolute.
type Selection struct {
	// States is each tracked metric's state over the reported window (over
	// the whole post-warmup series when there is none).
	States [NumMetrics]MetricState
	// Ensemble is the CoV ensemble; Certifying lists the indices of the
	// settings that certify the reported window for every gating metric.
	Ensemble   []EnsembleSetting
	Certifying []int
	// Drift is the drift-versus-staircase test over the plateaus (nil with
	// fewer than two plateaus).
	Drift *DriftTest
	// MSERStart is the start minimising the standard error of the
	// per-super-pass TPOT means among the admissible trims [lo', hi) of the
	// reported window (NoSPIndex without a window); MSERAgrees reports
	// that it is the reported start.
	MSERStart  SPIndex
	MSERAgrees bool
	// MSERApplied reports that the reported window was trimmed to
	// MSERStart (the trim at least halved the standard error;
	// WindowStartMSER); HeadTrimApplied that the head test trimmed it
	// (WindowStartHead).
	MSERApplied, HeadTrimApplied bool
	// TailTrimApplied reports that the head test read from the end
	// trimmed the window's end (issue 29; WindowStartHead).
	TailTrimApplied bool
	// Burst reports a reported window issued within one median request
	// latency (isBurst): never a steady state.
	Burst bool
	// DriftGuard is the drift guard's record (nil when it did not run: the
	// guard off, or no certified window to test).
	DriftGuard *DriftGuard
	// OLSP and NeweyWestP are the slope p-values of tpot_p50 over the
	// reported window; Corroborated reports that both agree with the gate
	// (p ≥ Alpha ⇔ tpot_p50 is Plateau). NaN without a window.
	OLSP, NeweyWestP float64
	Corroborated     bool
	// Settling is the settling-curve fit of the post-warmup tpot_p50
	// (settling.go; issue 29).
	Settling *Settling
	// Concordance is the agreement of the forward CoV stopping rules of the
	// ensemble, max(0, 1 − (max end − min end)/max(1, n)), 0 if fewer than
	// two converge.
	Concordance float64
}

// GatingStates returns the states of tpot_p50 and tpot_p90.
func (s Selection) GatingStates() [2]MetricState {
	return [2]MetricState{s.States[mTPOTP50], s.States[mTPOTP90]}
}

// selectSteady of the reference: §10.2–§10.7.
func (reference) selectSteady(a *analysis) {
	r := a.res
	covMax := r.CovBounds[0] // Python max: a later bound replaces only if strictly greater
	for _, b := range r.CovBounds[1:] {
		if b > covMax {
			covMax = b
		}
	}
	r.Steady = referenceSteadyState(r.post, r.pct, a.p, covMax, a.memo, a.stop)
}

// referenceSteadyState selects and summarises the reported plateau of the
// post-warmup series (§10.2–§10.7).
func referenceSteadyState(post []SuperPass, pct []*spPercentiles, p Params, covMax float64, v *memoView,
	stop *stopper) SteadyState {
	g := gateConfig{gate: p.TrendGate, covMax: covMax, relDriftMin: p.TrendRelDriftMin, minN: p.MinTrendN, alpha: p.Alpha}
	plateaus := segmentPlateaus(pct, g, v, stop)
	ss := SteadyState{Plateaus: plateaus}
	if len(plateaus) == 0 {
		ss.Reason = "no admissible steady plateau"
		ss.Anomaly = referenceLevelShift(post, pct, plateaus, 0, p.LevelShiftBand, p.Alpha, v)
		ss.setGlobalTrend(pct, 0, p, v)
		return ss
	}
	mc := minDurationOf(p)
	ss.Shorts = make([]ShortWindow, len(plateaus))
	for i, pl := range plateaus {
		ss.Shorts[i] = v.minDuration(post, pct, pl.Lo, pl.Hi, mc)
	}
	report, allShort := reportedPlateau(ss.Shorts, p.MinDuration)
	ss.AllShort = allShort
	short := ss.Shorts[report]
	pl := plateaus[report]
	ss.Anomaly = referenceLevelShift(post, pct, plateaus, report, p.LevelShiftBand, p.Alpha, v)
	ss.setGlobalTrend(pct, pl.Lo, p, v)

	ws := v.listSummary(post, pct, pl.Lo, pl.Hi)
	ss.TTFT, ss.TPOT = cloneSummary(ws.ttft), cloneSummary(ws.tpot)
	tps := ws.tps
	ss.TPS = &tps
	ss.Window = &WindowInfo{SPLo: pl.Lo, SPHi: pl.Hi, NSuperPasses: pl.Hi - pl.Lo, NSamples: ws.nTTFT,
		PlateauIndex: report, NPlateaus: len(plateaus), SkippedShort: skippedShort(ss.Shorts, report)}
	ss.ShortWindow = &short
	ss.Found = true
	if ss.AllShort {
		ss.Found = false
		ss.Reason = allShortReason(len(plateaus), short) + "; pass --no-min-duration to override"
	}
	return ss
}

// reportedPlateau picks the plateau to report from the gate records of all
// plateaus (§10.4): with the gate enforced, the first that is not short;
// if all are short, the longest (first on ties) with allShort set; with
// the gate off, the first. Both strategies report by this rule.
func reportedPlateau(shorts []ShortWindow, enforce bool) (index int, allShort bool) {
	if !enforce {
		return 0, false
	}
	for i := range shorts {
		if !shorts[i].IsShort {
			return i, false
		}
	}
	for i := range shorts {
		if shorts[i].WindowDurationS > shorts[index].WindowDurationS {
			index = i
		}
	}
	return index, true
}

// skippedShort counts the short plateaus before the reported one (= its
// index when the gate is enforced).
func skippedShort(shorts []ShortWindow, report int) int {
	n := 0
	for i := range report {
		if shorts[i].IsShort {
			n++
		}
	}
	return n
}

// allShortReason says why no plateau passed the min-duration gate.
func allShortReason(nPlateaus int, longest ShortWindow) string {
	// Concatenated: fmt's printer state is fresh memory in a one-shot
	// analyze that formats nothing else before its outputs.
	return "all " + strconv.Itoa(nPlateaus) + " admissible plateau(s) too short: longest " +
		fixed0(longest.WindowDurationS) + "s < " + fixed0(longest.MinDurationS) + "s required (" +
		longest.Dominant + "-dominated)"
}

// sortedLists collects one cached sorted list per super-pass.
func sortedLists(pct []*spPercentiles, get func(*spPercentiles) []float64) [][]float64 {
	return appendSortedLists(make([][]float64, 0, len(pct)), pct, get)
}

// appendSortedLists appends the non-empty lists get(pct[i]) to out.
func appendSortedLists(out [][]float64, pct []*spPercentiles, get func(*spPercentiles) []float64) [][]float64 {
	for _, d := range pct {
		if l := get(d); len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// selectSteady of steadysweep: ensemble plateaus, then one of three
// outcomes — no plateau, a drift chopped into plateaus (the span of all of
// them, not steady), or the first plateau passing the min-duration gate
// (trimmed by MSER, checked for a level shift against the first plateau
// and for a burst) — and the guardrails of the reported window.
func (steadysweep) selectSteady(a *analysis) {
	r, p, pct := a.res, a.p, a.res.pct
	covMax := math.Inf(-1)
	for _, b := range r.CovBounds {
		covMax = math.Max(covMax, b)
	}
	g := gateConfig{gate: p.TrendGate, covMax: covMax, relDriftMin: p.TrendRelDriftMin, minN: p.MinTrendN, alpha: p.Alpha,
		shiftSDs: p.TailShiftSDs}
	ens := ensembleOf(r.CovBounds)
	// A settling curve (settling.go): plateaus only where it has settled.
	settle := a.memo.settling(pct, p.MinTrendN)
	settle.Start = absSP(r.Warmup, settle.start)
	plateaus := a.memo.ensemblePlateausFrom(pct, 0, g, ens, a.stop)
	if settle.Detected && settle.Settled {
		plateaus = a.settledPlateaus(plateaus, a.memo.ensemblePlateausFrom(pct, settle.start, g, ens, a.stop))
	}
	refineBoundaries(pct, plateaus, p.LevelShiftBand, p.TailShiftSDs, p.MinTrendN)
	sel := &a.assess.Selection
	*sel = Selection{Ensemble: ens, MSERStart: NoSPIndex, OLSP: math.NaN(), NeweyWestP: math.NaN(),
		Concordance: concordance(pct, a.stop), Settling: &settle}
	ss := &r.Steady
	*ss = SteadyState{Plateaus: plateaus, Anomaly: Anomaly{ChangePointSP: -1, Plateaus: plateaus}}

	// lo, hi are post-warmup (the trajectories' index) until the window
	// is recorded, absolute, in the assessment.
	lo, hi, ok := -1, -1, false
	switch {
	case settle.Detected && !settle.Settled:
		lo, hi, ok = a.stillSettling(&settle)
	case len(plateaus) == 0:
		ss.Reason = "no admissible steady plateau"
		ss.setGlobalTrend(pct, 0, p, a.memo)
		sel.States = a.memo.statesOver(pct, 0, len(pct), p)
	default:
		if len(plateaus) >= 2 {
			lo, hi, ok = a.driftAcross(g)
		}
		if !ok {
			lo, hi, ok = a.plateauWindow(g)
		}
	}
	if ok {
		sel.States = a.memo.statesOver(pct, lo, hi, p)
		if dg := sel.DriftGuard; dg != nil && dg.Fired {
			sel.States[dg.metric] = dg.state()
		}
		if settle.Detected && !settle.Settled {
			sel.States[mTPOTP50] = map[bool]MetricState{true: StateDriftingUp, false: StateDriftingDown}[settle.Up]
		}
		a.guardrails(lo, hi)
		a.assess.Window = absRange(r.Warmup, lo, hi)
	}
}

// settledPlateaus chooses between the plateaus of the whole post-warmup
// series and those segmented where a settling curve has settled (issue
// 29): the settled ones, unless the min-duration gate (when enforced)
// passes one of the whole series' plateaus and none of the settled ones
// (the head test, not the curve, then trims the head: a crop may not turn
// a certified window into a short one).
func (a *analysis) settledPlateaus(whole, settled []Plateau) []Plateau {
	if len(settled) == 0 {
		return whole
	}
	if !a.p.MinDuration {
		return settled
	}
	anyLong := func(pls []Plateau) bool {
		for _, pl := range pls {
			if !a.memo.minDuration(a.res.post, a.res.pct, pl.Lo, pl.Hi, minDurationOf(a.p)).IsShort {
				return true
			}
		}
		return false
	}
	if anyLong(whole) && !anyLong(settled) {
		return whole
	}
	return settled
}

// stillSettling reports a settling curve that has not settled by the
// run's end (issue 29): the whole post-warmup series is the window, not a
// steady state.
func (a *analysis) stillSettling(st *Settling) (lo, hi int, ok bool) {
	lo, hi = 0, len(a.res.pct)
	a.unsteadyWindow(lo, hi, fmt.Sprintf("TPOT still settling %s at the run's end (%s approach moving %.1f%% in all, not within "+
		"%.2g%% of its asymptote with %d super-passes left): no steady state", upDown(st.Up), st.Kind, 100*st.RelAmp,
		100*settleTol, a.p.MinTrendN))
	return lo, hi, true
}

// unsteadyWindow reports [lo, hi) (post-warmup) as the window of a run
// without a steady state, for reason: its min-duration record, summaries
// and global trend, Found false.
func (a *analysis) unsteadyWindow(lo, hi int, reason string) {
	r, p, pct := a.res, a.p, a.res.pct
	ss := &r.Steady
	short := a.memo.minDuration(r.post, pct, lo, hi, minDurationOf(p))
	ss.Shorts = []ShortWindow{short}
	a.fillWindow(lo, hi, 0, len(ss.Plateaus), 0)
	ss.ShortWindow = &short
	ss.Found = false
	ss.Reason = reason
	ss.setGlobalTrend(pct, lo, p, a.memo)
}

// upDown spells a direction: "up" when up, else "down".
func upDown(up bool) string {
	if up {
		return "up"
	}
	return "down"
}

// driftAcross runs the drift-versus-staircase test over the plateaus and,
// when the plateaus are a drift, reports their whole span [lo, hi)
// (post-warmup) as the window: not a steady state (deviation D5). ok is
// false when they are not a drift.
func (a *analysis) driftAcross(g gateConfig) (lo, hi int, ok bool) {
	r, pct, sel := a.res, a.res.pct, &a.assess.Selection
	ss := &r.Steady
	dt := driftTest(pct, ss.Plateaus, r.Warmup, g, a.memo, a.stop)
	sel.Drift = &dt
	if !dt.Drift {
		return -1, -1, false
	}
	lo, hi = ss.Plateaus[0].Lo, ss.Plateaus[len(ss.Plateaus)-1].Hi
	a.unsteadyWindow(lo, hi, fmt.Sprintf("TPOT drifting %s across %d short plateaus (a line fits better than steps): "+
		"no steady state", upDown(dt.Up), len(ss.Plateaus)))
	return lo, hi, true
}

// plateauWindow reports the first plateau passing the min-duration gate
// (the longest when none does), checked against the first plateau for a
// level shift and for a short shifted tail (which may end it earlier),
// its settling head trimmed (MSER or the head test), and checked against
// its latency for a burst and against the rest of the run for a drift.
func (a *analysis) plateauWindow(g gateConfig) (lo, hi int, ok bool) {
	r, p, pct, sel := a.res, a.p, a.res.pct, &a.assess.Selection
	ss := &r.Steady
	plateaus := ss.Plateaus
	mc := minDurationOf(p)
	ss.Shorts = make([]ShortWindow, len(plateaus))
	for i, pl := range plateaus {
		ss.Shorts[i] = a.memo.minDuration(r.post, pct, pl.Lo, pl.Hi, mc)
	}
	report, allShort := reportedPlateau(ss.Shorts, p.MinDuration)
	ss.AllShort = allShort
	pl := plateaus[report]

	ss.Anomaly = firstPlateauShift(r.post, pct, plateaus, p.LevelShiftBand, p.TailShiftSDs, p.Alpha, a.memo)
	if p.TailShift && !ss.Anomaly.Detected && !a.isBurst(pl.Lo, pl.Hi) {
		a.shortTail(report)
		pl = plateaus[report]
	}
	short := ss.Shorts[report]

	// Selection by precision (design §5.5): trim a settling head off the
	// reported plateau, keeping the window's min-duration verdict.
	lo, hi = pl.Lo, pl.Hi
	lo, window, trimmed := a.trimmedStart(pl.Lo, pl.Hi, short)
	sel.MSERApplied = trimmed && p.WindowStart == WindowStartMSER
	sel.HeadTrimApplied = trimmed && p.WindowStart == WindowStartHead
	// The same head test at the window's end (issue 29: symmetric trim).
	hi, window, sel.TailTrimApplied = a.trimmedEnd(lo, hi, window)
	// One convention (issue 29): a level shift after the window starts
	// after it, so a change point inside the window ends it there.
	if an := ss.Anomaly; an.Detected && an.ChangePointSP > lo && an.ChangePointSP < hi && an.ChangePointSP-lo >= p.MinTrendN {
		if w, keep := a.keepsVerdict(lo, an.ChangePointSP, window); keep {
			hi, window = an.ChangePointSP, w
		}
	}
	a.fillWindow(lo, hi, report, len(plateaus), skippedShort(ss.Shorts, report))
	ss.ShortWindow = &window
	ss.Found = !ss.AllShort
	if ss.AllShort {
		ss.Reason = allShortReason(len(plateaus), short)
	}
	ss.setGlobalTrend(pct, pl.Lo, p, a.memo)
	if ss.Anomaly.Detected && report > 0 && ss.Anomaly.ChangePointSP <= pl.Lo {
		ss.Reason = joinReason(ss.Reason, fmt.Sprintf("reported plateau %d is %+.1f%% from the skipped first plateau",
			report, ss.Anomaly.DeltaPct))
	}
	// Burst guard (deviation D13): a window issued within one median
	// request latency was in flight all at once (n_samples ≈ concurrency,
	// design §5.5): no steady state, whatever the duration gate says.
	if a.isBurst(lo, hi) {
		sel.Burst = true
		ss.Found = false
		ss.Reason = joinReason(ss.Reason, "issue burst: the window was issued within one median request latency "+
			"(n_samples ≈ concurrency); no steady state")
	}
	// Drift guard (deviation D14): a certified window inside a drift is a
	// local plateau; a short tail found there is the drift's end.
	// A shift between plateaus has passed the drift test over the plateaus
	// (steps beat a line): the guard's own line-versus-levels test on the
	// noisier tpot_p90 is not asked again.
	if p.DriftGuard && ss.Found && !(ss.Anomaly.Detected && ss.Anomaly.TailSuperPasses == 0 && len(plateaus) >= 2) {
		dg := a.driftGuard(lo)
		sel.DriftGuard = dg
		if dg.Fired {
			dg.withdraw(ss)
			if ss.Anomaly.TailSuperPasses > 0 {
				ss.Anomaly = Anomaly{ChangePointSP: -1, Pettitt: ss.Anomaly.Pettitt, Plateaus: plateaus}
			}
		}
	}
	return lo, hi, true
}

// shortTail runs the short-tail shift (tailShift) after the reported
// plateau; when it finds one, it becomes the anomaly (Pettitt kept for
// information), and when the tail reaches into the plateau the plateau
// ends where the tail starts — if that keeps MinTrendN super-passes and
// the plateau's min-duration verdict.
func (a *analysis) shortTail(report int) {
	r, p, ss := a.res, a.p, &a.res.Steady
	pl := ss.Plateaus[report]
	an, cut, ok := tailShift(r.post, r.pct, pl, p.LevelShiftBand, p.MinTrendN, p.TailShiftMinSP, p.TailShiftSDs)
	if !ok {
		return
	}
	an.Pettitt, an.Plateaus = ss.Anomaly.Pettitt, ss.Plateaus
	ss.Anomaly = an
	if cut < pl.Hi && cut-pl.Lo >= p.MinTrendN {
		w := a.memo.minDuration(r.post, r.pct, pl.Lo, cut, minDurationOf(p))
		if w.IsShort == ss.Shorts[report].IsShort || !p.MinDuration {
			ss.Plateaus[report].Hi, ss.Shorts[report] = cut, w
		}
	}
	ss.Reason = joinReason(ss.Reason, fmt.Sprintf("the level shift is a short tail: the last %d full super-pass(es), %s",
		an.TailSuperPasses, fixed0(an.TailDurationS)+"s"))
}

// fillWindow sets the summaries, TPS and window record of post[lo:hi]
// (post-relative) from the run's window memo.
func (a *analysis) fillWindow(lo, hi, index, nPlateaus, skipped int) {
	ws := a.windowStats(lo, hi)
	ss := &a.res.Steady
	ss.TTFT, ss.TPOT = cloneSummary(ws.ttft), cloneSummary(ws.tpot)
	tps := ws.tps
	ss.TPS = &tps
	ss.Window = &WindowInfo{SPLo: lo, SPHi: hi, NSuperPasses: hi - lo, NSamples: ws.nTTFT,
		PlateauIndex: index, NPlateaus: nPlateaus, SkippedShort: skipped}
}

// windowStats returns the memoised statistics of post[lo:hi]
// (post-relative).
func (a *analysis) windowStats(lo, hi int) *windowStats {
	return a.run.windowStatsOf(a.roll, absRange(a.res.Warmup, lo, hi))
}

// isBurst reports a window (post-relative) whose issue span is shorter
// than the median end-to-end latency of its samples: every sample was
// issued before a typical one completed, so the window never left the
// load ramp.
func (a *analysis) isBurst(lo, hi int) bool {
	lat := a.windowStats(lo, hi).totals.Lat.P50
	return !math.IsNaN(lat) && float64(issueSpanNs(a.res.post[lo:hi])) < lat
}

// minDurationOf is the min-duration gate's configuration in p.
func minDurationOf(p Params) minDurationConfig {
	return minDurationConfig{eps: p.MinDurEps, relaxMult: p.MinDurRelaxMult, floorS: p.MinDurFloorS,
		kstarFloor: p.MinDurKstarFloor}
}
