package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// ShortWindow is the min-duration gate record of one plateau (detector
// spec §10.3). Durations are in seconds.
type ShortWindow struct {
	IsShort         bool
	WindowDurationS float64
	MinDurationS    float64
	// Dominant is "precision", "relaxation" or "floor".
	Dominant     string
	TPrecisionS  float64
	TRelaxationS float64
	TFloorS      float64
	KStar        int
	CovB         float64
	TauSPS       float64
	LP90S        float64
}

// DefaultMinDurFloorS is the min-duration gate's wall-time floor when
// neither the parameters nor the run set one: MLPerf's 600 s minimum
// duration, the reference's fixed floor.
const DefaultMinDurFloorS = 600.0

// MinDurFloor is the wall-time floor T_floor of the min-duration gate for a
// run with info under p (design §5.5): p.MinDurFloorS when it is set (> 0,
// a flag or sweep parameter), else min(DefaultMinDurFloorS, the run's
// configured minimum duration) when config.yaml sets min_duration_ms, else
// DefaultMinDurFloorS. A run configured for longer than MLPerf's 600 s
// minimum needs no longer window; one configured for less is exploratory,
// and its own shorter minimum is the floor. fromRun reports that the run's
// value is the floor (it is at most 600 s).
func MinDurFloor(info RunInfo, p Params) (seconds float64, fromRun bool) {
	switch {
	case p.MinDurFloorS > 0:
		return p.MinDurFloorS, false
	case info.MinDurationS > 0 && info.MinDurationS <= DefaultMinDurFloorS:
		return info.MinDurationS, true
	}
	return DefaultMinDurFloorS, false
}

// minDurationConfig holds the gate's constants (reference: ε 0.05, relax
// ×5, floor 600 s, k* floor 4).
type minDurationConfig struct {
	eps, relaxMult, floorS float64
	kstarFloor             int
}

// minSteadyDuration computes the gate record of the window w (§10.3):
//
//	cov_b    = CoV(tpot_p50 per super-pass, empty skipped), 0 if < 2 values
//	tau_sp   = median of per-super-pass issue spans (s) over super-passes
//	           with LastIssueNs > FirstIssueNs ≥ 0, 0 if none
//	l_p90    = PercentileLower(sorted pooled latency, 0.90)/1e9, 0 if none
//	k*       = max(⌈(1.96·cov_b/ε)²⌉, k*floor)
//	t_prec   = k*·tau_sp if k* > k*floor, else 0
//	t_relax  = relaxMult·l_p90
//	min      = max(t_prec, t_relax, floor), dominant by that precedence
//	duration = issue span (s);  is_short = duration < min
func minSteadyDuration(w []SuperPass, pct []*spPercentiles, c minDurationConfig) ShortWindow {
	return durationStatsOf(w, pct, nil).gate(c)
}

// durationStats are what the gate measures of a window, independent of
// the parameters: cov_b, tau_sp, l_p90 and the issue span.
type durationStats struct{ covB, tau, lp90, dur float64 }

// durationStatsOf measures the window w (pct its percentiles) with sc's
// window scratch (nil: fresh).
func durationStatsOf(w []SuperPass, pct []*spPercentiles, sc *scratch) durationStats {
	buf := sc.floats(max(len(pct), len(w))) // the trajectory, then the spans
	p50 := appendTrajectory(buf, pct, mTPOTP50)
	covB := 0.0
	if len(p50) >= 2 {
		covB = stats.CoV(p50)
	}
	spans := buf[:0]
	for i := range w {
		if w[i].LastIssueNs > w[i].FirstIssueNs && w[i].FirstIssueNs >= 0 {
			spans = append(spans, float64(w[i].LastIssueNs-w[i].FirstIssueNs)/1e9)
		}
	}
	tau := 0.0
	if len(spans) > 0 {
		tau = stats.Median(spans)
	}
	lp90 := 0.0
	if lat := sc.sortedLists(pct, func(d *spPercentiles) []float64 { return d.sortedLatency }); len(lat) > 0 {
		lp90 = percentileLists(lat, 0.90, sc.startsBuf()) / 1e9
	}
	return durationStats{covB: covB, tau: tau, lp90: lp90, dur: float64(issueSpanNs(w)) / 1e9}
}

// gate is the gate record of the window under the configuration c.
func (d durationStats) gate(c minDurationConfig) ShortWindow {
	covB, tau, lp90 := d.covB, d.tau, d.lp90
	z := 1.96 * covB / c.eps
	kstar := c.kstarFloor
	if k := math.Ceil(z * z); k > float64(kstar) {
		if k >= math.MaxInt32 {
			kstar = math.MaxInt32
		} else {
			kstar = int(k)
		}
	}
	tPrec := 0.0
	if kstar > c.kstarFloor {
		tPrec = float64(kstar) * tau
	}
	tRelax := c.relaxMult * lp90
	minS := pyMax3(tPrec, tRelax, c.floorS)
	dominant := "floor"
	switch minS {
	case tPrec:
		dominant = "precision"
	case tRelax:
		dominant = "relaxation"
	}
	dur := d.dur
	return ShortWindow{
		IsShort:         dur < minS,
		WindowDurationS: dur,
		MinDurationS:    minS,
		Dominant:        dominant,
		TPrecisionS:     tPrec,
		TRelaxationS:    tRelax,
		TFloorS:         c.floorS,
		KStar:           kstar,
		CovB:            covB,
		TauSPS:          tau,
		LP90S:           lp90,
	}
}

// pyMax3 is Python's max(a, b, c): a later argument replaces the running
// maximum only if it is strictly greater (so ties keep the first, and a
// NaN neither replaces nor, unless first, is kept).
func pyMax3(a, b, c float64) float64 {
	m := a
	if b > m {
		m = b
	}
	if c > m {
		m = c
	}
	return m
}
