package stats

import "math"

// BatchMeansCI returns the reference's 95 % confidence interval of the mean of
// the batch means b_1…b_k (detector §5.9):
//
//	m   = Σb/k                       (compensated sum)
//	var = Σ(b_i − m)² / (k − 1)      (compensated sum of squares)
//	se  = √var / √k
//	lo, hi = m ∓ TCritical95(k−1)·se
//
// Special cases are:
//
//	(0, 0) if k == 0
//	(m, m) if k == 1
//
// The reference squares with Python's ** 2, which is glibc pow(y, 2.0) and
// differs from y*y by an ulp in about 0.1 % of terms (§5.7); GlibcPow
// reproduces it, so the interval is bit-exact.
func BatchMeansCI(means []float64) (lo, hi float64) {
	k := len(means)
	if k == 0 {
		return 0, 0
	}
	m := Sum(means) / float64(k)
	if k == 1 {
		return m, m
	}
	sq := make([]float64, k)
	for i, b := range means {
		sq[i] = GlibcPow(b-m, 2)
	}
	v := Sum(sq) / float64(k-1)
	se := math.Sqrt(v) / math.Sqrt(float64(k))
	crit := TCritical95(k - 1)
	hw := float64(crit * se)
	return m - hw, m + hw
}

// BatchMeans returns the means of k non-overlapping batches of m = ⌊n/k⌋
// consecutive values of xs (compensated sums). The n − k·m leftover values are
// dropped at the head when dropHead is true (keeping the newest data) and at
// the tail otherwise (kim-convergence batch). BatchMeans returns nil when
// k < 1 or m == 0.
func BatchMeans(xs []float64, k int, dropHead bool) []float64 {
	if k < 1 {
		return nil
	}
	m := len(xs) / k
	if m == 0 {
		return nil
	}
	if dropHead {
		xs = xs[len(xs)-k*m:]
	}
	out := make([]float64, k)
	for j := range out {
		out[j] = Sum(xs[j*m:(j+1)*m]) / float64(m)
	}
	return out
}
