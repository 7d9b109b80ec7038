package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// applyBaseline reports the window of a peer-baseline method (Params.Method)
// on the full super-passes of r (warmup 0 unless WarmupMode is fixed):
//
//	total      every super-pass (the whole tracked run)
//	fixed-pct  drop round(n·FixedWarmupPct/100) leading and
//	           round(n·FixedCooldownPct/100) trailing super-passes (as
//	           GuideLLM crops a fixed share; super-pass granularity)
//	mser5      MSER-5 truncation (White 1997) of the per-sample TPOT series
//	           in super-pass order; the window starts at the first
//	           super-pass after the truncated samples and runs to the end
//
// A baseline always reports its window (Found), with per-metric states,
// but no level-shift detection.
func applyBaseline(r *Result, s *Samples, p Params) {
	o := r.Ours
	o.Baseline = p.Method
	post, pct := r.post, r.pct
	n := len(post)
	ss := &r.Steady
	*ss = SteadyState{Anomaly: Anomaly{ChangePointSP: -1}}
	o.Anomaly = OursAnomaly{ChangePointSP: -1, PettittP: math.NaN()}
	o.Selection = Selection{MSERStart: -1, OLSP: math.NaN(), NeweyWestP: math.NaN()}
	lo, hi := 0, n
	switch p.Method {
	case "fixed-pct":
		lo = int(math.Round(float64(n) * p.FixedWarmupPct / 100))
		hi = n - int(math.Round(float64(n)*p.FixedCooldownPct/100))
	case "mser5":
		lo = mser5Start(post)
	}
	if lo >= hi || n == 0 {
		ss.Reason = "baseline window is empty"
		o.Selection.States = statesOver(pct, 0, n, p)
		return
	}
	fillWindow(ss, post, lo, hi, 0, 1, 0)
	mc := minDurationConfig{eps: p.MinDurEps, relaxMult: p.MinDurRelaxMult, floorS: p.MinDurFloorS,
		kstarFloor: p.MinDurKstarFloor}
	short := minSteadyDuration(post[lo:hi], pct[lo:hi], mc)
	ss.ShortWindow = &short
	ss.Found = true
	ss.Plateaus = []Plateau{{lo, hi}}
	ss.Anomaly.Plateaus = ss.Plateaus
	ss.GlobalTrend = globalTrend(pct, lo, p.TrendGate, p.MinTrendN, p.Alpha)
	ss.DriftingUp = driftingUp(ss.GlobalTrend)
	o.Selection.States = statesOver(pct, lo, hi, p)
	o.WinLo, o.WinHi = r.Warmup+lo, r.Warmup+hi
}

// mser5Start is the first super-pass after MSER-5's truncation of the
// pooled per-sample TPOT series of post (0 when MSER cannot run).
func mser5Start(post []SuperPass) int {
	xs := pooled(post, func(sp *SuperPass) []float64 { return sp.TPOT })
	_, d := stats.MSER(xs, 5)
	if d <= 0 {
		return 0
	}
	cut, seen := d*5, 0
	for i := range post {
		if seen >= cut {
			return i
		}
		seen += len(post[i].TPOT)
	}
	return len(post)
}
