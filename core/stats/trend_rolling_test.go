package stats

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// trendVerdictsOracle is TrendVerdicts as it was before verdictsOf and
// the counted theil_sen verdict: each verdict from its own statistic.
func trendVerdictsOracle(xs []float64, alpha float64) [5]Verdict {
	out := [5]Verdict{VerdictInsufficient, VerdictInsufficient, VerdictInsufficient, VerdictInsufficient,
		VerdictInsufficient}
	n := len(xs)
	if n < MinTrendN {
		return out
	}
	s, v0 := mkS(xs), mkVariance(xs)
	hr, _ := hamedRaoFrom(xs, s, v0, nil)
	out[0] = hr.Verdict(alpha)
	out[1] = mkResult(n, s, v0, 1).Verdict(alpha)
	ols := olsFit(xs)
	out[2] = neweyWestFrom(ols, -1).Verdict(alpha)
	m := Median(xs)
	if m == 0 {
		m = ZeroMedianFloor
	}
	if rel := SensSlope(xs) * float64(n-1) / m; math.Abs(rel) < RelDriftThreshold {
		out[3] = VerdictSteady
	} else {
		out[3] = direction(rel)
	}
	out[4] = slopeVsScatterVerdict(ols, m) // unchanged code, moved
	return out
}

// checkRolling compares RollingTrendVerdicts (rt's Verdicts when rt is
// not nil: a state reused from earlier calls) with the oracle on every
// window of xs of size w; it returns the windows checked.
func checkRolling(t *testing.T, rt *RollingTrend, name string, xs []float64, w int) int {
	t.Helper()
	next, checked := 0, 0
	verdicts := RollingTrendVerdicts
	if rt != nil {
		verdicts = rt.Verdicts
	}
	verdicts(xs, w, Alpha, func(lo int, v [5]Verdict) bool {
		if lo != next {
			t.Fatalf("%s w=%d: window %d after %d", name, w, lo, next-1)
		}
		next++
		checked++
		if want := trendVerdictsOracle(xs[lo:lo+w], Alpha); v != want {
			t.Errorf("%s w=%d [%d:%d] %v: rolling %v, TrendVerdicts %v", name, w, lo, lo+w, xs[lo:lo+w], v, want)
		}
		return true
	})
	if want := max(len(xs)-w+1, 0); w > 0 && next != want {
		t.Errorf("%s w=%d: %d windows, want %d", name, w, next, want)
	}
	return checked
}

// TestRollingTrendVerdicts: every window's verdicts equal TrendVerdicts'
// (before this change's refactoring, trendVerdictsOracle) on random series
// of every shape — ties, constant stretches, zeros of both signs, NaN and
// infinities entering and leaving the windows — for window sizes 1–12 and
// around smallSeriesMax; and on every parity trajectory for sizes 3–10.
// The random series share one RollingTrend (its buffers grown and reused
// as the sizes go up and down), the others each take a fresh one.
func TestRollingTrendVerdicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	checked := 0
	var rt RollingTrend
	for _, n := range []int{0, 3, 9, 40, 200} {
		for name, xs := range randomSeries(rng, n) {
			for _, w := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 64, 65, 5} {
				checked += checkRolling(t, &rt, name, xs, w)
			}
		}
	}
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1, 1, 2}
	for rep := range 20 {
		xs := make([]float64, 120)
		for i := range xs {
			if rng.IntN(6) == 0 {
				xs[i] = special[rng.IntN(len(special))]
			} else {
				xs[i] = float64(rng.IntN(4)) * 0.25
			}
		}
		for _, w := range []int{4, 5, 6, 8} {
			checked += checkRolling(t, nil, "special"+itoa(rep), xs, w)
		}
	}
	dir := requireShared(t, filepath.Join("parity", "expected"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, path := range files {
		if strings.Contains(filepath.Base(path), ".cli.") || filepath.Base(path) == "index.json" {
			continue
		}
		traj, ok := loadJSON(t, path)["trajectories"].(map[string]any)
		if !ok {
			continue
		}
		for metric, v := range traj {
			xs := floats(t, v)
			for w := 3; w <= 10; w++ {
				checked += checkRolling(t, nil, filepath.Base(path)+" "+metric, xs, w)
			}
		}
	}
	t.Logf("%d windows", checked)
}

// TestTrendVerdictsMatchOracle: TrendVerdicts (verdictsOf, the counted
// theil_sen verdict above the selection threshold) equals the statistics
// one by one on random series of every shape up to 1,200 points.
func TestTrendVerdictsMatchOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 2))
	for _, n := range []int{4, 5, 8, 30, 100, 257, 600, 1200} {
		for name, xs := range randomSeries(rng, n) {
			if got, want := TrendVerdicts(xs, Alpha), trendVerdictsOracle(xs, Alpha); got != want {
				t.Errorf("%s n=%d: %v, oracle %v", name, n, got, want)
			}
		}
	}
}
