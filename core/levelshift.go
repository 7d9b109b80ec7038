package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Anomaly is the level-shift record (detector spec §10.5).
type Anomaly struct {
	Detected bool
	// ChangePointSP is Pettitt's change point (post-relative), −1 (JSON
	// null) when nothing is detected.
	ChangePointSP int
	// DeltaPct is the signed TPOT change of the later plateau vs the
	// reported one, in percent (0 by default).
	DeltaPct float64
	// Pettitt is the test on the per-super-pass TPOT means; nil when the
	// test was not reached.
	Pettitt *stats.PettittResult
	// Plateaus are all plateaus.
	Plateaus []Plateau
}

// pooledTPOTMean is the compensated mean of the pooled TPOT of w, 0 if empty.
func pooledTPOTMean(w []SuperPass) float64 {
	t := pooled(w, func(sp *SuperPass) []float64 { return sp.TPOT })
	if len(t) == 0 {
		return 0
	}
	return stats.Sum(t) / float64(len(t))
}

// detectLevelShift flags a staircase after the reported plateau base
// (§10.5): with μ_R the pooled TPOT mean of plateau base (> 0 required) and
// the Pettitt test on the per-super-pass TPOT means of all of post (0 for a
// super-pass without TPOT), the first later plateau with
// |μ − μ_R|/μ_R > band while Pettitt is significant sets Detected,
// ChangePointSP = Pettitt's change point and DeltaPct = 100·rel.
func detectLevelShift(post []SuperPass, pct []*spPercentiles, plateaus []Plateau, base int, band, alpha float64) Anomaly {
	a := Anomaly{ChangePointSP: -1, Plateaus: plateaus}
	if len(plateaus) <= base+1 {
		return a
	}
	pr := plateaus[base]
	mu := pooledTPOTMean(post[pr.Lo:pr.Hi])
	if mu <= 0 {
		return a
	}
	means := make([]float64, len(pct))
	for i, d := range pct {
		means[i] = d.tpotMean
	}
	pet := stats.Pettitt(means, alpha)
	a.Pettitt = &pet
	for _, p := range plateaus[base+1:] {
		rel := (pooledTPOTMean(post[p.Lo:p.Hi]) - mu) / mu
		if math.Abs(rel) > band && pet.Significant {
			a.Detected = true
			a.ChangePointSP = pet.ChangePoint
			a.DeltaPct = rel * 100.0
			break
		}
	}
	return a
}

// globalTrend returns the gate's verdict per watched metric (ttft_p50,
// ttft_p90, tpot_p50, tpot_p90) on its trajectory over post[from:] (empty
// super-passes skipped), insufficient below minN points (§10.6).
func globalTrend(pct []*spPercentiles, from int, gate string, minN int, alpha float64) [4]string {
	var out [4]string
	for i, m := range watchedMetrics {
		out[i] = trendVerdict(gate, trajectory(pct[from:], m), minN, alpha)
	}
	return out
}
