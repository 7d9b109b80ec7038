package sinks

import (
	"strings"
	"unicode/utf8"
)

// Names are data: a run directory may be named with any bytes, invalid
// UTF-8 and control characters included, and those names reach every
// output (rows, pages, reports, error lines). ValidText and OneLine make
// such a string safe for an output without changing a well-formed one.
// The escapes are Go's (\xff, \n, \x01, \u0085): readable, and distinct
// from the characters themselves. A backslash is left as it is, so an
// escaped name and a name spelled with that escape are told apart by the
// run id (a hash of the raw relative path), not by the text.

// ValidText returns s with each byte that is not part of valid UTF-8
// written as \xNN and each C0 control character other than tab, newline
// and carriage return (and DEL) escaped: valid UTF-8 that Parquet
// readers (DuckDB, Polars) and HTML accept. A string that needs nothing
// is returned as it is, without allocating.
func ValidText(s string) string { return escapeText(s, false) }

// OneLine is ValidText that also escapes every line break (\n, \r, NEL,
// U+2028, U+2029), tab and C1 control character: a name or an error
// message that must stay on one line of a terminal or a log.
func OneLine(s string) string { return escapeText(s, true) }

func escapeText(s string, oneLine bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, size, oneLine) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !needsEscape(r, size, oneLine) {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		switch {
		case r == utf8.RuneError && size == 1:
			writeHexByte(&b, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			writeHexByte(&b, byte(r))
		default: // C1 controls, U+2028, U+2029
			const hex = "0123456789abcdef"
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(r>>shift)&0xf])
			}
		}
		i += size
	}
	return b.String()
}

func writeHexByte(b *strings.Builder, c byte) {
	const hex = "0123456789abcdef"
	b.WriteString(`\x`)
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&0xf])
}

// needsEscape reports whether the rune r (size bytes; RuneError of size 1
// is an invalid byte) must be escaped.
func needsEscape(r rune, size int, oneLine bool) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\t' || r == '\n' || r == '\r':
		return oneLine
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029:
		return oneLine
	}
	return false
}
