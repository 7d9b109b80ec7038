package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// EnsembleSetting is one CoV setting of steadysweep's admissibility:
// bounds for the p50 and p90 gating metrics (the bound loosens toward the
// tail).
type EnsembleSetting struct{ P50, P90 float64 }

// ensembleTailMult is how much looser the p90 bound of a setting is than
// its p50 bound.
const ensembleTailMult = 1.5

// ensembleOf returns one setting per distinct bound b: {b, 1.5·b}.
func ensembleOf(bounds []float64) []EnsembleSetting {
	out := []EnsembleSetting{}
	for _, b := range distinctBounds(bounds) {
		out = append(out, EnsembleSetting{b, b * ensembleTailMult})
	}
	return out
}

// anyCertifies reports whether some ensemble setting bounds both gating
// CoVs.
func anyCertifies(cov [2]float64, ens []EnsembleSetting) bool {
	for _, e := range ens {
		if cov[0] <= e.P50 && cov[1] <= e.P90 {
			return true
		}
	}
	return false
}

// certifying lists the ensemble settings bounding both gating CoVs.
func certifying(cov [2]float64, ens []EnsembleSetting) []int {
	var out []int
	for i, e := range ens {
		if cov[0] <= e.P50 && cov[1] <= e.P90 {
			out = append(out, i)
		}
	}
	return out
}

// concordanceRules are the earlier design branch's forward stopping rules
// (trailing window, CoV bound).
func concordanceRules() [6]struct {
	w     int
	bound float64
} {
	return [6]struct {
		w     int
		bound float64
	}{{3, 0.03}, {3, 0.05}, {4, 0.05}, {5, 0.08}, {6, 0.10}, {6, 0.15}}
}

// concordance runs each forward rule over the post-warmup series (the
// first end e with CoV < bound for tpot_p50 and tpot_p90 over the
// trailing window [e−w, e)) and returns max(0, 1 − (max e − min e)/
// max(1, n)), 0 when fewer than two rules converge.
func concordance(pct []*spPercentiles, stop *stopper) float64 {
	n := len(pct)
	var ends []int
	buf := make([]float64, 0, 8)
	for _, rule := range concordanceRules() {
		if stop.failed() {
			return 0
		}
		for e := rule.w; e <= n; e++ {
			ok := true
			for _, m := range gatedMetrics() {
				traj := strictTrajectory(pct[e-rule.w:e], m, buf)
				if traj == nil || !(stats.CoV(traj) < rule.bound) {
					ok = false
					break
				}
			}
			if ok {
				ends = append(ends, e)
				break
			}
		}
	}
	if len(ends) < 2 {
		return 0
	}
	lo, hi := ends[0], ends[0]
	for _, e := range ends {
		lo, hi = min(lo, e), max(hi, e)
	}
	return math.Max(0, 1-float64(hi-lo)/float64(max(1, n)))
}
