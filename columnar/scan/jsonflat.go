package scan

import (
	"unicode/utf16"
	"unicode/utf8"
)

// ScanFlatObject splits a JSON object whose values are all scalars
// (strings, numbers, true, false, null) — a legacy events line — calling
// fn with each key (unescaped keys only) and its value's raw token. It
// reports false, having possibly called fn, for anything else: a nested
// value, an escaped key, bad syntax, trailing bytes. Callers then decode
// the line with encoding/json, which is exact but several times slower;
// this fast path does not replace it for any line it is unsure of.
func ScanFlatObject(line []byte, fn func(key, val []byte)) bool {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return skipSpace(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return false
		}
		end, esc, ok := stringEnd(line, i)
		if !ok || esc {
			return false
		}
		key := line[i+1 : end-1]
		i = skipSpace(line, end)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		if i >= len(line) {
			return false
		}
		start := i
		switch c := line[i]; {
		case c == '"':
			if end, _, ok = stringEnd(line, i); !ok {
				return false
			}
			i = end
		case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
			for i < len(line) && line[i] != ',' && line[i] != '}' && line[i] != ' ' && line[i] != '\t' {
				i++
			}
			if !validScalar(line[start:i]) {
				return false
			}
		default:
			return false
		}
		fn(key, line[start:i])
		i = skipSpace(line, i)
		if i >= len(line) {
			return false
		}
		if line[i] == '}' {
			return skipSpace(line, i+1) == len(line)
		}
		if line[i] != ',' {
			return false
		}
		i = skipSpace(line, i+1)
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the index after the string token starting at b[i]
// (a quote) and whether it holds escapes; ok is false for a string that
// does not end, holds a control character or a bad escape.
func stringEnd(b []byte, i int) (end int, esc, ok bool) {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, esc, true
		case c == '\\':
			esc = true
			if j+1 >= len(b) {
				return 0, false, false
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if _, ok := hex4(b, j+2); !ok {
					return 0, false, false
				}
				j += 5
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		}
	}
	return 0, false, false
}

// validScalar reports whether tok is true, false, null or a JSON number.
func validScalar(tok []byte) bool {
	switch string(tok) {
	case "true", "false", "null":
		return true
	}
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(tok) && tok[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(tok)
}

// UnquoteJSON returns the text of a JSON string token: its body when it
// has no escapes, else the unescaped text appended to dst[:0]. ok is false
// for a token that is not a valid JSON string. Invalid UTF-8 and lone
// surrogates become U+FFFD, as encoding/json makes them.
func UnquoteJSON(tok, dst []byte) ([]byte, bool) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return nil, false
	}
	body := tok[1 : len(tok)-1]
	plain := true
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return body, true
	}
	out := dst[:0]
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return nil, false
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(body, i+2)
				if !ok {
					return nil, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := hex4(body, i+2); ok && i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							i += 6
							out = utf8.AppendRune(out, d)
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return nil, false
			}
			i += 2
		case c == '"' || c < 0x20:
			return nil, false
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			out = utf8.AppendRune(out, r) // RuneError for invalid bytes
			i += size
		}
	}
	return out, true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
