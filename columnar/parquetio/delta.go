package parquetio

import (
	"encoding/binary"
	"fmt"
)

// The delta encodings of Encodings.md, which we read but never write
// (other writers use them: arrow-rs and parquet-mr for version-2 pages).
//
// DELTA_BINARY_PACKED: a header <block size> <miniblocks per block>
// <total value count> <first value, zigzag>, then blocks of <min delta,
// zigzag> <one bit-width byte per miniblock> <miniblocks, each
// block size/miniblocks values of its bit width, LSB first>. Values are
// first value + running sums of (min delta + packed value), wrapping in
// the column's width. The last block's unneeded miniblocks are absent
// (their bit-width bytes are not, and may hold anything).

// deltaDecoder streams a DELTA_BINARY_PACKED run of int64s.
type deltaDecoder struct {
	b   []byte
	pos int

	blockSize, miniblocks, perMini int
	total                          int // values not yet yielded
	last                           int64
	first                          bool // the first value is not yet yielded

	minDelta int64
	widths   []byte // the current block's bit widths
	mini     int    // the current miniblock
	inMini   int    // values yielded from it
	miniAt   int    // its first byte
}

func newDeltaDecoder(b []byte) (*deltaDecoder, error) {
	d := &deltaDecoder{b: b}
	var h [3]uint64
	for i := range h {
		v, n := binary.Uvarint(b[d.pos:])
		if n <= 0 {
			return nil, fmt.Errorf("DELTA_BINARY_PACKED header truncated")
		}
		h[i] = v
		d.pos += n
	}
	first, n := binary.Varint(b[d.pos:])
	if n <= 0 {
		return nil, fmt.Errorf("DELTA_BINARY_PACKED first value truncated")
	}
	d.pos += n
	if h[0] == 0 || h[0]%128 != 0 || h[0] > 1<<20 || h[1] == 0 || h[0]%h[1] != 0 || (h[0]/h[1])%32 != 0 {
		return nil, fmt.Errorf("DELTA_BINARY_PACKED block of %d values in %d miniblocks", h[0], h[1])
	}
	if h[2] > 1<<31 {
		return nil, fmt.Errorf("DELTA_BINARY_PACKED count %d", h[2])
	}
	d.blockSize, d.miniblocks, d.perMini = int(h[0]), int(h[1]), int(h[0]/h[1])
	d.total, d.last, d.first = int(h[2]), first, true
	d.mini = d.miniblocks // no block read yet
	return d, nil
}

// next yields one value.
func (d *deltaDecoder) next() (int64, error) {
	if d.total == 0 {
		return 0, fmt.Errorf("DELTA_BINARY_PACKED stream holds fewer values than the page")
	}
	d.total--
	if d.first {
		d.first = false
		return d.last, nil
	}
	if d.inMini == d.perMini || d.mini == d.miniblocks {
		if err := d.nextMini(); err != nil {
			return 0, err
		}
	}
	w := int(d.widths[d.mini])
	u := bitsAt(d.b[d.miniAt:], d.inMini*w, w)
	d.inMini++
	d.last += d.minDelta + int64(u)
	return d.last, nil
}

// nextMini moves to the next miniblock, reading a block header when the
// block is done, and checks its bytes are there.
func (d *deltaDecoder) nextMini() error {
	if d.mini < d.miniblocks {
		d.pos = d.miniAt + d.perMini*int(d.widths[d.mini])/8
		d.mini++
	}
	if d.mini == d.miniblocks {
		md, n := binary.Varint(d.b[d.pos:])
		if n <= 0 {
			return fmt.Errorf("DELTA_BINARY_PACKED block header truncated at byte %d", d.pos)
		}
		d.pos += n
		if len(d.b)-d.pos < d.miniblocks {
			return fmt.Errorf("DELTA_BINARY_PACKED bit widths truncated at byte %d", d.pos)
		}
		d.minDelta, d.widths = md, d.b[d.pos:d.pos+d.miniblocks]
		d.pos += d.miniblocks
		d.mini = 0
	}
	w := int(d.widths[d.mini])
	if w > 64 {
		return fmt.Errorf("DELTA_BINARY_PACKED bit width %d", w)
	}
	// The miniblock holds perMini values; the last one needed may be the
	// last in the stream, so only the values still to come must be there.
	need := (min(d.perMini, d.total+1)*w + 7) / 8
	if need > len(d.b)-d.pos {
		return fmt.Errorf("DELTA_BINARY_PACKED miniblock truncated at byte %d", d.pos)
	}
	d.miniAt, d.inMini = d.pos, 0
	return nil
}

// end is the byte just after the stream, once every value was yielded:
// the rest of the last miniblock (padding) counted.
func (d *deltaDecoder) end() int {
	if d.mini < d.miniblocks && d.widths != nil {
		return min(len(d.b), d.miniAt+d.perMini*int(d.widths[d.mini])/8)
	}
	return d.pos
}

// bitsAt reads width (≤ 64) bits LSB first from bit off of b; bits past
// the end read as zero.
func bitsAt(b []byte, off, width int) uint64 {
	var v uint64
	for got := 0; got < width; {
		at, shift := (off+got)>>3, (off+got)&7
		if at >= len(b) {
			break
		}
		take := min(8-shift, width-got)
		v |= uint64(b[at]>>shift&(1<<take-1)) << got
		got += take
	}
	return v
}

// deltaInts yields int32 or int64 values from a delta stream.
type deltaInts[T int32 | int64] struct{ d *deltaDecoder }

func (x deltaInts[T]) decode(dst []T) error {
	for i := range dst {
		v, err := x.d.next()
		if err != nil {
			return err
		}
		dst[i] = T(v) // INT32 deltas wrap at 32 bits: the low half of the int64 sum
	}
	return nil
}

// deltaLengths reads a whole length stream, which must be fully read to
// find where the bytes after it start. Its count is bounded by the
// page's value count (at most limit) and each length by the page's
// bytes, so its memory is the page's.
func deltaLengths(b []byte, limit int) ([]int, int, error) {
	d, err := newDeltaDecoder(b)
	if err != nil {
		return nil, 0, err
	}
	if d.total > limit {
		return nil, 0, fmt.Errorf("%d delta lengths in a page of %d values", d.total, limit)
	}
	lens := make([]int, d.total)
	for i := range lens {
		v, err := d.next()
		if err != nil {
			return nil, 0, err
		}
		if v < 0 || v > int64(len(b)) {
			return nil, 0, fmt.Errorf("byte array length %d in a page of %d bytes", v, len(b))
		}
		lens[i] = int(v)
	}
	return lens, d.end(), nil
}

// deltaLengthBytes is DELTA_LENGTH_BYTE_ARRAY: the lengths
// DELTA_BINARY_PACKED, then the bytes of every value one after another.
type deltaLengthBytes struct {
	lens []int
	data []byte
}

func newDeltaLengthBytes(b []byte, n int) (*deltaLengthBytes, error) {
	lens, end, err := deltaLengths(b, n)
	if err != nil {
		return nil, err
	}
	return &deltaLengthBytes{lens: lens, data: b[end:]}, nil
}

func (d *deltaLengthBytes) decode(dst [][]byte) error {
	if len(dst) > len(d.lens) {
		return fmt.Errorf("DELTA_LENGTH_BYTE_ARRAY holds fewer values than the page")
	}
	for i := range dst {
		n := d.lens[i]
		if n > len(d.data) {
			return fmt.Errorf("DELTA_LENGTH_BYTE_ARRAY value of %d bytes, %d left", n, len(d.data))
		}
		dst[i] = d.data[:n:n]
		d.data = d.data[n:]
	}
	d.lens = d.lens[len(dst):]
	return nil
}

// deltaBytes is DELTA_BYTE_ARRAY: prefix lengths DELTA_BINARY_PACKED,
// then the suffixes DELTA_LENGTH_BYTE_ARRAY; a value is the previous
// value's prefix followed by its suffix.
type deltaBytes struct {
	prefixes []int
	suffixes *deltaLengthBytes
	prev     []byte
	total    int // bytes of the values so far
}

func newDeltaBytes(b []byte, n int) (*deltaBytes, error) {
	prefixes, end, err := deltaLengths(b, n)
	if err != nil {
		return nil, err
	}
	suffixes, err := newDeltaLengthBytes(b[end:], n)
	if err != nil {
		return nil, err
	}
	return &deltaBytes{prefixes: prefixes, suffixes: suffixes}, nil
}

func (d *deltaBytes) decode(dst [][]byte) error {
	if len(dst) > len(d.prefixes) {
		return fmt.Errorf("DELTA_BYTE_ARRAY holds fewer values than the page")
	}
	if err := d.suffixes.decode(dst); err != nil {
		return err
	}
	for i, suffix := range dst {
		p := d.prefixes[i]
		if p > len(d.prev) {
			return fmt.Errorf("DELTA_BYTE_ARRAY prefix of %d bytes after a value of %d", p, len(d.prev))
		}
		// Shared prefixes let a small page stand for values far larger
		// than itself; they are bounded like a decompressed page.
		if d.total += p + len(suffix); d.total > maxPageBytes {
			return fmt.Errorf("DELTA_BYTE_ARRAY values exceed %d bytes", maxPageBytes)
		}
		v := make([]byte, 0, p+len(suffix))
		v = append(append(v, d.prev[:p]...), suffix...)
		dst[i], d.prev = v, v
	}
	d.prefixes = d.prefixes[len(dst):]
	return nil
}
