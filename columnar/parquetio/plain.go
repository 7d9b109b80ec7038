package parquetio

import (
	"encoding/binary"
	"fmt"
	"math"
)

// PLAIN encoding (Encodings.md): fixed-width values little-endian one
// after another, booleans bit-packed LSB first, byte arrays each a 4-byte
// little-endian length and the bytes.

// value is a Go type a flat column decodes to: the physical types we
// read (byte arrays as slices into the page).
type value interface {
	bool | int32 | int64 | float64 | []byte
}

// valueDecoder yields a page's values: decode fills all of dst or fails.
type valueDecoder[T value] interface {
	decode(dst []T) error
}

// fixed are the fixed-width physical types.
type fixed interface{ int32 | int64 | float64 }

func sizeOf[T fixed]() int {
	var z T
	switch any(z).(type) {
	case int32:
		return 4
	}
	return 8
}

// getFixed reads one little-endian T from b.
func getFixed[T fixed](b []byte) T {
	var z T
	switch any(z).(type) {
	case int32:
		return T(int32(binary.LittleEndian.Uint32(b)))
	case int64:
		return T(int64(binary.LittleEndian.Uint64(b)))
	}
	return T(math.Float64frombits(binary.LittleEndian.Uint64(b)))
}

// appendFixed appends v little-endian.
func appendFixed[T fixed](b []byte, v T) []byte {
	switch x := any(v).(type) {
	case int32:
		return binary.LittleEndian.AppendUint32(b, uint32(x))
	case int64:
		return binary.LittleEndian.AppendUint64(b, uint64(x))
	case float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

type plainFixed[T fixed] struct {
	b []byte
}

func (d *plainFixed[T]) decode(dst []T) error {
	size := sizeOf[T]()
	if need := len(dst) * size; need > len(d.b) {
		return fmt.Errorf("PLAIN values: %d values need %d bytes, the page has %d", len(dst), need, len(d.b))
	}
	for i := range dst {
		dst[i] = getFixed[T](d.b[i*size:])
	}
	d.b = d.b[len(dst)*size:]
	return nil
}

type plainBool struct {
	b   []byte
	bit int
}

func (d *plainBool) decode(dst []bool) error {
	if d.bit+len(dst) > len(d.b)*8 {
		return fmt.Errorf("PLAIN booleans: %d values need %d bits, the page has %d", len(dst), len(dst), len(d.b)*8-d.bit)
	}
	for i := range dst {
		dst[i] = d.b[d.bit>>3]>>(d.bit&7)&1 == 1
		d.bit++
	}
	return nil
}

type plainBytes struct {
	b []byte
}

func (d *plainBytes) decode(dst [][]byte) error {
	for i := range dst {
		if len(d.b) < 4 {
			return fmt.Errorf("PLAIN byte array %d: length truncated", i)
		}
		n := binary.LittleEndian.Uint32(d.b)
		if uint64(n) > uint64(len(d.b)-4) {
			return fmt.Errorf("PLAIN byte array %d: length %d beyond the %d bytes left in the page", i, n, len(d.b)-4)
		}
		dst[i] = d.b[4 : 4+n : 4+n]
		d.b = d.b[4+n:]
	}
	return nil
}

// newPlainDecoder is the PLAIN decoder of T over the page's value bytes.
func newPlainDecoder[T value](b []byte) valueDecoder[T] {
	var z T
	var d any
	switch any(z).(type) {
	case bool:
		d = &plainBool{b: b}
	case int32:
		d = &plainFixed[int32]{b: b}
	case int64:
		d = &plainFixed[int64]{b: b}
	case float64:
		d = &plainFixed[float64]{b: b}
	case []byte:
		d = &plainBytes{b: b}
	}
	return d.(valueDecoder[T])
}

// plainCount checks that n PLAIN values of physical type typ can fit in
// size bytes (a dictionary page's count is allocated from).
func plainCount(typ int32, n, size int) error {
	per := 4 // a byte array's length prefix at least
	switch typ {
	case typeBoolean:
		if n > size*8 {
			return fmt.Errorf("%d booleans in %d bytes", n, size)
		}
		return nil
	case typeInt64, typeDouble:
		per = 8
	}
	if n > size/per {
		return fmt.Errorf("%d values in %d bytes", n, size)
	}
	return nil
}

// appendPlainBools appends vals bit-packed, LSB first.
func appendPlainBools(b []byte, vals []bool) []byte {
	start := len(b)
	b = append(b, make([]byte, (len(vals)+7)/8)...)
	for i, v := range vals {
		if v {
			b[start+i>>3] |= 1 << (i & 7)
		}
	}
	return b
}

// appendPlainBytes appends one byte array.
func appendPlainBytes(b, v []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}
