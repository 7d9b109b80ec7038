package parquetio

import (
	"encoding/binary"
	"fmt"
)

// The RLE/bit-packing hybrid of Encodings.md (apache/parquet-format):
// definition levels and dictionary indices. A run is a varint header;
// header&1 == 0 is an RLE run of header>>1 copies of one value stored in
// ceil(bitWidth/8) little-endian bytes, header&1 == 1 is header>>1
// groups of 8 values bit-packed least-significant bit first.

// rleDecoder yields the values of one hybrid stream of a bit width.
type rleDecoder struct {
	b     []byte
	pos   int
	width int

	rle    bool   // the current run is an RLE run
	left   int    // values left in the current run
	value  uint32 // an RLE run's value
	bitPos int    // a bit-packed run's next bit, from its start
	packed []byte // a bit-packed run's bytes
}

func newRLEDecoder(b []byte, width int) *rleDecoder {
	return &rleDecoder{b: b, width: width}
}

// next fills dst with the next len(dst) values; fewer than asked means
// the stream is short, an error.
func (d *rleDecoder) next(dst []uint32) error {
	for i := 0; i < len(dst); {
		if d.left == 0 {
			if err := d.run(); err != nil {
				return fmt.Errorf("RLE/bit-packed stream ends after %d of %d values: %w", i, len(dst), err)
			}
		}
		k := min(d.left, len(dst)-i)
		if d.rle {
			for j := range k {
				dst[i+j] = d.value
			}
		} else {
			unpack(dst[i:i+k], d.packed, d.bitPos, d.width)
			d.bitPos += k * d.width
		}
		d.left -= k
		i += k
	}
	return nil
}

// run reads the next run header (and an RLE run's value).
func (d *rleDecoder) run() error {
	h, n := binary.Uvarint(d.b[d.pos:])
	if n <= 0 {
		return fmt.Errorf("no run header at byte %d", d.pos)
	}
	d.pos += n
	if h&1 == 0 {
		count := h >> 1
		vb := (d.width + 7) / 8
		if count == 0 || count > 1<<31 {
			return fmt.Errorf("RLE run of %d values", count)
		}
		if len(d.b)-d.pos < vb {
			return fmt.Errorf("RLE run value truncated at byte %d", d.pos)
		}
		var v uint32
		for i := range vb {
			v |= uint32(d.b[d.pos+i]) << (8 * i)
		}
		d.pos += vb
		if d.width < 32 && v>>d.width != 0 {
			return fmt.Errorf("RLE value %d wider than %d bits", v, d.width)
		}
		d.rle, d.left, d.value = true, int(count), v
		return nil
	}
	groups := h >> 1
	if groups == 0 || groups > 1<<28 {
		return fmt.Errorf("bit-packed run of %d groups", groups)
	}
	size := int(groups) * d.width
	// A writer may cut the last run short of its padding (Encodings.md
	// lets readers stop at the value count): keep the whole values there.
	if size > len(d.b)-d.pos {
		size = len(d.b) - d.pos
	}
	d.rle = false
	d.packed = d.b[d.pos : d.pos+size]
	d.pos += size
	d.bitPos = 0
	d.left = int(groups) * 8
	if d.width > 0 {
		d.left = min(d.left, size*8/d.width)
	}
	if d.left == 0 {
		return fmt.Errorf("empty bit-packed run at byte %d", d.pos)
	}
	return nil
}

// unpack reads len(dst) values of width bits from b, LSB first, from bit
// bitPos on.
func unpack(dst []uint32, b []byte, bitPos, width int) {
	if width == 0 {
		clear(dst)
		return
	}
	mask := uint64(1)<<width - 1
	for i := range dst {
		byteAt, shift := bitPos>>3, bitPos&7
		var w uint64
		for j := 0; j < 5 && byteAt+j < len(b); j++ {
			w |= uint64(b[byteAt+j]) << (8 * j)
		}
		dst[i] = uint32(w >> shift & mask)
		bitPos += width
	}
}

// appendRLE appends the hybrid encoding of vals (each < 1<<width) to b:
// RLE runs for repeats of 8 or more, bit-packed groups of 8 between them,
// the last group padded with zeros (readers stop at the value count).
func appendRLE(b []byte, vals []uint32, width int) []byte {
	n := len(vals)
	runAt := func(i int) int {
		j := i + 1
		for j < n && vals[j] == vals[i] {
			j++
		}
		return j - i
	}
	vb := (width + 7) / 8
	for i := 0; i < n; {
		if r := runAt(i); r >= 8 {
			b = binary.AppendUvarint(b, uint64(r)<<1)
			for k := range vb {
				b = append(b, byte(vals[i]>>(8*k)))
			}
			i += r
			continue
		}
		start := i
		for i < n {
			i += 8
			if i >= n || runAt(i) >= 8 {
				break
			}
		}
		b = appendBitPacked(b, vals[start:min(i, n)], width)
	}
	return b
}

// appendBitPacked appends one bit-packed run of vals, padded to groups
// of 8.
func appendBitPacked(b []byte, vals []uint32, width int) []byte {
	groups := (len(vals) + 7) / 8
	b = binary.AppendUvarint(b, uint64(groups)<<1|1)
	start := len(b)
	b = append(b, make([]byte, groups*width)...)
	out := b[start:]
	bit := 0
	for _, v := range vals {
		for k := 0; k < width; {
			at, shift := bit>>3, bit&7
			take := min(8-shift, width-k)
			out[at] |= byte((v>>k)&(1<<take-1)) << shift
			bit += take
			k += take
		}
	}
	return b
}

// bitWidth is the bits needed for values up to max.
func bitWidth(max uint64) int {
	w := 0
	for max > 0 {
		w++
		max >>= 1
	}
	return w
}
