package stats

import "math"

// MannKendallResult is the outcome of a Mann–Kendall trend test or of one of
// its variance-corrected (Hamed–Rao) variants.
type MannKendallResult struct {
	N    int     // series length
	S    int     // Σ_{i<j} sgn(x_j − x_i)
	Tau  float64 // Kendall's τ_a = S / (n(n−1)/2), as pymannkendall reports it
	VarS float64 // variance of S used for Z: tie-corrected, times Correction
	// Correction is the variance factor n/n* (1 for the plain test). For the
	// reference's Hamed–Rao it is already replaced by 1 when the raw factor is
	// not positive (detector §7.2 step 7).
	Correction float64
	// Z is the continuity-corrected statistic: (S−1)/√VarS if S > 0,
	// (S+1)/√VarS if S < 0 and 0 if S == 0 (so 0 for a constant series).
	Z float64
	// P is the two-sided normal p-value NormalTwoSidedP(Z) (accurate erfc form).
	P float64
}

// MannKendall returns the original Mann–Kendall test of xs (detector §7.1;
// statistics.md §1, pymannkendall original_test):
//
//	S      = Σ_{i<j} sgn(x_j − x_i)
//	Var(S) = [n(n−1)(2n+5) − Σ_g t_g(t_g−1)(2t_g+5)] / 18
//
// where t_g are the sizes of the groups of exactly equal values (−0 equals +0).
// A difference that is NaN counts as 0, as in the reference. For n < 2 S is 0,
// Var(S) is 0 and Z is 0; callers apply the MinTrendN rule themselves.
func MannKendall(xs []float64) MannKendallResult {
	n := len(xs)
	s := mkS(xs)
	v := mkVariance(xs)
	return mkResult(n, s, v, 1)
}

// mkS returns Σ_{i<j} sgn(x_j − x_i), a difference that is NaN counting 0.
// Up to mkSDirectMax values it sums the signs of all pairs, as the
// reference does; above, in O(n log n): S = concordant − discordant pairs,
// counted by a merge sort over the values that are not NaN (a NaN pairs
// with nothing; equal values, ±0 and equal infinities are ties) — the same
// integer.
func mkS(xs []float64) int {
	if len(xs) <= mkSDirectMax {
		return mkSPairs(xs)
	}
	vals := make([]float64, 0, len(xs))
	for _, x := range xs {
		if x == x {
			vals = append(vals, x)
		}
	}
	n := int64(len(vals))
	sorted := sortedCopy(vals)
	var ties, run int64
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			run++
			ties += run
		} else {
			run = 0
		}
	}
	discordant := countInversions(vals, make([]float64, len(vals)))
	concordant := n*(n-1)/2 - ties - discordant
	return int(concordant - discordant)
}

// mkSDirectMax is where mkS stops summing all pairs.
const mkSDirectMax = 512

// mkSPairs is mkS over all pairs (the reference's loop, and mkS's oracle).
func mkSPairs(xs []float64) int {
	s := 0
	for i, vi := range xs {
		for _, vj := range xs[i+1:] {
			d := vj - vi
			if d > 0 {
				s++
			} else if d < 0 {
				s--
			}
		}
	}
	return s
}

// mkVariance returns the tie-corrected variance of S: an integer numerator
// and one division by 18 (bit-exact with the reference).
func mkVariance(xs []float64) float64 {
	n := int64(len(xs))
	tie := int64(0)
	if n <= mkTiesDirectMax {
		tie = tieTermPairs(xs)
	} else {
		tie = tieTermMap(xs)
	}
	return mkVarianceOf(n, tie)
}

// mkVarianceOf is the tie-corrected variance of S of n values whose tie
// groups sum to tie (Σ_g t_g(t_g−1)(2t_g+5)).
func mkVarianceOf(n, tie int64) float64 {
	return float64(n*(n-1)*(2*n+5)-tie) / 18.0
}

// tieTermMap is tieTermPairs with the groups counted in a map (a NaN key
// never matches, so each NaN is a group of one).
func tieTermMap(xs []float64) int64 {
	counts := make(map[float64]int64, len(xs))
	for _, x := range xs {
		counts[x]++
	}
	var tie int64
	for _, t := range counts {
		tie += t * (t - 1) * (2*t + 5)
	}
	return tie
}

// mkTiesDirectMax is the longest series whose tie groups mkVariance
// counts by comparing pairs rather than in a map.
const mkTiesDirectMax = 64

// tieTermPairs is Σ_g t_g(t_g−1)(2t_g+5) over the groups of equal values
// (== : −0 equals +0, a NaN is a group of one, as map keys group them),
// each group counted at its first member.
func tieTermPairs(xs []float64) int64 {
	var tie int64
	for i, x := range xs {
		if x != x {
			continue
		}
		first, t := true, int64(1)
		for _, y := range xs[:i] {
			if y == x {
				first = false
				break
			}
		}
		if !first {
			continue
		}
		for _, y := range xs[i+1:] {
			if y == x {
				t++
			}
		}
		tie += t * (t - 1) * (2*t + 5)
	}
	return tie
}

// mkZ returns the continuity-corrected z of S with variance v.
func mkZ(s int, v float64) float64 {
	switch {
	case s > 0:
		return float64(s-1) / math.Sqrt(v)
	case s < 0:
		return float64(s+1) / math.Sqrt(v)
	}
	return 0
}

func mkResult(n, s int, v, correction float64) MannKendallResult {
	r := mkNoP(n, s, v, correction)
	r.P = NormalTwoSidedP(r.Z)
	return r
}

// mkNoP is mkResult without the p-value (NaN), which Verdict does not read
// (it uses the reference's expression of p).
func mkNoP(n, s int, v, correction float64) MannKendallResult {
	tau := math.NaN()
	if n >= 2 {
		tau = float64(s) / (float64(n) * float64(n-1) / 2)
	}
	return MannKendallResult{N: n, S: s, Tau: tau, VarS: v, Correction: correction, Z: mkZ(s, v), P: math.NaN()}
}

// Verdict returns the reference's verdict for the test at level alpha
// (detector §7.1, §7.0): VerdictInsufficient if N < MinTrendN; if VarS ≤ 0
// the direction of S; otherwise up/down when the reference's p-value
// 2·(1 − Φ(|Z|)) is below alpha, in the direction of S, else steady.
// A NaN variance (published signed variants) gives steady.
func (r MannKendallResult) Verdict(alpha float64) Verdict { return r.Significance().Verdict(alpha) }

// Significance is Verdict as a function of alpha (its p-value computed
// once).
func (r MannKendallResult) Significance() Significance {
	s, z := r.zTest()
	if !s.Fixed {
		s.P = normalTwoSidedPRef(z)
	}
	return s
}

// zTest is Significance without its p-value: the fixed verdict, or the
// effect and the statistic z whose two-sided normal p-value decides it.
func (r MannKendallResult) zTest() (Significance, float64) {
	if r.N < MinTrendN {
		return Significance{Fixed: true, V: VerdictInsufficient}, 0
	}
	if r.VarS <= 0 {
		return Significance{Fixed: true, V: direction(float64(r.S))}, 0
	}
	return Significance{Effect: float64(r.S)}, r.Z
}
