package stats

import (
	"math"
	"math/big"
	"math/bits"
)

// PStdev returns the population standard deviation of xs exactly as Python
// 3.12's statistics.pstdev computes it (detector §5.2): the variance
//
//	M = (n·Σx² − (Σx)²) / n²
//
// is formed in exact rational arithmetic from the doubles' exact values and
// the result is the correctly rounded √M.
//
// Special cases are:
//
//	PStdev(xs) = NaN  if len(xs) == 0 (Python raises)
//	PStdev(xs) = 0    if len(xs) == 1
//	PStdev(xs) = NaN  if any x is ±Inf or NaN (Python raises)
func PStdev(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return exactStdev(xs, 0)
}

// PStdevLists is PStdev of the concatenation of lists, without
// concatenating them (the value does not depend on the order).
func PStdevLists(lists [][]float64) float64 {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	if n == 0 {
		return math.NaN()
	}
	return exactStdevLists(lists, 0)
}

// Stdev returns the sample standard deviation (divisor n−1) of xs, exact then
// correctly rounded like PStdev (Python's statistics.stdev). It is NaN for
// fewer than two values or any non-finite value.
func Stdev(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	return exactStdev(xs, 1)
}

// CoV returns the coefficient of variation as the reference computes it
// (detector §5.2): the population standard deviation over the absolute
// compensated mean,
//
//	CoV = PStdev(xs) / |Mean(xs)|
//
// Special cases follow the reference:
//
//	CoV(xs) = 0  if len(xs) < 2
//	CoV(xs) = 0  if Mean(xs) == 0
//	CoV(xs) = NaN if any x is ±Inf or NaN
func CoV(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := Mean(xs) // may overflow to ±Inf: then CoV is 0, as in Python
	if m == 0 {
		return 0
	}
	return PStdev(xs) / math.Abs(m)
}

// exactStdev returns the correctly rounded √(Σ(x − x̄)²/(n − ddof)), that is
// √(N / (n·(n−ddof))) with N = n·Σx² − (Σx)² computed from the exact values:
// every finite double is m·2^e with an integer |m| < 2^53, so scaling all
// values to the smallest exponent makes N an exact integer. N is formed in
// fixed width when the values span at most 2^10 (fastStdev rounds it with a
// certified double-double square root), else with math/big.
func exactStdev(xs []float64, ddof int) float64 {
	return exactStdevLists([][]float64{xs}, ddof)
}

// exactStdevLists is exactStdev of the concatenation of lists.
func exactStdevLists(lists [][]float64, ddof int) float64 {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	if n-ddof <= 0 {
		return math.NaN()
	}
	emin := math.MaxInt
	for _, xs := range lists {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return math.NaN()
			}
			if x == 0 {
				continue
			}
			if _, e := mantissa(x); e < emin {
				emin = e
			}
		}
	}
	if emin == math.MaxInt {
		return 0 // all zeros
	}
	var sx, sxx, sq big.Int
	var acc sums
	fixed := true
	for _, xs := range lists {
		if fixed = acc.addFixed(xs, emin); !fixed {
			break
		}
	}
	if fixed {
		if y, ok := acc.fastStdev(n, ddof, emin); ok {
			return y
		}
		acc.toBig(&sx, &sxx)
	} else {
		sx.SetInt64(0)
		sxx.SetInt64(0)
		for _, xs := range lists {
			sumsBig(xs, emin, &sx, &sxx)
		}
	}
	// N = n·Σm² − (Σm)²; the variance is N / (n·(n−ddof)) · 4^emin.
	var num, den big.Int
	num.Mul(&sxx, den.SetInt64(int64(n)))
	sq.Mul(&sx, &sx)
	num.Sub(&num, &sq)
	if num.Sign() <= 0 {
		return 0
	}
	den.Mul(big.NewInt(int64(n)), big.NewInt(int64(n-ddof)))
	return sqrtRatio(&num, &den, emin)
}

// sqrtRatio returns the double nearest to √(num/den)·2^e for positive integers
// num and den: the integer square root of the quotient scaled to carry at least
// 128 bits, with a sticky low bit when inexact (round to odd), then a single
// rounding to nearest even.
func sqrtRatio(num, den *big.Int, e int) float64 {
	// Choose k so that num·4^k/den has at least 256 bits.
	k := (256 - num.BitLen() + den.BitLen() + 1) / 2
	if k < 0 {
		k = 0
	}
	var q, rem, r, sq big.Int
	q.Lsh(num, uint(2*k))
	q.QuoRem(&q, den, &rem)
	r.Sqrt(&q)
	sq.Mul(&r, &r)
	if rem.Sign() != 0 || sq.Cmp(&q) != 0 {
		r.SetBit(&r, 0, 1)
	}
	var f big.Float
	f.SetInt(&r)
	f.SetMantExp(&f, e-k)
	v, _ := f.Float64()
	return v
}

// mantissa returns the integer m and exponent e with x = m·2^e, |m| < 2^53,
// for a finite non-zero x (read from the bit pattern).
func mantissa(x float64) (int64, int) {
	u := math.Float64bits(x)
	be := int(u >> 52 & 0x7ff)
	m := int64(u & (1<<52 - 1))
	e := -1074 // subnormal
	if be != 0 {
		m |= 1 << 52
		e = be - 1075
	}
	if u>>63 != 0 {
		m = -m
	}
	return m, e
}

// sumsBig adds Σm_i to sx and Σm_i² to sxx for the integers
// m_i = x_i·2^−emin.
func sumsBig(xs []float64, emin int, sx, sxx *big.Int) {
	var m, sq big.Int
	for _, x := range xs {
		if x == 0 {
			continue
		}
		mant, e := mantissa(x)
		m.SetInt64(mant)
		m.Lsh(&m, uint(e-emin))
		sx.Add(sx, &m)
		sq.Mul(&m, &m)
		sxx.Add(sxx, &sq)
	}
}

// sums are Σm (128-bit two's complement) and Σm² (192-bit) of the scaled
// integers, accumulated in fixed width.
type sums struct {
	sxLo, sxHi uint64
	q0, q1, q2 uint64
}

// fixedSums accumulates Σm and Σm² for the integers m_i = x_i·2^−emin in fixed
// width, for the common case where every m_i fits in 63 bits (the values span
// at most 2^10 in magnitude). ok is false when a value does not fit.
func fixedSums(xs []float64, emin int) (acc sums, ok bool) {
	ok = acc.addFixed(xs, emin)
	return acc, ok
}

// addFixed is fixedSums of xs added to acc; false (acc then partial) when
// a value does not fit.
func (acc *sums) addFixed(xs []float64, emin int) bool {
	for _, x := range xs {
		if x == 0 {
			continue
		}
		mant, e := mantissa(x)
		shift := e - emin
		if shift > 9 {
			return false
		}
		m := mant << uint(shift) // |m| < 2^62
		var ext uint64
		if m < 0 {
			ext = ^uint64(0)
		}
		var c uint64
		acc.sxLo, c = bits.Add64(acc.sxLo, uint64(m), 0)
		acc.sxHi, _ = bits.Add64(acc.sxHi, ext, c)
		am := uint64(m)
		if m < 0 {
			am = uint64(-m)
		}
		h, l := bits.Mul64(am, am)
		acc.q0, c = bits.Add64(acc.q0, l, 0)
		acc.q1, c = bits.Add64(acc.q1, h, c)
		acc.q2 += c
	}
	return true
}

// absSx returns |Σm| as two words.
func (a *sums) absSx() (lo, hi uint64, neg bool) {
	lo, hi = a.sxLo, a.sxHi
	if hi>>63 != 0 {
		var c uint64
		lo, c = bits.Add64(^lo, 1, 0)
		hi = ^hi + c
		return lo, hi, true
	}
	return lo, hi, false
}

// toBig sets sx = Σm and sxx = Σm².
func (a *sums) toBig(sx, sxx *big.Int) {
	lo, hi, neg := a.absSx()
	setWords(sx, lo, hi, 0)
	if neg {
		sx.Neg(sx)
	}
	setWords(sxx, a.q0, a.q1, a.q2)
}

// fastStdev returns √(N/(n(n−ddof)))·2^emin, N = n·Σm² − (Σm)², from N formed
// exactly in 256 bits and a double-double quotient and square root (relative
// error below 2^−95). ok is false, and the caller must use the exact path,
// when the result is not a normal double, n is too large, or the value lies
// too close to a rounding boundary to round it with certainty.
func (a *sums) fastStdev(n, ddof, emin int) (y float64, ok bool) {
	if n >= 1<<26 {
		return 0, false
	}
	// n·Σm²: 192 × 64 → 256 bits.
	un := uint64(n)
	h0, p0 := bits.Mul64(a.q0, un)
	h1, l1 := bits.Mul64(a.q1, un)
	h2, l2 := bits.Mul64(a.q2, un)
	var c uint64
	p1, c := bits.Add64(l1, h0, 0)
	p2, c := bits.Add64(l2, h1, c)
	p3 := h2 + c
	// (Σm)²: 128 × 128 → 256 bits.
	s0, s1, _ := a.absSx()
	t1, t0 := bits.Mul64(s0, s0)
	u1, u0 := bits.Mul64(s0, s1) // cross term, counted twice
	v1, v0 := bits.Mul64(s1, s1)
	var r0, r1, r2, r3 uint64
	r0 = t0
	r1, c = bits.Add64(t1, u0, 0)
	r2, c = bits.Add64(v0, u1, c)
	r3 = v1 + c
	r1, c = bits.Add64(r1, u0, 0)
	r2, c = bits.Add64(r2, u1, c)
	r3 += c
	// N = n·Σm² − (Σm)² ≥ 0.
	var b uint64
	w0, b := bits.Sub64(p0, r0, 0)
	w1, b := bits.Sub64(p1, r1, b)
	w2, b := bits.Sub64(p2, r2, b)
	w3, b := bits.Sub64(p3, r3, b)
	if b != 0 {
		return 0, false // cannot happen (Cauchy–Schwarz)
	}
	w := [4]uint64{w0, w1, w2, w3}
	top := 3
	for top >= 0 && w[top] == 0 {
		top--
	}
	if top < 0 {
		return 0, true // N = 0
	}
	// N ≈ A·2^ea + B·2^eb with A the top 53 bits and B the next 53.
	bl := top*64 + bits.Len64(w[top])
	A := extractBits(w, bl-53, 53)
	B := extractBits(w, bl-106, 53)
	hi := math.Ldexp(float64(A), bl-53)
	lo := math.Ldexp(float64(B), bl-106)
	// V = N/D as a double-double; D = n·(n−ddof) < 2^52 is exact.
	d := float64(n) * float64(n-ddof)
	q1 := hi / d
	q2 := (math.FMA(-q1, d, hi) + lo) / d
	// √V as a double-double.
	s := math.Sqrt(q1)
	e := math.FMA(-s, s, q1) + q2
	t := e / (2 * s)
	r := s + t
	// Distance from s+t to r, against half an ulp of r with a safety margin.
	off := (s - r) + t // exact up to a rounding far below ulp(r)
	ulp := math.Nextafter(r, math.Inf(1)) - r
	if off < 0 {
		ulp = r - math.Nextafter(r, 0) // the gap below a power of two is half
	}
	if !(math.Abs(off) < ulp/2-0x1p-90*r) {
		return 0, false
	}
	y = math.Ldexp(r, emin)
	if y < 0x1p-1022 || math.IsInf(y, 0) || math.Ldexp(y, -emin) != r {
		return 0, false
	}
	return y, true
}

// extractBits returns the count (1…64) bits of the 256-bit w starting at bit
// position from; positions below 0 read as zero.
func extractBits(w [4]uint64, from, count int) uint64 {
	mask := uint64(1)<<count - 1
	if count == 64 {
		mask = ^uint64(0)
	}
	if from < 0 {
		if count+from <= 0 {
			return 0
		}
		return extractBits(w, 0, count+from) << uint(-from) & mask
	}
	i, off := from/64, uint(from%64)
	v := w[i] >> off
	if off != 0 && i+1 < 4 {
		v |= w[i+1] << (64 - off)
	}
	return v & mask
}

// setWords sets z = w2·2^128 + w1·2^64 + w0.
func setWords(z *big.Int, w0, w1, w2 uint64) {
	var t big.Int
	z.SetUint64(w2)
	z.Lsh(z, 64)
	z.Or(z, t.SetUint64(w1))
	z.Lsh(z, 64)
	z.Or(z, t.SetUint64(w0))
}
