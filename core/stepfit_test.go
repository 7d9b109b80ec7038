package core

import (
	"math/rand/v2"
	"testing"
)

// TestDriftOverLongSeries: above stepFitMaxPoints the drift guard's
// line-versus-levels fits run on block means (issue 32) and still tell
// the planted shapes apart: a 5,000-point line rising 20 % with 1 % noise
// fires, a 5,000-point series of two levels 20 % apart does not (the
// levels fit better), and the blocked fit leaves the OLS p-value and
// relative drift those of every point.
func TestDriftOverLongSeries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 2))
	const n = 5000
	line, steps := make([]float64, n), make([]float64, n)
	for i := range n {
		noise := 1 + 0.01*rng.NormFloat64()
		line[i] = 100 * (1 + 0.2*float64(i)/n) * noise
		steps[i] = 100 * noise
		if i >= n/2 {
			steps[i] = 120 * noise
		}
	}
	p := DefaultParams()
	if dg := driftOver(line, p, false, nil); !dg.Fired || !(dg.BICLine < dg.BICAlt) || dg.RelDrift < 0.15 {
		t.Errorf("a planted drift: %+v, want fired with the line's BIC lower", dg)
	}
	if dg := driftOver(steps, p, false, nil); dg.Fired || !(dg.BICAlt < dg.BICLine) {
		t.Errorf("two planted levels: %+v, want not fired with the levels' BIC lower", dg)
	}
	if xs, ys := stepFitPoints(indexSeries(n), line); len(ys) > stepFitMaxPoints || len(xs) != len(ys) || xs[1] != 5 {
		t.Errorf("blocks: %d points, second at x=%v; want ≤ %d blocks of 5", len(ys), xs[1], stepFitMaxPoints)
	}
}
