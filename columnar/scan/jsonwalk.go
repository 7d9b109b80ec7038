package scan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// JSONWalker streams one large JSON document (a GuideLLM report, a vLLM
// result) a structural step at a time: it enters objects and arrays,
// reads keys, skips values without keeping them and hands single values
// (one request record, one config object) to encoding/json. Memory is
// one value at a time, capped by maxValue, whatever the document's size.
// Errors carry the byte offset.
type JSONWalker struct {
	br       *bufio.Reader
	Off      int64 // bytes consumed
	maxValue int
	buf      []byte // reused by rawValue
	stack    []byte // open brackets of the value being scanned
}

// maxJSONDepth caps the nesting the walker follows (encoding/json's own
// limit is 10000).
const maxJSONDepth = 10000

// ErrValueTooLarge is rawValue's report of a value over the cap; the
// value has been skipped.
var ErrValueTooLarge = errors.New("value too large")

func NewJSONWalker(r io.Reader, maxValue int) *JSONWalker {
	return &JSONWalker{br: bufio.NewReaderSize(r, 1<<20), maxValue: maxValue}
}

func (w *JSONWalker) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: %s", w.Off, fmt.Sprintf(format, args...))
}

func (w *JSONWalker) readByte() (byte, error) {
	c, err := w.br.ReadByte()
	if err == nil {
		w.Off++
	} else if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return c, err
}

// Peek returns the next non-space byte without consuming it.
func (w *JSONWalker) Peek() (byte, error) {
	for {
		c, err := w.br.ReadByte()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			_ = w.br.UnreadByte()
			return c, nil
		}
		w.Off++
	}
}

// expect consumes the next non-space byte, which must be c.
func (w *JSONWalker) expect(c byte) error {
	got, err := w.Peek()
	if err != nil {
		return err
	}
	if got != c {
		return w.errorf("expected %q, found %q", c, got)
	}
	_, err = w.readByte()
	return err
}

// more reports whether the container being walked, which ends with
// closer, has another element (or member), consuming the comma before
// it; first is true for the first call after entering the container.
func (w *JSONWalker) more(first bool, closer byte) (bool, error) {
	c, err := w.Peek()
	if err != nil {
		return false, err
	}
	if c == closer {
		_, err = w.readByte()
		return false, err
	}
	if c == ']' || c == '}' {
		return false, w.errorf("unexpected %q", c)
	}
	if first {
		return true, nil
	}
	if c != ',' {
		return false, w.errorf("expected ',' or the end of a container, found %q", c)
	}
	_, err = w.readByte()
	return true, err
}

// key reads an object member's key and its colon.
func (w *JSONWalker) key() (string, error) {
	c, err := w.Peek()
	if err != nil {
		return "", err
	}
	if c != '"' {
		return "", w.errorf("expected a key, found %q", c)
	}
	raw, err := w.RawValue()
	if err != nil {
		return "", err
	}
	var k string
	if err := json.Unmarshal(raw, &k); err != nil {
		return "", w.errorf("bad key: %v", err)
	}
	return k, w.expect(':')
}

// Members walks an object: fn is called with each key, positioned at its
// value, and must consume the value.
func (w *JSONWalker) Members(fn func(key string) error) error {
	if err := w.expect('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		ok, err := w.more(first, '}')
		if err != nil || !ok {
			return err
		}
		k, err := w.key()
		if err != nil {
			return err
		}
		if err := fn(k); err != nil {
			return err
		}
	}
}

// Elements walks an array: fn is called with each index, positioned at
// the element, and must consume it.
func (w *JSONWalker) Elements(fn func(i int) error) error {
	if err := w.expect('['); err != nil {
		return err
	}
	for i := 0; ; i++ {
		ok, err := w.more(i == 0, ']')
		if err != nil || !ok {
			return err
		}
		if err := fn(i); err != nil {
			return err
		}
	}
}

// IsNull consumes a null and reports true, or consumes nothing.
func (w *JSONWalker) IsNull() (bool, error) {
	c, err := w.Peek()
	if err != nil || c != 'n' {
		return false, err
	}
	_, err = w.RawValue()
	return true, err
}

// Skip consumes one value without keeping it.
func (w *JSONWalker) Skip() error { return w.scan(nil) }

// RawValue consumes one value and returns its bytes (valid until the
// next call). A value longer than maxValue is skipped and reported as
// errValueTooLarge.
func (w *JSONWalker) RawValue() ([]byte, error) {
	w.buf = w.buf[:0]
	err := w.scan(&w.buf)
	return w.buf, err
}

// Decode consumes one value into v with encoding/json (numbers as
// json.Number when v asks for them).
func (w *JSONWalker) Decode(v any) error {
	raw, err := w.RawValue()
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// scan consumes one value, appending its bytes to *out when out is set.
// It checks structure (brackets, strings), not the grammar of scalars:
// the decoder that receives a value validates it.
func (w *JSONWalker) scan(out *[]byte) error {
	c0, err := w.Peek()
	if err != nil {
		return err
	}
	if c0 == ',' || c0 == ':' || c0 == ']' || c0 == '}' {
		return w.errorf("expected a value, found %q", c0)
	}
	depth := 0
	tooLarge := false
	var one [1]byte
	keep := func(b []byte) {
		if out == nil || tooLarge {
			return
		}
		if len(*out)+len(b) > w.maxValue {
			tooLarge, *out = true, (*out)[:0]
			return
		}
		*out = append(*out, b...)
	}
	for {
		c, err := w.readByte()
		if err != nil {
			return err
		}
		switch c {
		case '"':
			one[0] = '"'
			keep(one[:])
			if err := w.scanString(keep); err != nil {
				return err
			}
		case '{', '[':
			one[0] = c
			keep(one[:])
			if depth == maxJSONDepth {
				return w.errorf("nested deeper than %d", maxJSONDepth)
			}
			w.stack = append(w.stack[:depth], c)
			depth++
		case '}', ']':
			if depth == 0 || w.stack[depth-1] != c-2 { // '{'+2 == '}', '['+2 == ']'
				return w.errorf("unexpected %q", c)
			}
			one[0] = c
			keep(one[:])
			depth--
		case ',', ':':
			if depth == 0 {
				_ = w.br.UnreadByte()
				w.Off--
				if tooLarge {
					return ErrValueTooLarge
				}
				return nil
			}
			one[0] = c
			keep(one[:])
		case ' ', '\t', '\n', '\r':
		default:
			one[0] = c
			keep(one[:])
			if depth == 0 {
				// A scalar ends at the next delimiter or space.
				for {
					b, err := w.br.ReadByte()
					if err != nil {
						if err == io.EOF {
							break
						}
						return err
					}
					if bytes.IndexByte([]byte(",:]} \t\r\n"), b) >= 0 {
						_ = w.br.UnreadByte()
						break
					}
					w.Off++
					one[0] = b
					keep(one[:])
				}
				if tooLarge {
					return ErrValueTooLarge
				}
				return nil
			}
		}
		if depth == 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			if tooLarge {
				return ErrValueTooLarge
			}
			return nil
		}
	}
}

// scanString consumes a string body after its opening quote, through
// the closing quote, passing the bytes to keep.
func (w *JSONWalker) scanString(keep func([]byte)) error {
	escaped := false
	for {
		chunk, err := w.br.ReadSlice('"')
		w.Off += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			keep(chunk)
			escaped = countTrailingBackslashes(chunk, escaped)
			continue
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		keep(chunk)
		// The quote is escaped iff an odd run of backslashes precedes it.
		if !countTrailingBackslashes(chunk[:len(chunk)-1], escaped) {
			return nil
		}
		escaped = false
	}
}

// countTrailingBackslashes reports whether b ends in an odd run of
// backslashes, counting a run carried over from the previous chunk
// (carry: the previous chunk ended in an odd run).
func countTrailingBackslashes(b []byte, carry bool) bool {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	if n == len(b) && carry {
		n++
	}
	return n%2 == 1
}
