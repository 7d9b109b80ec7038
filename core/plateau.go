package core

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

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

// segmentPlateaus returns the plateaus of the post-warmup series by the
// reference's grow-from-left rule (§10.2):
//
//	start = 0
//	while start ≤ n − minN:
//	    grow end = start+minN, start+minN+1, … while [start, end) is admissible
//	    if some end was admissible: record [start, best), start = best
//	    else: start++
//
// Growth stops at the first inadmissible end. Plateaus are disjoint and
// at least minN long. It decides exactly as windowAdmissible, keeping each
// gated metric's window values sorted as the window grows so the medians
// of the relative drifts cost no selection.
func segmentPlateaus(pct []*spPercentiles, g gateConfig) []Plateau {
	n := len(pct)
	var out []Plateau
	minLen := max(g.minN, 1)
	var win [2]growingWindow
	tmp := make([]float64, 0, n)
	for start := 0; start <= n-minLen; {
		for i := range win {
			win[i].reset()
		}
		best := -1
	grow:
		for end := start + 1; end <= n; end++ {
			for i, m := range gatedMetrics {
				if !pct[end-1].ok[m] {
					break grow // a super-pass lacking the metric fails every longer window
				}
				win[i].push(pct[end-1].v[m])
			}
			if end-start < minLen {
				continue
			}
			if !win[0].admissible(g, tmp) || !win[1].admissible(g, tmp) {
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

// growingWindow holds a gated metric's values over a growing window, in
// order and sorted.
type growingWindow struct{ vals, sorted []float64 }

func (w *growingWindow) reset() { w.vals, w.sorted = w.vals[:0], w.sorted[:0] }

func (w *growingWindow) push(x float64) {
	w.vals = append(w.vals, x)
	i, _ := slices.BinarySearch(w.sorted, x)
	w.sorted = slices.Insert(w.sorted, i, x)
}

// median is stats.Median(vals): the middle value, or the mean of the two
// middle values, of the sorted values (a zero or NaN is recomputed by
// stats.Median, whose signed-zero order follows Python's stable sort).
func (w *growingWindow) median() float64 {
	n := len(w.sorted)
	var m float64
	if n%2 == 1 {
		m = w.sorted[n/2]
	} else {
		m = (w.sorted[n/2-1] + w.sorted[n/2]) / 2
	}
	if m == 0 || m != m {
		return stats.Median(w.vals)
	}
	return m
}

// admissible is windowAdmissible's test of one gated metric.
func (w *growingWindow) admissible(g gateConfig, tmp []float64) bool {
	traj := w.vals
	if len(traj) < g.minN || covExceeds(traj, g.covMax) {
		return false
	}
	m := w.median()
	if m == 0 {
		m = stats.ZeroMedianFloor
	}
	rel := 0.0
	if len(traj) >= 2 {
		rel = olsSlope(traj, tmp) * float64(len(traj)-1) / m
	}
	return !(math.Abs(rel) >= g.relDriftMin && verdict(g.gate, traj, g.minN, g.alpha, tmp) != VerdictSteady)
}
