package stats

import "math/bits"

// The rank autocorrelations of Hamed–Rao (rankACFInto) by an exact
// number-theoretic transform: O(n log n) instead of the n − 1 lags of O(n)
// each, with the same floats.
//
// Why it is exact: the ranks are the ordinal ranks 1…n, so the deviations
// d_t = r_t − (n+1)/2 are half-integers and a_t = 2·d_t integers with
// |a_t| < n. The lag-k sum of the direct loop, Σ_{t≥k} d_t·d_{t−k}, adds
// quarter-integers whose partial sums stay below Σ d_t² ≈ n³/12 in
// magnitude: below 2⁵¹ (n ≤ 2¹⁸, nttExactMaxN) every partial sum is a
// float64 without rounding, so the loop's sum is the exact rational
// c_k/4, c_k = Σ a_t·a_{t−k}, whatever the order of the additions. The
// transform computes every c_k exactly as an integer modulo the prime
// p = 2⁶⁴ − 2³² + 1 (|c_k| ≤ n³/3 < p/2 for n ≤ 2²⁰), and c_k/4 / D is then
// the loop's float bit for bit. Above 2¹⁸ the loop itself rounds; the
// transform's c_k stays exact up to 2²⁰ (its float64 rounds once) and is
// used there too.

// nttMinN is the shortest series whose autocorrelations go through the
// transform: below it the direct loop is as fast, and every run of up to
// 500 super-passes keeps it (the transform's floats are the loop's either
// way; TestRankACFTransformMatchesLoop).
const nttMinN = 512

// nttMinLags is the fewest lags worth a transform (a few lags are
// cheaper by the loop; Hamed–Rao asks for all n − 1).
const nttMinLags = 64

// nttMaxN is the longest series the transform takes (|c_k| < p/2).
const nttMaxN = 1 << 20

// goldilocks is the prime p = 2⁶⁴ − 2³² + 1; its multiplicative group has
// order divisible by 2³², so transforms of every power-of-two length up
// to 2³² exist, and 7 generates the group.
const (
	goldilocks    = 0xFFFFFFFF00000001
	goldEpsilon   = 0xFFFFFFFF // 2⁶⁴ mod p
	goldGenerator = 7
)

func gAdd(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 || s >= goldilocks {
		s -= goldilocks // with a carry: s + 2⁶⁴ − p, wrapping
	}
	return s
}

func gSub(a, b uint64) uint64 {
	d, br := bits.Sub64(a, b, 0)
	if br != 0 {
		d += goldilocks // wrapping: d − 2⁶⁴ + p
	}
	return d
}

// gMul is a·b mod p: the 128-bit product hi·2⁶⁴ + lo reduced with
// 2⁶⁴ ≡ 2³² − 1 and 2⁹⁶ ≡ −1 (mod p).
func gMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	hh, hl := hi>>32, hi&goldEpsilon
	t0, br := bits.Sub64(lo, hh, 0)
	if br != 0 {
		t0 -= goldEpsilon // t0 − 2⁶⁴ + p, cannot wrap below 0
	}
	t1 := hl * goldEpsilon // < 2⁶⁴: hl < 2³²
	r, c := bits.Add64(t0, t1, 0)
	if c != 0 {
		r += goldEpsilon // r + 2⁶⁴ − p; cannot carry again
	}
	if r >= goldilocks {
		r -= goldilocks
	}
	return r
}

func gPow(a, e uint64) uint64 {
	r := uint64(1)
	for ; e > 0; e >>= 1 {
		if e&1 != 0 {
			r = gMul(r, a)
		}
		a = gMul(a, a)
	}
	return r
}

// gOf is the residue of the integer v.
func gOf(v int64) uint64 {
	if v < 0 {
		return goldilocks - uint64(-v)
	}
	return uint64(v)
}

// gSigned is the integer of residue r in (−p/2, p/2).
func gSigned(r uint64) int64 {
	if r > goldilocks/2 {
		return -int64(goldilocks - r)
	}
	return int64(r)
}

// ntt transforms a (length a power of two) in place: the inverse
// transform without its 1/len scaling when inverse. It polls stop (when
// not nil) once per stage and reports false once stop reports true.
func ntt(a []uint64, inverse bool, stop func() bool) bool {
	n := len(a)
	for i, j := 1, 0; i < n; i++ { // bit-reversal permutation
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j |= bit
		if i < j {
			a[i], a[j] = a[j], a[i]
		}
	}
	for length := 2; length <= n; length <<= 1 {
		if stop != nil && stop() {
			return false
		}
		w := gPow(goldGenerator, (goldilocks-1)/uint64(length))
		if inverse {
			w = gPow(w, goldilocks-2)
		}
		half := length / 2
		// The stage's twiddles once, then every butterfly block uses them.
		tw := make([]uint64, half)
		tw[0] = 1
		for k := 1; k < half; k++ {
			tw[k] = gMul(tw[k-1], w)
		}
		for i := 0; i < n; i += length {
			lo, hi := a[i:i+half], a[i+half:i+length]
			for k := range lo {
				u, v := lo[k], gMul(hi[k], tw[k])
				lo[k], hi[k] = gAdd(u, v), gSub(u, v)
			}
		}
	}
	return true
}

// rankACFTransform is rankACFInto's acf by the transform: acf[k−1] =
// (c_k/4)/den for k = 1…len(acf), c_k the lag-k autocovariance sum of the
// integers a_t = 2·dev_t (the caller guarantees them integral, |a_t| < n
// and n ≤ nttMaxN). It reports false once stop reports true.
func rankACFTransform(dev []float64, den float64, acf []float64, stop func() bool) bool {
	n := len(dev)
	size := 1
	for size < 2*n {
		size <<= 1
	}
	// The cyclic autocorrelation of a (zero-padded to ≥ 2n, so it does not
	// wrap) is the inverse transform of X_j·X_{−j}: its entry k is c_k.
	x := make([]uint64, size)
	for t, d := range dev {
		x[t] = gOf(int64(2 * d))
	}
	if !ntt(x, false, stop) {
		return false
	}
	for j := 1; j < size/2; j++ {
		p := gMul(x[j], x[size-j])
		x[j], x[size-j] = p, p
	}
	x[0], x[size/2] = gMul(x[0], x[0]), gMul(x[size/2], x[size/2])
	if !ntt(x, true, stop) {
		return false
	}
	inv := gPow(uint64(size), goldilocks-2)
	for k := 1; k <= len(acf); k++ {
		c := gSigned(gMul(x[k], inv))
		acf[k-1] = (float64(c) / 4) / den // c and c/4 exact while |c| < 2⁵³ (n ≤ 2¹⁸)
	}
	return true
}

// transformable reports whether rankACFTransform reproduces the direct
// loop on dev for lags 1…maxLag, and is worth it: a length from nttMinN
// to nttMaxN, at least nttMinLags lags, and every 2·dev_t an integer
// below n in magnitude (always so for ordinal ranks).
func transformable(dev []float64, maxLag int) bool {
	n := len(dev)
	if n < nttMinN || n > nttMaxN || maxLag < nttMinLags {
		return false
	}
	for _, d := range dev {
		a := 2 * d
		if a != float64(int64(a)) || a >= float64(n) || a <= -float64(n) {
			return false
		}
	}
	return true
}
