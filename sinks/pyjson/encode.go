package pyjson

import (
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Field is one key of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object with ordered keys. Values may be nil (null),
// bool, int, int64, float64 (written as Python writes a float), string,
// []float64, []int, []string, []any, Object, json.Number (a number kept as
// read), or a Marshaler.
type Object []Field

// Index returns the position of key in o, or −1.
func (o Object) Index(key string) int {
	for i, f := range o {
		if f.Key == key {
			return i
		}
	}
	return -1
}

// Marshaler is a value that converts itself to the encodable value model.
type Marshaler interface{ PyJSON() any }

// Marshal returns v as Python's json.dumps(v, indent=2) writes it: one
// element per line, two spaces per level, ": " after keys, empty
// containers as [] and {}, strings ASCII-only (ensure_ascii), no trailing
// newline. An unsupported value is written as null.
func Marshal(v any) []byte { return appendValue(nil, v, 0) }

// Write writes Marshal(v) to w.
func Write(w io.Writer, v any) error {
	_, err := w.Write(Marshal(v))
	return err
}

// AppendString appends s as a JSON string the way json.dumps writes it
// with ensure_ascii: ASCII only, non-ASCII as \uXXXX (surrogate pairs
// above the BMP).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		default:
			switch {
			case r >= 0x20 && r <= 0x7e:
				b = append(b, byte(r))
			case r > 0xffff:
				r1, r2 := utf16.EncodeRune(r)
				b = appendU(appendU(b, r1), r2)
			default:
				b = appendU(b, r)
			}
		}
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

func appendIndent(b []byte, level int) []byte {
	b = append(b, '\n')
	for range level {
		b = append(b, "  "...)
	}
	return b
}

func appendList[T any](b []byte, xs []T, level int) []byte {
	if len(xs) == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, e := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndent(b, level+1)
		b = appendValue(b, e, level+1)
	}
	b = appendIndent(b, level)
	return append(b, ']')
}

func appendValue(b []byte, v any, level int) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case float64:
		return AppendFloat(b, x)
	case string:
		return AppendString(b, x)
	case []float64:
		return appendList(b, x, level)
	case []int:
		return appendList(b, x, level)
	case []string:
		return appendList(b, x, level)
	case []any:
		return appendList(b, x, level)
	case Object:
		if len(x) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, f := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIndent(b, level+1)
			b = AppendString(b, f.Key)
			b = append(b, ": "...)
			b = appendValue(b, f.Value, level+1)
		}
		b = appendIndent(b, level)
		return append(b, '}')
	case json.Number:
		return append(b, x...) // a number read from input, kept as written
	case Marshaler:
		return appendValue(b, x.PyJSON(), level)
	}
	return append(b, "null"...)
}
