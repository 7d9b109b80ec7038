package stats

import (
	"math"
	"math/big"
)

// PettittResult is the outcome of the Pettitt change-point test.
type PettittResult struct {
	// ChangePoint is the size of the first segment: the 0-based index of the
	// first point after the change (first maximum of |U_t|; 0 when every U_t
	// is 0).
	ChangePoint int
	K           float64 // max_t |U_t|
	P           float64 // min(1, 2·exp(−6K²/(n³+n²)))
	Significant bool    // P < alpha
}

// Pettitt returns the Pettitt (1979) change-point test of xs as the reference
// computes it (detector §10.5 step 4; statistics.md §4):
//
//	r   = AverageRanks(xs)
//	U_t = 2·Σ_{i<t} r_i − t(n+1),  t = 1…n−1   (running sum)
//	K   = max |U_t|,  ChangePoint = the first t attaining K
//	P   = min(1, 2·exp(((−6·K)·K) / (n³ + n²)))
//
// For n < MinTrendN the result is {0, 0, 1, false}, as in the reference. For
// a constant series K = 0 and ChangePoint = 0 (pyhomogeneity reports 1).
// All fields are bit-exact; P uses GlibcExp as the reference uses glibc exp.
func Pettitt(xs []float64, alpha float64) PettittResult {
	n := len(xs)
	if n < MinTrendN {
		return PettittResult{P: 1}
	}
	cum := 0.0
	k := 0.0
	cp := 0
	for t, r := range AverageRanks(xs)[:n-1] {
		cum += r
		u := 2.0*cum - float64((t+1)*(n+1))
		if math.Abs(u) > k {
			k = math.Abs(u)
			cp = t + 1
		}
	}
	p := pettittP(k, n)
	return PettittResult{ChangePoint: cp, K: k, P: p, Significant: p < alpha}
}

// pettittP returns the reference's approximate p-value of K for n points,
// min(1, 2·exp(((−6·K)·K)/(n³ + n²))), with n³ + n² exact (as Python's
// integers) before its conversion to double.
func pettittP(k float64, n int) float64 {
	var den float64
	if n < 1<<20 {
		nf := int64(n)
		den = float64(nf*nf*nf + nf*nf)
	} else {
		nb := big.NewInt(int64(n))
		sq := new(big.Int).Mul(nb, nb)
		cube := new(big.Int).Mul(sq, nb)
		den, _ = new(big.Float).SetInt(cube.Add(cube, sq)).Float64()
	}
	return math.Min(1.0, 2.0*GlibcExp((-6.0*k)*k/den))
}

// pettittU returns U_1…U_{n−1} (for tests).
func pettittU(xs []float64) []float64 {
	n := len(xs)
	if n < 2 {
		return nil
	}
	u := make([]float64, n-1)
	cum := 0.0
	for t, r := range AverageRanks(xs)[:n-1] {
		cum += r
		u[t] = 2.0*cum - float64((t+1)*(n+1))
	}
	return u
}
