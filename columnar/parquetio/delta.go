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

// deltaEnd is the byte just after a DELTA_BINARY_PACKED stream, found
// by walking its block headers and miniblock sizes without decoding a
// value: the bytes after a length stream start there, and a hostile
// count (up to the page's value count) costs neither memory nor a pass
// per value. The stream's count must not pass limit.
func deltaEnd(b []byte, limit int) (int, error) {
	d, err := newDeltaDecoder(b)
	if err != nil {
		return 0, err
	}
	if d.total > limit {
		return 0, fmt.Errorf("a delta stream of %d values in a page of %d", d.total, limit)
	}
	pos, left := d.pos, d.total-1 // the first value is in the header
	for left > 0 {
		_, n := binary.Varint(b[pos:])
		if n <= 0 || len(b)-pos-n < d.miniblocks {
			return 0, fmt.Errorf("DELTA_BINARY_PACKED block header truncated at byte %d", pos)
		}
		widths := b[pos+n : pos+n+d.miniblocks]
		pos += n + d.miniblocks
		for _, w := range widths {
			if left <= 0 {
				break // the last block's unneeded miniblocks are absent
			}
			if w > 64 {
				return 0, fmt.Errorf("DELTA_BINARY_PACKED bit width %d", w)
			}
			size := d.perMini * int(w) / 8 // the last one padded to full size
			if size > len(b)-pos {
				if left > d.perMini {
					return 0, fmt.Errorf("DELTA_BINARY_PACKED miniblock truncated at byte %d", pos)
				}
				size = len(b) - pos
			}
			pos += size
			left -= d.perMini
		}
	}
	return pos, nil
}

// deltaLengthBytes is DELTA_LENGTH_BYTE_ARRAY: the lengths
// DELTA_BINARY_PACKED, then the bytes of every value one after another.
type deltaLengthBytes struct {
	lens *deltaDecoder
	data []byte
}

func newDeltaLengthBytes(b []byte, limit int) (*deltaLengthBytes, int, error) {
	end, err := deltaEnd(b, limit)
	if err != nil {
		return nil, 0, err
	}
	lens, err := newDeltaDecoder(b)
	if err != nil {
		return nil, 0, err
	}
	return &deltaLengthBytes{lens: lens, data: b[end:]}, end, nil
}

func (d *deltaLengthBytes) decode(dst [][]byte) error {
	for i := range dst {
		n, err := d.lens.next()
		if err != nil {
			return err
		}
		if n < 0 || n > int64(len(d.data)) {
			return fmt.Errorf("DELTA_LENGTH_BYTE_ARRAY value of %d bytes, %d left", n, len(d.data))
		}
		dst[i] = d.data[:n:n]
		d.data = d.data[n:]
	}
	return nil
}

// deltaBytes is DELTA_BYTE_ARRAY: prefix lengths DELTA_BINARY_PACKED,
// then the suffixes DELTA_LENGTH_BYTE_ARRAY; a value is the previous
// value's prefix followed by its suffix.
type deltaBytes struct {
	prefixes *deltaDecoder
	suffixes *deltaLengthBytes
	prev     []byte
	total    int // bytes of the values so far
}

func newDeltaBytes(b []byte, limit int) (*deltaBytes, error) {
	end, err := deltaEnd(b, limit)
	if err != nil {
		return nil, err
	}
	prefixes, err := newDeltaDecoder(b)
	if err != nil {
		return nil, err
	}
	suffixes, _, err := newDeltaLengthBytes(b[end:], limit)
	if err != nil {
		return nil, err
	}
	return &deltaBytes{prefixes: prefixes, suffixes: suffixes}, nil
}

func (d *deltaBytes) decode(dst [][]byte) error {
	if err := d.suffixes.decode(dst); err != nil {
		return err
	}
	for i, suffix := range dst {
		p, err := d.prefixes.next()
		if err != nil {
			return err
		}
		if p < 0 || p > int64(len(d.prev)) {
			return fmt.Errorf("DELTA_BYTE_ARRAY prefix of %d bytes after a value of %d", p, len(d.prev))
		}
		// Shared prefixes let a small page stand for values far larger
		// than itself; they are bounded like a decompressed page.
		if d.total += int(p) + len(suffix); d.total > maxPageBytes {
			return fmt.Errorf("DELTA_BYTE_ARRAY values exceed %d bytes", maxPageBytes)
		}
		v := make([]byte, 0, int(p)+len(suffix))
		v = append(append(v, d.prev[:p]...), suffix...)
		dst[i], d.prev = v, v
	}
	return nil
}
