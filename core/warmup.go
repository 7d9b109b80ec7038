package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// WarmupMode says how the warmup crop is chosen.
type WarmupMode string

// The warmup modes.
const (
	WarmupAuto  WarmupMode = "auto"  // adaptive crop of the ramp
	WarmupFixed WarmupMode = "fixed" // Params.WarmupFixed super-passes
)

// WarmupModes returns the modes in documentation order.
func WarmupModes() []WarmupMode { return []WarmupMode{WarmupAuto, WarmupFixed} }

func (m WarmupMode) String() string { return string(m) }

// Valid reports whether m is one of WarmupModes.
func (m WarmupMode) Valid() bool { _, err := ParseWarmupMode(string(m)); return err == nil }

// ParseWarmupMode returns the WarmupMode spelled s.
func ParseWarmupMode(s string) (WarmupMode, error) { return parseEnum("warmup_mode", s, WarmupModes()) }

// warmupDriver is the index of the metric driving the auto crop: the
// parameter's, else the profile's.
func warmupDriver(p Params, prof Profile) int {
	if d := MetricIndex(p.WarmupDriver); d >= 0 {
		return d
	}
	return MetricIndex(prof.WarmupDriver)
}

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

// settledWarmup is steadysweep's adaptive warmup crop (deviations D1, D2):
// over the driver trajectory (super-passes with the metric), the first
// position below the cap where the series settles (settlePosition) is the
// end of the ramp; without one, the reference rule (AutoWarmup) decides.
// The crop is at least one position and is mapped back to the super-pass
// holding that position, so empty leading super-passes are cropped too.
func settledWarmup(pct []*spPercentiles, driver int, p Params) int {
	var idx []int
	var vals []float64
	for i, pc := range pct {
		if driver >= 0 && pc.ok[driver] {
			idx = append(idx, i)
			vals = append(vals, pc.v[driver])
		}
	}
	n := len(vals)
	if n == 0 {
		return min(1, len(pct))
	}
	pos := settlePosition(vals, p)
	if pos < 0 {
		pos = AutoWarmup(vals, p.WarmupBand, p.WarmupMaxFrac, p.MinTrendN, 1)
	}
	pos = max(pos, 1)
	if pos >= n {
		return len(pct)
	}
	return idx[pos]
}

// settlePosition is the first position j below the cap ⌊n·WarmupMaxFrac⌋
// of the driver values vals whose next MinTrendN values all lie within
// WarmupBand/2 of their own median (half the band, so the tail of an
// asymptotic ramp is not taken as level), or −1 when the series never
// settles before the cap: the crop then comes from the reference rule,
// which is itself evidence of a drift (the drift guard, driftguard.go).
func settlePosition(vals []float64, p Params) int {
	n := len(vals)
	capW := int(math.Trunc(float64(n) * p.WarmupMaxFrac))
	for j := 0; j < capW && j+p.MinTrendN <= n; j++ {
		win := vals[j : j+p.MinTrendN]
		med := stats.Median(win)
		ok := med > 0
		for _, v := range win {
			if !(math.Abs(v-med)/med <= p.WarmupBand/2) {
				ok = false
				break
			}
		}
		if ok {
			return j
		}
	}
	return -1
}

// warmup of the reference: the fixed crop, or AutoWarmup on the driver's
// trajectory over the whole series.
func (reference) warmup(a *analysis) int {
	if a.p.WarmupMode == WarmupFixed {
		return a.p.WarmupFixed
	}
	p := a.p
	return AutoWarmup(trajectory(a.pct, warmupDriver(p, a.prof)), p.WarmupBand, p.WarmupMaxFrac, p.MinTrendN, 1)
}

// warmup of steadysweep: the fixed crop, or settledWarmup.
func (steadysweep) warmup(a *analysis) int {
	if a.p.WarmupMode == WarmupFixed {
		return a.p.WarmupFixed
	}
	return settledWarmup(a.pct, warmupDriver(a.p, a.prof), a.p)
}
