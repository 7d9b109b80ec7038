package stats

import "math"

// Verdict is a trend classification of a series (detector §7.0).
type Verdict string

// The four verdicts, spelled as the reference outputs them.
const (
	VerdictUp           Verdict = "up"
	VerdictDown         Verdict = "down"
	VerdictSteady       Verdict = "steady"
	VerdictInsufficient Verdict = "insufficient"
)

// TrendAlgo names a trend algorithm as the reference spells it.
type TrendAlgo string

// The five trend algorithms of the reference (detector §7).
const (
	TrendMKHamedRao     TrendAlgo = "mk_hamed_rao"
	TrendMannKendall    TrendAlgo = "mann_kendall"
	TrendNeweyWest      TrendAlgo = "newey_west"
	TrendTheilSen       TrendAlgo = "theil_sen"
	TrendSlopeVsScatter TrendAlgo = "slope_vs_scatter"
)

// TrendAlgos lists the algorithms in the reference's registry order, which is
// the order of its output dictionaries and text columns (detector §7.0).
var TrendAlgos = []TrendAlgo{
	TrendMKHamedRao, TrendMannKendall, TrendNeweyWest, TrendTheilSen, TrendSlopeVsScatter,
}

// Valid reports whether a is one of TrendAlgos.
func (a TrendAlgo) Valid() bool {
	for _, b := range TrendAlgos {
		if a == b {
			return true
		}
	}
	return false
}

// Constants of the reference's trend rules (detector §7, §14).
const (
	// MinTrendN is the shortest series a trend algorithm judges; shorter
	// series are VerdictInsufficient.
	MinTrendN = 4
	// Alpha is the reference's hard-wired significance level.
	Alpha = 0.05
	// RelDriftThreshold is the |relative drift| at which theil_sen and
	// slope_vs_scatter call a drift.
	RelDriftThreshold = 0.15
	// SNRThreshold is slope_vs_scatter's minimum signal-to-scatter ratio.
	SNRThreshold = 2.0
	// ZeroMedianFloor replaces a median of exactly 0 in relative drifts, and
	// is added to the residual scatter in the SNR.
	ZeroMedianFloor = 1e-9
)

// TrendVerdict returns the verdict of algorithm algo on xs with significance
// level alpha (the reference always uses Alpha = 0.05), following the
// reference's rules (detector §7.0–§7.6):
//
//   - len(xs) < MinTrendN, or an unknown algo: VerdictInsufficient.
//   - mk_hamed_rao, mann_kendall: MannKendallResult.Verdict.
//   - newey_west: NeweyWestResult.Verdict.
//   - theil_sen: steady if |TheilSenRelDrift| < 0.15, else its direction.
//   - slope_vs_scatter: SlopeVsScatterResult.Verdict.
//
// Significance uses the reference's p = 2·(1 − Φ(|z|)) with Go's math.Erf, so
// a verdict can differ from the reference only when p is within about 1e-16
// of alpha (§5.7).
func TrendVerdict(algo TrendAlgo, xs []float64, alpha float64) Verdict {
	if len(xs) < MinTrendN {
		return VerdictInsufficient
	}
	switch algo {
	case TrendMKHamedRao:
		return HamedRao(xs).Verdict(alpha)
	case TrendMannKendall:
		return MannKendall(xs).Verdict(alpha)
	case TrendNeweyWest:
		return NeweyWest(xs, -1).Verdict(alpha)
	case TrendTheilSen:
		rel := TheilSenRelDrift(xs)
		if math.Abs(rel) < RelDriftThreshold {
			return VerdictSteady
		}
		return direction(rel)
	case TrendSlopeVsScatter:
		return SlopeVsScatter(xs).Verdict()
	}
	return VerdictInsufficient
}

// direction is up for x > 0, down for x < 0 and steady otherwise (0 or NaN).
func direction(x float64) Verdict {
	switch {
	case x > 0:
		return VerdictUp
	case x < 0:
		return VerdictDown
	}
	return VerdictSteady
}

// Significance is a test's verdict as a function of the significance
// level: V whatever alpha when Fixed, else significantVerdict(Effect, P,
// alpha). A sweep over alpha computes the p-value once, and learns for
// which levels the verdict stays the same (AlphaRange).
type Significance struct {
	Fixed     bool
	V         Verdict
	Effect, P float64
}

// Verdict is the verdict at level alpha.
func (s Significance) Verdict(alpha float64) Verdict {
	if s.Fixed {
		return s.V
	}
	return significantVerdict(s.Effect, s.P, alpha)
}

// AlphaRange narrows (lo, hi] to the levels at which s's verdict is the
// one it has at alpha: above P when P < alpha (significant), at most P
// otherwise; a fixed verdict, a zero effect or a NaN p-value (steady at
// every level) leave it.
func (s Significance) AlphaRange(alpha, lo, hi float64) (float64, float64) {
	if s.Fixed || s.Effect == 0 || math.IsNaN(s.P) {
		return lo, hi
	}
	if s.P < alpha {
		return max(lo, s.P), hi
	}
	return lo, min(hi, s.P)
}

// significantVerdict is up/down by the sign of effect when p < alpha, else
// steady.
func significantVerdict(effect, p, alpha float64) Verdict {
	if p < alpha {
		if effect > 0 {
			return VerdictUp
		}
		if effect < 0 {
			return VerdictDown
		}
	}
	return VerdictSteady
}

// TrendVerdicts returns TrendVerdict(algo, xs, alpha) of every algorithm
// of TrendAlgos, in that order, computing once what several of them share:
// Mann–Kendall's S and variance (mann_kendall, mk_hamed_rao), the OLS fit
// (newey_west, slope_vs_scatter) and the median (theil_sen,
// slope_vs_scatter). slope_vs_scatter's residual scatter is computed only
// when the relative drift reaches RelDriftThreshold (below it the series
// cannot be drifting).
func TrendVerdicts(xs []float64, alpha float64) [5]Verdict {
	n := len(xs)
	if n < MinTrendN {
		return insufficientVerdicts()
	}
	s, v0 := mkS(xs), mkVariance(xs)
	c, _ := hamedRaoCorrectionOf(xs, nil)
	var rbuf [smallSeriesMax]float64
	resid := rbuf[:0]
	if n > len(rbuf) {
		resid = make([]float64, 0, n)
	}
	ols := olsFitInto(xs, resid[:n])
	m := Median(xs)
	if m == 0 {
		m = ZeroMedianFloor // medianOrFloor
	}
	return verdictsOf(n, s, v0, c, ols, -1, m, theilSenVerdict(xs, m), zBand{alpha: alpha})
}

// insufficientVerdicts is the five verdicts of a series too short to judge.
func insufficientVerdicts() [5]Verdict {
	return [5]Verdict{VerdictInsufficient, VerdictInsufficient, VerdictInsufficient, VerdictInsufficient,
		VerdictInsufficient}
}

// verdictsOf is TrendVerdicts of a series of n ≥ MinTrendN values from
// its parts: Mann–Kendall's S, its uncorrected variance v0 and Hamed–Rao's
// factor c, the OLS fit, newey_west's bandwidth (−1: NeweyWestLags), the
// floored median m and theil_sen's verdict, at the level of band (a
// zBand, or zBand{alpha: alpha} to compute every p-value). The p-values
// the verdicts do not read are not computed.
func verdictsOf(n, s int, v0, c float64, ols OLSResult, nwLags int, m float64, theilSen Verdict,
	band zBand) [5]Verdict {
	var out [5]Verdict
	out[0] = band.verdict(mkNoP(n, s, v0*c, c).zTest())
	out[1] = band.verdict(mkNoP(n, s, v0, 1).zTest())
	out[2] = band.verdict(neweyWestNoP(ols, nwLags).zTest())
	out[3] = theilSen
	out[4] = slopeVsScatterVerdict(ols, m)
	return out
}

// slopeVsScatterVerdict is slope_vs_scatter's verdict from the OLS fit of
// at least MinTrendN values and their floored median m; the residual
// scatter is computed only when the relative drift reaches
// RelDriftThreshold (below it the series cannot be drifting).
func slopeVsScatterVerdict(ols OLSResult, m float64) Verdict {
	total := ols.Slope * float64(ols.N-1)
	rel := total / m
	if !(math.Abs(rel) < RelDriftThreshold) {
		snr := math.Abs(total) / (PStdev(ols.Residuals) + ZeroMedianFloor)
		if math.Abs(rel) >= RelDriftThreshold && snr >= SNRThreshold {
			return direction(rel)
		}
	}
	return VerdictSteady
}
