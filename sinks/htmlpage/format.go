package htmlpage

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// notAvailable is shown for a value the analysis does not have, as in the
// text report.
const notAvailable = "n/a"

// value is one printed number or word: its text, or n/a with the reason
// the analysis gave for not having it.
type value struct {
	Text   string
	NA     bool
	Reason string
}

func na(reason string) value { return value{Text: notAvailable, NA: true, Reason: reason} }

func text(s string) value {
	if s == "" {
		return na("")
	}
	return value{Text: s}
}

// finite reports whether x is a number that can be printed.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// fixed formats x with prec decimals, n/a when it is not finite.
func fixed(x float64, prec int) value {
	if !finite(x) {
		return na("")
	}
	return value{Text: strconv.FormatFloat(x, 'f', prec, 64)}
}

// msOf formats a duration in nanoseconds as milliseconds with two
// decimals (the text report's precision).
func msOf(ns float64) value { return fixed(ns/1e6, 2) }

// seconds formats a duration in seconds as the text report does: whole
// seconds from 100 s up, else one decimal.
func seconds(s float64) value {
	if !finite(s) {
		return na("")
	}
	if math.Abs(s) >= 100 {
		return value{Text: fmt.Sprintf("%.0f s", s)}
	}
	return value{Text: fmt.Sprintf("%.1f s", s)}
}

// percent formats a fraction as a percentage with one decimal.
func percent(frac float64) value {
	v := fixed(100*frac, 1)
	if !v.NA {
		v.Text += "%"
	}
	return v
}

// signedPct formats a percent change with its sign.
func signedPct(x float64) value {
	if !finite(x) {
		return na("")
	}
	return value{Text: fmt.Sprintf("%+.1f%%", x)}
}

// count formats a whole number.
func count(x float64) value {
	if !finite(x) {
		return na("")
	}
	return value{Text: strconv.FormatFloat(x, 'f', 0, 64)}
}

// general formats a number of unknown meaning: whole numbers as integers,
// others with four significant digits.
func general(x float64) value {
	if !finite(x) {
		return na("")
	}
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return count(x)
	}
	return value{Text: strconv.FormatFloat(x, 'g', 4, 64)}
}

// unitOf is how a generic key's number is shown, by the key's suffix (the
// JSON's naming convention: _ns nanoseconds, _s seconds, _frac a fraction,
// _pct a percentage) or name (tps_ throughputs).
func unitOf(key string) (format func(float64) value, unit string) {
	switch {
	case strings.HasSuffix(key, "_per_s"): // a rate (requests_per_s), not a duration in seconds
		return func(x float64) value { return fixed(x, 2) }, "/s"
	case strings.HasSuffix(key, "_ns"):
		return msOf, "ms"
	case strings.HasSuffix(key, "_s"):
		return seconds, ""
	case strings.HasSuffix(key, "_frac"):
		return percent, ""
	case strings.HasSuffix(key, "_pct"):
		return signedPct, ""
	case strings.Contains(key, "tps_per_user"), key == "per_user":
		return func(x float64) value { return fixed(x, 1) }, "tok/s/user"
	case strings.HasPrefix(key, "tps_"), strings.Contains(key, "_tps_"), key == "system":
		return func(x float64) value { return fixed(x, 1) }, "tok/s"
	}
	return general, ""
}

// numberValue formats x by key's unit (unitOf), the unit after it.
func numberValue(key string, x float64) value {
	f, unit := unitOf(key)
	out := f(x)
	if unit != "" && !out.NA {
		out.Text += " " + unit
	}
	return out
}

// label turns a JSON key into words: tps_per_user → "tps per user".
func label(key string) string { return strings.ReplaceAll(key, "_", " ") }
