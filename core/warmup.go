package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// AutoWarmup returns the reference's adaptive warmup crop (detector spec
// §8.1) for the driver trajectory vals (the driver metric over the full
// series, empty super-passes skipped):
//
//	n < minN:  minWarmup
//	steady = median(vals[n/2:])  (1e−9 if exactly 0)
//	cap    = max(minWarmup, trunc(n·maxFrac))
//	w      = the first index < cap with |vals[w] − steady|/steady ≤ band
//	         (cap if none)
//	result = max(minWarmup, w)
//
// The reference uses minN = 4, minWarmup = 1, maxFrac = 0.5, band = 0.05.
// The crop counts trajectory positions but is applied as a super-pass
// count (§18.3). A NaN comparison stops the crop.
func AutoWarmup(vals []float64, band, maxFrac float64, minN, minWarmup int) int {
	n := len(vals)
	if n < minN {
		return minWarmup
	}
	steady := stats.Median(vals[n/2:])
	if steady == 0 {
		steady = stats.ZeroMedianFloor
	}
	c := math.Trunc(float64(n) * maxFrac)
	capW := minWarmup
	if c > float64(capW) {
		capW = int(c)
	}
	w := 0
	for w < capW && math.Abs(vals[w]-steady)/steady > band {
		w++
	}
	return max(minWarmup, w)
}
