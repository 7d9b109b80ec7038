package pyjson

import (
	"math"
	"strconv"
)

// Float formats x as Python's repr(float) (detector spec §11.3): the
// shortest round-trip digits, fixed notation with at least one fractional
// digit when 1e−4 ≤ |x| < 1e16, else d.ddde±XX; "NaN", "Infinity",
// "-Infinity" for the non-finite values (json.dumps spelling).
func Float(x float64) string { return string(AppendFloat(nil, x)) }

// AppendFloat appends Float(x) to dst.
func AppendFloat(dst []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(dst, "NaN"...)
	case math.IsInf(x, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(x, -1):
		return append(dst, "-Infinity"...)
	case x == 0:
		if math.Signbit(x) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], x, 'e', -1, 64) // [-]d[.ddd]e±XX
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	ePos := 0
	for e[ePos] != 'e' {
		ePos++
	}
	mant, expS := e[:ePos], e[ePos+1:]
	exp, _ := strconv.Atoi(string(expS))
	if exp < -4 || exp >= 16 {
		dst = append(dst, mant...)
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	var digits [24]byte
	nd := 0
	for _, c := range mant {
		if c != '.' {
			digits[nd] = c
			nd++
		}
	}
	ds := digits[:nd]
	switch {
	case exp < 0:
		dst = append(dst, "0."...)
		for range -exp - 1 {
			dst = append(dst, '0')
		}
		dst = append(dst, ds...)
	case exp+1 >= nd:
		dst = append(dst, ds...)
		for range exp + 1 - nd {
			dst = append(dst, '0')
		}
		dst = append(dst, ".0"...)
	default:
		dst = append(dst, ds[:exp+1]...)
		dst = append(dst, '.')
		dst = append(dst, ds[exp+1:]...)
	}
	return dst
}

// Fixed formats x as Python's format(x, ".Nf"): correctly rounded from
// the exact binary value, ties to even; "nan", "inf", "-inf" otherwise.
func Fixed(x float64, prec int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}
