package stats

import (
	"math"
	"path/filepath"
	"testing"
)

// TestDegenerateSeries pins Go's behaviour on the vectors' exact-fit series
// (stats.json const10, const50, inc4: exact_fit_degenerate, null OLS/NW
// se/t/p). Decisions, following the reference detector:
//
//   - OLS and NeweyWest report Degenerate = true; the residuals vanish
//     exactly, so SE = 0 and T = P = NaN (the vectors' null).
//   - Verdicts follow the reference (detector §7.1, §7.5): Var(S) ≤ 0 gives
//     the direction of S (steady for a constant series), SE = 0 gives the
//     direction of the slope (up for a perfect ramp, steady for a constant).
//   - CoV, RelDrift and SlopeVsScatter's SNR are ordinary numbers (0, 0 and
//     0 for a constant; the SNR of a perfect line is |Δ|/1e−9).
func TestDegenerateSeries(t *testing.T) {
	doc := loadJSON(t, filepath.Join("testdata", "stats_subset.json"))
	series := map[string][]float64{}
	for _, c := range doc["cases"].([]any) {
		m := c.(map[string]any)
		series[m["name"].(string)] = floats(t, m["x"])
	}
	want := map[string]map[TrendAlgo]Verdict{
		"const10": {
			TrendMKHamedRao: VerdictSteady, TrendMannKendall: VerdictSteady, TrendNeweyWest: VerdictSteady,
			TrendTheilSen: VerdictSteady, TrendSlopeVsScatter: VerdictSteady,
		},
		"inc4": { // n = 4: the MK gates are never significant (§7.1)
			TrendMKHamedRao: VerdictSteady, TrendMannKendall: VerdictSteady, TrendNeweyWest: VerdictUp,
			TrendTheilSen: VerdictUp, TrendSlopeVsScatter: VerdictUp,
		},
	}
	for name, verdicts := range want {
		xs, ok := series[name]
		if !ok {
			t.Fatalf("fixture lacks %s", name)
		}
		ols := OLS(xs)
		nw := NeweyWest(xs, -1)
		if !ols.Degenerate || !nw.Degenerate || ols.SE != 0 || nw.SE != 0 ||
			!math.IsNaN(ols.T) || !math.IsNaN(ols.P) || !math.IsNaN(nw.T) || !math.IsNaN(nw.P) {
			t.Errorf("%s: OLS %+v NW %+v", name, ols, nw)
		}
		for algo, v := range verdicts {
			if got := TrendVerdict(algo, xs, Alpha); got != v {
				t.Errorf("%s: %s verdict %s, want %s", name, algo, got, v)
			}
		}
	}
	c := series["const10"]
	if CoV(c) != 0 || RelDrift(c) != 0 || SlopeVsScatter(c).SNR != 0 {
		t.Errorf("const10: CoV %v RelDrift %v SNR %v", CoV(c), RelDrift(c), SlopeVsScatter(c).SNR)
	}
	if r := MannKendall(c); r.S != 0 || r.VarS != 0 || r.Z != 0 || r.P != 1 {
		t.Errorf("const10 MK = %+v", r)
	}
	// inc4: Δ = 3, residuals 0 → SNR = 3/1e-9.
	if s := SlopeVsScatter(series["inc4"]); s.SNR != 3/ZeroMedianFloor || s.ResidStd != 0 {
		t.Errorf("inc4 SvS = %+v", s)
	}
}
