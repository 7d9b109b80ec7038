package core

import (
	"math"
	"strconv"
)

// fixed0 formats x with no decimals as Python's format(x, ".0f") does
// (correctly rounded, ties to even; "nan", "inf", "-inf"), for the
// reasons the detector writes. Reports format their numbers in sinks.
func fixed0(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}
