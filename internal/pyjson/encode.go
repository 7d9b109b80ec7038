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

// Appender is a value that appends its own text at indent level, exactly
// as Marshal writes the value it stands for: for big regular tables,
// whose value tree costs more to build than to write. The encoder prefers
// it to Marshaler (a type may be both, for readers of the tree).
type Appender interface {
	AppendPyJSON(b []byte, level int) []byte
}

// ListAppender is a list that appends its own elements' text one at a
// time, exactly as Marshal writes the list it stands for: for tables of
// thousands of regular elements (the rolling diagnostic cells of a long
// run, a hundred megabytes), whose value tree costs more to build than to
// write. Unlike an Appender's, the text is never gathered whole: Write
// hands it over between elements. The encoder prefers it to Appender and
// Marshaler (a type may also be those, for readers of the tree).
type ListAppender interface {
	// Len is the number of elements.
	Len() int
	// AppendElem appends element i's text at level (the element's own
	// indentation level: the line break and indentation before it are
	// written by the encoder).
	AppendElem(b []byte, i, level int) []byte
}

// Marshal returns v as Python's json.dumps(v, indent=2) writes it: one
// element per line, two spaces per level, ": " after keys, empty
// containers as [] and {}, strings ASCII-only (ensure_ascii), no trailing
// newline. An unsupported value is written as null.
func Marshal(v any) []byte {
	e := encoder{}
	e.value(v, 0)
	return e.b
}

// Write writes Marshal(v) to w, in chunks of about flushSize bytes as
// they are made (not the whole text in one buffer). Past the first
// pipeAfter bytes the chunks are written by a second goroutine while the
// next chunk is made (two buffers in turn, w called from one goroutine at
// a time, in order): on a long run's 100 MB result the write system calls
// (copying into the page cache) cost as much CPU as the encoding, and
// overlap it.
func Write(w io.Writer, v any) error {
	e := encoder{w: w, b: make([]byte, 0, flushSize+flushSize/4)}
	e.value(v, 0)
	return e.finish()
}

// flushSize is how much Write gathers before writing: enough that a
// write system call is a small part of the cost of its bytes, and small
// enough that the two buffers are few pages (each first touch of a
// fresh page is a fault, ~16 µs on the benchmarks' virtual machines: at
// 128 KiB the buffers of a 0.5 MB result cost ~80 of them).
const flushSize = 32 << 10

// pipeAfter is how many bytes Write writes itself before it hands the
// chunks to a writing goroutine. Below it, a goroutine's start and a
// wake-up per chunk (a futex call each, and a second thread on a
// virtual machine where one costs ~0.2 ms) cost more than the copies they
// would overlap: a warm analyze's 0.5 MB result is 16 chunks, written in
// ~0.1 ms. Above it the writes overlap the encoding as before.
const pipeAfter = 4 << 20

// encoder appends the text to b, which Write hands to w every flushSize
// bytes (at element boundaries); Marshal keeps it all (w nil).
type encoder struct {
	b   []byte
	w   io.Writer
	err error
	// written counts the bytes written by this goroutine, before pipe.
	written int
	// pipe is the writing goroutine, started at the first chunk past
	// pipeAfter.
	pipe *writePipe
}

// writePipe is the goroutine that writes the chunks: full carries a chunk
// to it, free returns the buffer once written, done its first error
// after full is closed. Chunks after a failed write are dropped.
type writePipe struct {
	full, free chan []byte
	done       chan error
}

func (e *encoder) flush() {
	if e.w == nil || len(e.b) == 0 {
		return
	}
	if e.pipe == nil && (e.written < pipeAfter || e.err != nil) {
		if e.err == nil {
			_, e.err = e.w.Write(e.b)
		}
		e.written += len(e.b)
		e.b = e.b[:0]
		return
	}
	if e.pipe == nil {
		p := &writePipe{full: make(chan []byte, 1), free: make(chan []byte, 2), done: make(chan error, 1)}
		p.free <- make([]byte, 0, cap(e.b))
		go func(w io.Writer) {
			var err error
			for b := range p.full {
				if err == nil {
					_, err = w.Write(b)
				}
				p.free <- b[:0]
			}
			p.done <- err
		}(e.w)
		e.pipe = p
	}
	e.pipe.full <- e.b
	e.b = <-e.pipe.free
}

// finish writes what is left (directly when no pipe was started) and
// returns the first write error.
func (e *encoder) finish() error {
	if e.pipe == nil {
		if len(e.b) > 0 && e.err == nil {
			_, e.err = e.w.Write(e.b)
		}
		return e.err
	}
	e.flush()
	close(e.pipe.full)
	e.err = <-e.pipe.done // no error before the pipe started (else none is)
	return e.err
}

// element ends one list or object element: a flush when enough is
// gathered.
func (e *encoder) element() {
	if e.w != nil && len(e.b) >= flushSize {
		e.flush()
	}
}

// AppendString appends s as a JSON string the way json.dumps writes it
// with ensure_ascii: ASCII only, non-ASCII as \uXXXX (surrogate pairs
// above the BMP).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		// Printable ASCII but the quote and backslash: copied as a run.
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x7e && s[j] != '"' && s[j] != '\\' {
			j++
		}
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		i = j + size
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
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				b = appendU(appendU(b, r1), r2)
			} else {
				b = appendU(b, r) // controls, DEL, the rest of the BMP, U+FFFD for a bad byte
			}
		}
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// indentSpaces are appended a slice at a time (not two at a time).
const indentSpaces = "                                                                "

// AppendIndent appends a newline and the indentation of level.
func AppendIndent(b []byte, level int) []byte {
	b = append(b, '\n')
	for n := 2 * level; n > 0; {
		k := min(n, len(indentSpaces))
		b = append(b, indentSpaces[:k]...)
		n -= k
	}
	return b
}

func list[T any](e *encoder, xs []T, level int) {
	e.container('[', ']', len(xs), level, func(i int) { e.value(xs[i], level+1) })
}

// container writes n items between open and close as json.dumps does
// with indent: each on its own line one level in, "[]" or "{}" when
// there are none. item writes item i; the buffer may be flushed after
// each.
func (e *encoder) container(open, close byte, n, level int, item func(i int)) {
	if n == 0 {
		e.b = append(e.b, open, close)
		return
	}
	e.b = append(e.b, open)
	for i := range n {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = AppendIndent(e.b, level+1)
		item(i)
		e.element()
	}
	e.b = AppendIndent(e.b, level)
	e.b = append(e.b, close)
}

func (e *encoder) value(v any, level int) {
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, "null"...)
	case bool:
		e.b = strconv.AppendBool(e.b, x)
	case int:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case int64:
		e.b = strconv.AppendInt(e.b, x, 10)
	case float64:
		e.b = AppendFloat(e.b, x)
	case string:
		e.b = AppendString(e.b, x)
	case []float64: // appended directly: no value boxed per element
		e.container('[', ']', len(x), level, func(i int) { e.b = AppendFloat(e.b, x[i]) })
	case []int:
		e.container('[', ']', len(x), level, func(i int) { e.b = strconv.AppendInt(e.b, int64(x[i]), 10) })
	case []string:
		list(e, x, level)
	case []any:
		list(e, x, level)
	case Object:
		e.container('{', '}', len(x), level, func(i int) {
			e.b = AppendString(e.b, x[i].Key)
			e.b = append(e.b, ": "...)
			e.value(x[i].Value, level+1)
		})
	case json.Number:
		e.b = append(e.b, x...) // a number read from input, kept as written
	case ListAppender:
		e.container('[', ']', x.Len(), level, func(i int) { e.b = x.AppendElem(e.b, i, level+1) })
	case Appender:
		e.b = x.AppendPyJSON(e.b, level)
	case Marshaler:
		e.value(x.PyJSON(), level)
	default:
		e.b = append(e.b, "null"...)
	}
}
