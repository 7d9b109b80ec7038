package sinks

import (
	"fmt"
	"math"
	"strings"
)

// notAvailable is printed for a value the analysis does not have (NaN).
const notAvailable = "n/a"

// fixed formats x with prec decimals, n/a when NaN or infinite.
func fixed(x float64, prec int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return notAvailable
	}
	return fmt.Sprintf("%.*f", prec, x)
}

// ms formats a duration in nanoseconds as milliseconds with two decimals
// (the reference CLI's precision).
func ms(ns float64) string { return fixed(ns/1e6, 2) }

// signedPct formats a percent change with its sign, n/a when NaN.
func signedPct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return notAvailable
	}
	return fmt.Sprintf("%+.1f%%", x)
}

// seconds formats a duration in seconds, whole seconds from 100 s up.
func seconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return notAvailable
	}
	if math.Abs(s) >= 100 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}

// bareSeconds is seconds without the unit, for a table whose heading
// names it.
func bareSeconds(s float64) string { return strings.TrimSuffix(seconds(s), " s") }

// spRange formats an inclusive super-pass range "lo..hi".
func spRange(lo, hi int) string { return fmt.Sprintf("%d..%d", lo, hi) }

// orNA is s, or n/a when s is empty.
func orNA[S ~string](s S) string {
	if s == "" {
		return notAvailable
	}
	return string(s)
}
