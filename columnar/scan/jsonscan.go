package scan

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// This file holds the hand-written JSON scanner used by the line decoder.
// It validates the grammar of a whole line (Python's json module with its
// defaults: NaN, Infinity and -Infinity literals, integers of any size,
// duplicate keys with the last one winning) but decodes only the values
// the decoder asks for. String values it does not need are skipped with
// one AVX2 pass to the closing quote (stringEndAVX2, one-letter escapes
// taken in its loop), or two bytes.IndexByte passes without AVX2.
//
// Deliberate gap: raw control characters inside a skipped string are not
// rejected (Python's strict mode would reject the line). NUL bytes are
// rejected for the whole line before scanning.

// ErrJSON is the internal, allocation-free syntax error of the scanner.
var ErrJSON = errors.New("json syntax")

// MaxDepth bounds nesting; deeper values count as a syntax error.
const MaxDepth = 1000

// ValueKind is the JSON type of a scanned value.
type ValueKind uint8

const (
	VNone ValueKind = iota // absent
	VNull
	VFalse
	VTrue
	VNumber
	VString
	VArray
	VObject
)

// Value is a scanned JSON value: its kind and its byte span [start, end)
// in the line. For strings the span includes the quotes and esc reports
// whether the body holds a backslash.
type Value struct {
	Kind       ValueKind
	Esc        bool
	Start, End int
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func SkipWS(b []byte, i int) int {
	for i < len(b) && isJSONSpace(b[i]) {
		i++
	}
	return i
}

// ScanString scans the string starting at b[i] == '"'. It returns the
// index after the closing quote and whether the body holds escapes.
func ScanString(b []byte, i int) (end int, esc bool, err error) {
	i++ // opening quote
	if HaveWordsAVX2 {
		// One pass to the closing quote, taking one-letter escapes; the
		// others are checked here.
		for {
			k, e := stringEndAVX2(b[i:])
			k += i
			esc = esc || e != 0
			switch {
			case k >= len(b):
				return 0, false, ErrJSON
			case b[k] == '"':
				return k + 1, esc, nil
			case k+1 >= len(b):
				return 0, false, ErrJSON
			}
			esc = true
			n := escapeLen(b, k)
			if n == 0 {
				return 0, false, ErrJSON
			}
			i = k + n
		}
	}
	for {
		rest := b[i:]
		q := bytes.IndexByte(rest, '"')
		if q < 0 {
			return 0, false, ErrJSON
		}
		bs := bytes.IndexByte(rest[:q], '\\')
		if bs < 0 {
			return i + q + 1, esc, nil
		}
		esc = true
		// Walk escapes from the first backslash on. nextQuote is the next
		// '"' at or after j, searched again only once an escape moves j
		// past it, so a string with many escapes is scanned in linear time.
		j := i + bs
		nextQuote := i + q
		for j < len(b) {
			c := b[j]
			if c == '"' {
				return j + 1, true, nil
			}
			if c != '\\' {
				if nextQuote < j {
					k := bytes.IndexByte(b[j:], '"')
					if k < 0 {
						return 0, false, ErrJSON
					}
					nextQuote = j + k
				}
				// Jump to the next backslash before that quote, or to it.
				if k := bytes.IndexByte(b[j:nextQuote], '\\'); k >= 0 {
					j += k
				} else {
					j = nextQuote
				}
				continue
			}
			n := escapeLen(b, j)
			if n == 0 {
				return 0, false, ErrJSON
			}
			j += n
		}
		return 0, false, ErrJSON
	}
}

// escapes maps the letter of each one-letter escape (\" \\ \/ \b \f \n \r
// \t) to the byte it stands for; 0 marks any other letter (\u has a path
// of its own).
var escapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escapeLen is the length of the escape whose backslash is b[k]: 2 for a
// one-letter escape, 6 for \uXXXX, 0 for an invalid or cut-off one.
func escapeLen(b []byte, k int) int {
	switch {
	case k+1 >= len(b):
		return 0
	case escapes[b[k+1]] != 0:
		return 2
	case b[k+1] == 'u' && k+6 <= len(b) && isHex4(b[k+2:k+6]):
		return 6
	}
	return 0
}

// hex4 decodes the four hex digits at b[i:]; ok is false when fewer than
// four are left or one is not a hex digit.
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) || !isHex4(b[i:i+4]) {
		return 0, false
	}
	return hexVal(b[i : i+4]), true
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func hexVal(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// scanNumber scans a JSON number (Python's grammar) at b[i].
func scanNumber(b []byte, i int) (int, error) {
	if i < len(b) && b[i] == '-' {
		i++
		if i < len(b) && b[i] == 'I' {
			return scanLit(b, i, "Infinity")
		}
	}
	if i >= len(b) {
		return 0, ErrJSON
	}
	switch {
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return 0, ErrJSON
	}
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j > i+1 { // Python accepts "1." only as "1" followed by garbage
			i = j
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := j
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i, nil
}

func scanLit(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, ErrJSON
	}
	return i + len(lit), nil
}

// ScanValue scans one value starting at b[i] (no leading whitespace).
func ScanValue(b []byte, i int, depth int) (Value, error) {
	if i >= len(b) {
		return Value{}, ErrJSON
	}
	v := Value{Start: i}
	var err error
	switch c := b[i]; {
	case c == '"':
		v.Kind = VString
		v.End, v.Esc, err = ScanString(b, i)
	case c == '{':
		v.Kind = VObject
		v.End, err = skipContainer(b, i, depth)
	case c == '[':
		v.Kind = VArray
		v.End, err = skipContainer(b, i, depth)
	case c == 't':
		v.Kind = VTrue
		v.End, err = scanLit(b, i, "true")
	case c == 'f':
		v.Kind = VFalse
		v.End, err = scanLit(b, i, "false")
	case c == 'n':
		v.Kind = VNull
		v.End, err = scanLit(b, i, "null")
	case c == 'N':
		v.Kind = VNumber
		v.End, err = scanLit(b, i, "NaN")
	case c == 'I':
		v.Kind = VNumber
		v.End, err = scanLit(b, i, "Infinity")
	case c == '-' || c >= '0' && c <= '9':
		v.Kind = VNumber
		v.End, err = scanNumber(b, i)
	default:
		err = ErrJSON
	}
	return v, err
}

// skipContainer skips the object or array at b[i], validating it.
func skipContainer(b []byte, i int, depth int) (int, error) {
	if depth >= MaxDepth {
		return 0, ErrJSON
	}
	obj := b[i] == '{'
	closer := byte(']')
	if obj {
		closer = '}'
	}
	i = SkipWS(b, i+1)
	if i < len(b) && b[i] == closer {
		return i + 1, nil
	}
	for {
		if obj {
			if i >= len(b) || b[i] != '"' {
				return 0, ErrJSON
			}
			end, _, err := ScanString(b, i)
			if err != nil {
				return 0, err
			}
			i = SkipWS(b, end)
			if i >= len(b) || b[i] != ':' {
				return 0, ErrJSON
			}
			i = SkipWS(b, i+1)
		}
		v, err := ScanValue(b, i, depth+1)
		if err != nil {
			return 0, err
		}
		i = SkipWS(b, v.End)
		if i >= len(b) {
			return 0, ErrJSON
		}
		if b[i] == closer {
			return i + 1, nil
		}
		if b[i] != ',' {
			return 0, ErrJSON
		}
		i = SkipWS(b, i+1)
	}
}

// AppendUnescaped appends the decoded body of the string value v (which
// must be a vString) to dst. Lone surrogates decode to U+FFFD.
func AppendUnescaped(dst, line []byte, v Value) []byte {
	body := line[v.Start+1 : v.End-1]
	if !v.Esc {
		return append(dst, body...)
	}
	for len(body) > 0 {
		bs := bytes.IndexByte(body, '\\')
		if bs < 0 {
			return append(dst, body...)
		}
		dst = append(dst, body[:bs]...)
		body = body[bs:]
		switch body[1] {
		case 'u':
			r := hexVal(body[2:6])
			body = body[6:]
			if utf16IsHigh(r) && len(body) >= 6 && body[0] == '\\' && body[1] == 'u' {
				if r2 := hexVal(body[2:6]); utf16IsLow(r2) {
					r = (r-0xD800)<<10 + (r2 - 0xDC00) + 0x10000
					body = body[6:]
				}
			}
			dst = utf8.AppendRune(dst, r)
			continue
		}
		dst = append(dst, escapes[body[1]])
		body = body[2:]
	}
	return dst
}

func utf16IsHigh(r rune) bool { return r >= 0xD800 && r < 0xDC00 }
func utf16IsLow(r rune) bool  { return r >= 0xDC00 && r < 0xE000 }

// stringEquals reports whether the string value v decodes to s.
func stringEquals(line []byte, v Value, s string, scratch []byte) bool {
	if !v.Esc {
		return string(line[v.Start+1:v.End-1]) == s
	}
	return string(AppendUnescaped(scratch[:0], line, v)) == s
}

// NumberInt reads a number value as an int64. ok is false for values
// that are not integral or out of range; isFloat reports a fraction or
// exponent, in which case f holds the float value.
func NumberInt(line []byte, v Value) (n int64, f float64, isFloat, ok bool) {
	s := line[v.Start:v.End]
	// Fast path: short plain integers.
	if len(s) > 0 && len(s) <= 18 {
		neg := s[0] == '-'
		d := s
		if neg {
			d = s[1:]
		}
		plain := len(d) > 0
		var x int64
		for _, c := range d {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			x = x*10 + int64(c-'0')
		}
		if plain {
			if neg {
				x = -x
			}
			return x, 0, false, true
		}
	}
	switch string(s) {
	case "NaN":
		return 0, math.NaN(), true, false
	case "Infinity":
		return 0, math.Inf(1), true, false
	case "-Infinity":
		return 0, math.Inf(-1), true, false
	}
	if bytes.IndexAny(s, ".eE") < 0 {
		x, err := strconv.ParseInt(string(s), 10, 64)
		return x, 0, false, err == nil
	}
	fv, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return 0, fv, true, false
	}
	return 0, fv, true, true
}

// Truthy reports Python truthiness of a scanned value.
func Truthy(line []byte, v Value) bool {
	switch v.Kind {
	case VNone, VNull, VFalse:
		return false
	case VTrue:
		return true
	case VString:
		return v.End-v.Start > 2
	case VArray, VObject:
		return SkipWS(line, v.Start+1) != v.End-1
	case VNumber:
		s := line[v.Start:v.End]
		if string(s) == "NaN" {
			return true
		}
		// Zero iff every digit before an exponent is '0'.
		for _, c := range s {
			if c == 'e' || c == 'E' {
				break
			}
			if c >= '1' && c <= '9' || c == 'I' {
				return true
			}
		}
		return false
	}
	return false
}

// ArrayElems scans the elements of the array value v, appending their
// spans to dst.
func ArrayElems(dst []Value, line []byte, v Value) []Value {
	i := SkipWS(line, v.Start+1)
	if line[i] == ']' {
		return dst
	}
	for {
		e, err := ScanValue(line, i, 1)
		if err != nil { // cannot happen: v was validated
			return dst
		}
		dst = append(dst, e)
		i = SkipWS(line, e.End)
		if line[i] == ']' {
			return dst
		}
		i = SkipWS(line, i+1)
	}
}
