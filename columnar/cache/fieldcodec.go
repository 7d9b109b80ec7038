package cache

import (
	"encoding/binary"
	"errors"
	"math"
)

// fieldWriter appends the fields of the cache's binary records (the
// summary form, summarycodec.go; the config memo's record,
// configrecord.go): an integer as a varint, a bool as one byte, a string
// or bytes as a uvarint length and the bytes, a float64 as its 8 bytes
// (little-endian bits, so exactly the value), a list or map as its length
// + 1 (0 for nil).
type fieldWriter struct{ b []byte }

func (w *fieldWriter) int(v int64) { w.b = binary.AppendVarint(w.b, v) }

func (w *fieldWriter) bool(v bool) { w.b = append(w.b, b2u(v)) }

func (w *fieldWriter) str(s string) {
	w.b = append(binary.AppendUvarint(w.b, uint64(len(s))), s...)
}

func (w *fieldWriter) bytes(p []byte) {
	w.b = append(binary.AppendUvarint(w.b, uint64(len(p))), p...)
}

func (w *fieldWriter) float(v float64) {
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
}

// size writes a slice's or map's length + 1, or 0 for nil.
func (w *fieldWriter) size(n int, isNil bool) {
	if isNil {
		w.b = append(w.b, 0)
		return
	}
	w.b = binary.AppendUvarint(w.b, uint64(n)+1)
}

func (w *fieldWriter) ints(v []int) {
	w.size(len(v), v == nil)
	for _, x := range v {
		w.int(int64(x))
	}
}

// fieldReader reads fieldWriter's fields; the first error sticks (its
// text starts with name), and every read after it is zero.
type fieldReader struct {
	b    []byte
	err  error
	name string
}

func (r *fieldReader) fail(what string) {
	if r.err == nil {
		r.err = errors.New(r.name + ": " + what)
	}
	r.b = nil
}

func (r *fieldReader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("a bad integer")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *fieldReader) bool() bool {
	if len(r.b) == 0 || r.b[0] > 1 {
		r.fail("a bad bool")
		return false
	}
	v := r.b[0] == 1
	r.b = r.b[1:]
	return v
}

// uvarint is a length: at most the bytes left, each element taking one
// at least.
func (r *fieldReader) uvarint() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(len(r.b)-n)+1 {
		r.fail("a bad length")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *fieldReader) str() string { return string(r.bytes()) }

// bytes is a field of bytes, aliasing the record's.
func (r *fieldReader) bytes() []byte {
	n := r.uvarint()
	if n > len(r.b) {
		r.fail("a string past its end")
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

func (r *fieldReader) float() float64 {
	if len(r.b) < 8 {
		r.fail("a float past its end")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

// size is a slice's or map's length, and false for nil.
func (r *fieldReader) size() (int, bool) {
	n := r.uvarint()
	if n == 0 {
		return 0, false
	}
	return n - 1, r.err == nil
}

func (r *fieldReader) ints() []int {
	n, ok := r.size()
	if !ok {
		return nil
	}
	v := make([]int, n)
	for i := range v {
		v[i] = int(r.int())
	}
	return v
}
