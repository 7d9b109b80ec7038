package core

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONField is one key of a JSONObject.
type JSONField struct {
	Key   string
	Value any
}

// JSONObject is a JSON object with ordered keys. Values may be nil (null),
// bool, int, int64, float64 (written as Python writes a float), string,
// []float64, []int, []string, []any, JSONObject, or a pyJSONer.
type JSONObject []JSONField

// pyJSONer is a value that converts itself to the encodable value model.
type pyJSONer interface{ pyJSON() any }

// pyFloat formats x as Python's repr(float) (detector spec §11.3): the
// shortest round-trip digits, fixed notation with at least one fractional
// digit when 1e−4 ≤ |x| < 1e16, else d.ddde±XX; "NaN", "Infinity",
// "-Infinity" for the non-finite values (json.dumps spelling).
func pyFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // [-]d[.ddd]e±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	mant, expS, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if exp >= -4 && exp < 16 {
		if exp < 0 {
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -exp-1))
			b.WriteString(digits)
		} else if exp+1 >= len(digits) {
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", exp+1-len(digits)))
			b.WriteString(".0")
		} else {
			b.WriteString(digits[:exp+1])
			b.WriteByte('.')
			b.WriteString(digits[exp+1:])
		}
		return b.String()
	}
	b.WriteString(mant)
	b.WriteByte('e')
	if exp < 0 {
		b.WriteByte('-')
		exp = -exp
	} else {
		b.WriteByte('+')
	}
	if exp < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(exp))
	return b.String()
}

// pyFixed formats x as Python's format(x, ".Nf"): correctly rounded from
// the exact binary value, ties to even; "nan", "inf", "-inf" otherwise.
func pyFixed(x float64, prec int) string {
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

// pyString writes s as json.dumps does with ensure_ascii: ASCII only,
// non-ASCII as \uXXXX (surrogate pairs above the BMP).
func pyString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 || r > 0x7e {
				if r > 0xffff {
					r1, r2 := utf16.EncodeRune(r)
					writeU(b, r1)
					writeU(b, r2)
				} else {
					writeU(b, r)
				}
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

func writeU(b *strings.Builder, r rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[r>>12&0xf])
	b.WriteByte(hex[r>>8&0xf])
	b.WriteByte(hex[r>>4&0xf])
	b.WriteByte(hex[r&0xf])
}

// encodePyJSON writes v as Python's json.dumps(v, indent=2): one element
// per line, two spaces per level, ", "-free line ends, ": " after keys,
// empty containers as [] and {}, no trailing newline.
func encodePyJSON(v any) []byte {
	var b strings.Builder
	writePyJSON(&b, v, 0)
	return []byte(b.String())
}

func writeIndent(b *strings.Builder, level int) {
	b.WriteByte('\n')
	for range level {
		b.WriteString("  ")
	}
}

func writePyJSON(b *strings.Builder, v any, level int) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(pyFloat(x))
	case string:
		pyString(b, x)
	case []float64:
		a := make([]any, len(x))
		for i := range x {
			a[i] = x[i]
		}
		writePyJSON(b, a, level)
	case []int:
		a := make([]any, len(x))
		for i := range x {
			a[i] = x[i]
		}
		writePyJSON(b, a, level)
	case []string:
		a := make([]any, len(x))
		for i := range x {
			a[i] = x[i]
		}
		writePyJSON(b, a, level)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeIndent(b, level+1)
			writePyJSON(b, e, level+1)
		}
		writeIndent(b, level)
		b.WriteByte(']')
	case JSONObject:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, f := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeIndent(b, level+1)
			pyString(b, f.Key)
			b.WriteString(": ")
			writePyJSON(b, f.Value, level+1)
		}
		writeIndent(b, level)
		b.WriteByte('}')
	case json.Number:
		b.WriteString(string(x)) // a number read from input, kept as written
	case pyJSONer:
		writePyJSON(b, x.pyJSON(), level)
	default:
		b.WriteString("null")
	}
}
