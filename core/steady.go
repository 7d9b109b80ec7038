package core

import (
	"fmt"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// SteadyState is the headline block (detector spec §10): the reported
// plateau with its summaries, throughput, min-duration record, level
// shift and tail trend. Window, TTFT, TPOT, TPS and ShortWindow are nil
// when no plateau exists; in the all-short case they are filled while
// Found is false (§10.4).
type SteadyState struct {
	Found bool
	// Reason explains a non-found result ("" = JSON null).
	Reason      string
	Window      *WindowInfo
	TTFT, TPOT  *stats.Summary
	TPS         *TPS
	Anomaly     Anomaly
	ShortWindow *ShortWindow
	// GlobalTrend is the gate's verdict for ttft_p50, ttft_p90, tpot_p50,
	// tpot_p90 over post[plateau start:].
	GlobalTrend [4]string
	// DriftingUp lists the watched keys whose GlobalTrend is up.
	DriftingUp []string

	// Plateaus and Shorts are every plateau and its gate record; AllShort
	// reports the enforced gate rejecting all of them.
	Plateaus []Plateau
	Shorts   []ShortWindow
	AllShort bool
}

// buildSteadyState selects and summarises the reported plateau of the
// post-warmup series (§10.2–§10.7).
func buildSteadyState(post []SuperPass, pct []*spPercentiles, p Params, covMax float64) SteadyState {
	g := gateConfig{gate: p.TrendGate, covMax: covMax, relDriftMin: p.TrendRelDriftMin,
		minN: p.MinTrendN, alpha: p.Alpha}
	plateaus := segmentPlateaus(pct, g)
	ss := SteadyState{Plateaus: plateaus}
	if len(plateaus) == 0 {
		ss.Reason = "no admissible steady plateau"
		ss.Anomaly = detectLevelShift(post, pct, plateaus, 0, p.LevelShiftBand, p.Alpha)
		ss.GlobalTrend = globalTrend(pct, 0, p.TrendGate, p.MinTrendN, p.Alpha)
		ss.DriftingUp = driftingUp(ss.GlobalTrend)
		return ss
	}
	mc := minDurationConfig{eps: p.MinDurEps, relaxMult: p.MinDurRelaxMult, floorS: p.MinDurFloorS,
		kstarFloor: p.MinDurKstarFloor}
	ss.Shorts = make([]ShortWindow, len(plateaus))
	for i, pl := range plateaus {
		ss.Shorts[i] = minSteadyDuration(post[pl.Lo:pl.Hi], pct[pl.Lo:pl.Hi], mc)
	}
	report, allShort := reportedPlateau(ss.Shorts, p.MinDuration)
	ss.AllShort = allShort
	short := ss.Shorts[report]
	pl := plateaus[report]
	w := post[pl.Lo:pl.Hi]
	ss.Anomaly = detectLevelShift(post, pct, plateaus, report, p.LevelShiftBand, p.Alpha)
	ss.GlobalTrend = globalTrend(pct, pl.Lo, p.TrendGate, p.MinTrendN, p.Alpha)
	ss.DriftingUp = driftingUp(ss.GlobalTrend)

	wp := pct[pl.Lo:pl.Hi]
	ttft := sortedLists(wp, func(d *spPercentiles) []float64 { return d.sortedTTFT })
	tpot := sortedLists(wp, func(d *spPercentiles) []float64 { return d.sortedTPOT })
	nTTFT := 0
	if len(ttft) > 0 {
		s := summarizeLists(ttft)
		ss.TTFT = &s
		nTTFT = s.Count
	}
	if len(tpot) > 0 {
		s := summarizeLists(tpot)
		ss.TPOT = &s
	}
	tps := windowTPSCached(w, wp)
	ss.TPS = &tps
	skipped := 0 // short plateaus before the reported one (= its index when enforced)
	for i := range report {
		if ss.Shorts[i].IsShort {
			skipped++
		}
	}
	ss.Window = &WindowInfo{SPLo: pl.Lo, SPHi: pl.Hi, NSuperPasses: pl.Hi - pl.Lo, NSamples: nTTFT,
		PlateauIndex: report, NPlateaus: len(plateaus), SkippedShort: skipped}
	ss.ShortWindow = &short
	ss.Found = true
	if ss.AllShort {
		ss.Found = false
		ss.Reason = fmt.Sprintf("all %d admissible plateau(s) too short: longest %s < %s required "+
			"(%s-dominated); pass --no-min-duration to override",
			len(plateaus), pyFixed(short.WindowDurationS, 0)+"s", pyFixed(short.MinDurationS, 0)+"s",
			short.Dominant)
	}
	return ss
}

// reportedPlateau picks the plateau to report from the gate records of all
// plateaus (§10.4): with the gate enforced, the first that is not short;
// if all are short, the longest (first on ties) with allShort set; with
// the gate off, the first.
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

// sortedLists collects one cached sorted list per super-pass.
func sortedLists(pct []*spPercentiles, get func(*spPercentiles) []float64) [][]float64 {
	out := make([][]float64, 0, len(pct))
	for _, d := range pct {
		if l := get(d); len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// driftingUp lists the watched metric keys whose verdict is up.
func driftingUp(gt [4]string) []string {
	out := []string{}
	for i, m := range watchedMetrics {
		if gt[i] == VerdictUp {
			out = append(out, TrackedMetrics[m].Key)
		}
	}
	return slices.Clip(out)
}
