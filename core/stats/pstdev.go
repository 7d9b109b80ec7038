package stats

import (
	"math"
	"math/big"
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
	m := Mean(xs)
	if math.IsNaN(m) || math.IsInf(m, 0) {
		return math.NaN()
	}
	if m == 0 {
		return 0
	}
	return PStdev(xs) / math.Abs(m)
}

// exactStdev returns the correctly rounded √(Σ(x−x̄)²/(n·(n−ddof))/… ), that is
// √(N / (n·(n−ddof))) with N = n·Σx² − (Σx)², computed from the exact values.
// Every finite double is m·2^e with an integer m of at most 53 bits; scaling
// all values to the smallest exponent makes N an exact integer.
func exactStdev(xs []float64, ddof int) float64 {
	n := len(xs)
	if n-ddof <= 0 {
		return math.NaN()
	}
	emin := math.MaxInt
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return math.NaN()
		}
		if x == 0 {
			continue
		}
		_, e := math.Frexp(x)
		if e-53 < emin {
			emin = e - 53
		}
	}
	if emin == math.MaxInt {
		return 0 // all zeros
	}
	var sx, sxx, m, sq big.Int
	for _, x := range xs {
		if x == 0 {
			continue
		}
		fr, e := math.Frexp(x)
		mant := int64(math.Ldexp(fr, 53)) // exact: |mant| < 2^53
		m.SetInt64(mant)
		m.Lsh(&m, uint(e-53-emin))
		sx.Add(&sx, &m)
		sq.Mul(&m, &m)
		sxx.Add(&sxx, &sq)
	}
	// N = n·Σm² − (Σm)²; the variance is N / (n·(n−ddof)) · 4^emin.
	var num, den big.Int
	num.Mul(&sxx, big.NewInt(int64(n)))
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
