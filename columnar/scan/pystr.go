package scan

import (
	"unicode/utf8"
)

// PyIsSpace reports whether Python's str.isspace is true for r.
func PyIsSpace(r rune) bool {
	switch {
	case r == ' ' || r >= '\t' && r <= '\r' || r >= 0x1C && r <= 0x1F:
		return true
	case r < 0x80:
		return false
	case r == 0x85 || r == 0xA0 || r == 0x1680 || r >= 0x2000 && r <= 0x200A ||
		r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000:
		return true
	}
	return false
}

// PyStrip removes leading and trailing Python whitespace.
func PyStrip(b []byte) []byte {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			if c > ' ' && (c < 0x1C || c > 0x1F) {
				break
			}
			if !PyIsSpace(rune(c)) {
				break
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError || !PyIsSpace(r) {
			break
		}
		b = b[size:]
	}
	for len(b) > 0 {
		c := b[len(b)-1]
		if c < utf8.RuneSelf {
			if c > ' ' && (c < 0x1C || c > 0x1F) {
				break
			}
			if !PyIsSpace(rune(c)) {
				break
			}
			b = b[:len(b)-1]
			continue
		}
		r, size := utf8.DecodeLastRune(b)
		if r == utf8.RuneError || !PyIsSpace(r) {
			break
		}
		b = b[:len(b)-size]
	}
	return b
}
