package core

import "math"

// Plateau is a maximal admissible window [Lo, Hi) of post-warmup
// super-passes (detector spec §10.2).
type Plateau struct{ Lo, Hi int }

// gateConfig is what admissibility needs from the parameters (§10.1).
type gateConfig struct {
	gate        string  // trend algorithm
	covMax      float64 // loosest CoV bound
	relDriftMin float64 // effect-size floor
	minN        int     // minimum points
	alpha       float64
}

// windowAdmissible reports whether post[lo:hi] is admissible (§10.1): for
// each gated metric the per-super-pass values over the window, without
// skipping (any super-pass lacking the metric fails), number at least minN,
// are not trending (gate verdict steady, or |RelDrift| < relDriftMin) and
// have CoV ≤ covMax. buf is scratch space.
func windowAdmissible(pct []*spPercentiles, lo, hi int, g gateConfig, buf, tmp []float64) bool {
	for _, m := range gatedMetrics {
		traj := strictTrajectory(pct[lo:hi], m, buf)
		if traj == nil || len(traj) < g.minN {
			return false
		}
		// The checks are pure, so the cheap CoV check goes first.
		if covExceeds(traj, g.covMax) {
			return false
		}
		// A trend breaks the window only with |rel_drift| ≥ the floor, so
		// the (costlier) gate verdict is needed only then.
		if math.Abs(relDrift(traj, tmp)) >= g.relDriftMin &&
			verdict(g.gate, traj, g.minN, g.alpha, tmp) != VerdictSteady {
			return false
		}
	}
	return true
}

// SegmentPlateaus returns the plateaus of the post-warmup series by the
// reference's grow-from-left rule (§10.2):
//
//	start = 0
//	while start ≤ n − minN:
//	    grow end = start+minN, start+minN+1, … while [start, end) is admissible
//	    if some end was admissible: record [start, best), start = best
//	    else: start++
//
// Growth stops at the first inadmissible end. Plateaus are disjoint and
// at least minN long.
func segmentPlateaus(pct []*spPercentiles, g gateConfig) []Plateau {
	n := len(pct)
	var out []Plateau
	buf := make([]float64, 0, n)
	tmp := make([]float64, 0, n)
	minLen := max(g.minN, 1)
	for start := 0; start <= n-minLen; {
		best := -1
		for end := start + minLen; end <= n; end++ {
			if !windowAdmissible(pct, start, end, g, buf, tmp) {
				break
			}
			best = end
		}
		if best < 0 {
			start++
			continue
		}
		out = append(out, Plateau{start, best})
		start = best
	}
	return out
}
