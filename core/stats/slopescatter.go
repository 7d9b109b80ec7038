package stats

import "math"

// SlopeVsScatterResult is the reference's slope-versus-scatter drift measure.
type SlopeVsScatterResult struct {
	N           int
	Slope       float64 // OLS slope
	TotalChange float64 // Slope·(n−1)
	RelDrift    float64 // TotalChange / median (floored at ZeroMedianFloor)
	ResidStd    float64 // PStdev of the OLS residuals (exact)
	SNR         float64 // |TotalChange| / (ResidStd + ZeroMedianFloor)
	// Drifting is |RelDrift| ≥ RelDriftThreshold and SNR ≥ SNRThreshold.
	Drifting bool
}

// SlopeVsScatter returns the reference's slope_vs_scatter measures of xs
// (detector §7.6): with the OLS fit of §7.4,
//
//	Δ   = slope·(n−1)
//	rel = Δ / median(xs)            (median 0 → ZeroMedianFloor)
//	snr = |Δ| / (PStdev(e) + 1e−9)
//
// Bit-exact with the reference. For n < 2 the floats are NaN except that
// ResidStd is 0.
func SlopeVsScatter(xs []float64) SlopeVsScatterResult {
	n := len(xs)
	if n < 2 {
		nan := math.NaN()
		return SlopeVsScatterResult{N: n, Slope: nan, TotalChange: nan, RelDrift: nan, SNR: nan}
	}
	ols := olsFit(xs)
	sd := PStdev(ols.Residuals)
	total := ols.Slope * float64(n-1)
	rel := total / medianOrFloor(xs)
	snr := math.Abs(total) / (sd + ZeroMedianFloor)
	return SlopeVsScatterResult{
		N: n, Slope: ols.Slope, TotalChange: total, RelDrift: rel, ResidStd: sd, SNR: snr,
		Drifting: math.Abs(rel) >= RelDriftThreshold && snr >= SNRThreshold,
	}
}

// Verdict returns the reference's slope_vs_scatter verdict: insufficient for
// N < MinTrendN, the direction of RelDrift when Drifting, else steady.
func (r SlopeVsScatterResult) Verdict() Verdict {
	if r.N < MinTrendN {
		return VerdictInsufficient
	}
	if r.Drifting {
		return direction(r.RelDrift)
	}
	return VerdictSteady
}
