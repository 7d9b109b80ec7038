package parquetio

import (
	"bytes"
	"slices"
	"testing"
)

// TestRLEVectors: the RLE/bit-packed hybrid against the examples of
// apache/parquet-format Encodings.md (0–7 bit-packed at width 3 is
// 0x88 0xC6 0xFA after the header 0x03 of one group) and arrow-rs's
// parquet/src/encodings/rle.rs tests (50 ones then 50 zeros at width 1
// is two RLE runs, 0x64 0x01 0x64 0x00): we decode them to the values
// and encode the values to those bytes.
func TestRLEVectors(t *testing.T) {
	ones := slices.Repeat([]uint32{1}, 50)
	vectors := []struct {
		name  string
		width int
		vals  []uint32
		bytes []byte
	}{
		{"bit-packed 0..7", 3, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, []byte{0x03, 0x88, 0xC6, 0xFA}},
		{"50 ones, 50 zeros", 1, append(ones, make([]uint32, 50)...), []byte{0x64, 0x01, 0x64, 0x00}},
	}
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			got := make([]uint32, len(v.vals))
			if err := newRLEDecoder(v.bytes, v.width).next(got); err != nil || !slices.Equal(got, v.vals) {
				t.Errorf("decoded %v (%v), want %v", got, err, v.vals)
			}
			if enc := appendRLE(nil, v.vals, v.width); !bytes.Equal(enc, v.bytes) {
				t.Errorf("encoded % x, want % x", enc, v.bytes)
			}
		})
	}
}

// TestRLERoundTrip: runs and mixtures of every width round-trip, short
// of the padding the last bit-packed group carries.
func TestRLERoundTrip(t *testing.T) {
	for width := 0; width <= 32; width += 1 {
		mask := uint32(1)<<width - 1
		if width == 32 {
			mask = ^uint32(0)
		}
		var vals []uint32
		for i := range 1000 {
			switch {
			case i%97 < 30: // runs
				vals = append(vals, uint32(i/97)*2654435761&mask)
			default:
				vals = append(vals, uint32(i)*2654435761&mask)
			}
		}
		enc := appendRLE(nil, vals, width)
		got := make([]uint32, len(vals))
		if err := newRLEDecoder(enc, width).next(got); err != nil || !slices.Equal(got, vals) {
			t.Fatalf("width %d: round trip differs (%v)", width, err)
		}
		if err := newRLEDecoder(enc, width).next(make([]uint32, len(vals)+9)); err == nil {
			t.Errorf("width %d: read past the stream's values without an error", width)
		}
	}
}
