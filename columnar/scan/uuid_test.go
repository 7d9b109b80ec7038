package scan

import (
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// lowerHex is the definition hexNibble tabulates: a lowercase hex digit's
// value.
func lowerHex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func TestHexNibble(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := byte(0)
		if v, ok := lowerHex(byte(c)); ok {
			want = 0x10 | v
		}
		if hexNibble[c] != want {
			t.Errorf("hexNibble[%#x] = %#x, want %#x", c, hexNibble[c], want)
		}
	}
}

// TestPackHex holds PackHex to encoding/hex on lowercase uuids, each with
// one byte replaced by every other value (an uppercase digit, a dash, a
// non-ASCII byte): packed as hex.Decode packs them when every digit is
// lowercase hex, refused otherwise.
func TestPackHex(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	for range 200 {
		var raw [16]byte
		for i := range raw {
			raw[i] = byte(rng.UintN(256))
		}
		s := []byte(hex.EncodeToString(raw[:]))
		var got [16]byte
		if !PackHex(&got, s) || got != raw {
			t.Fatalf("PackHex(%s) = %x, want %x", s, got, raw)
		}
		at := rng.IntN(32)
		for c := 0; c < 256; c++ {
			m := append([]byte(nil), s...)
			m[at] = byte(c)
			_, valid := lowerHex(byte(c))
			var want [16]byte
			if valid {
				if _, err := hex.Decode(want[:], m); err != nil {
					t.Fatal(err)
				}
			}
			if ok := PackHex(&got, m); ok != valid || valid && got != want {
				t.Fatalf("PackHex(%q) = %x, %v; want %x, %v", m, got, ok, want, valid)
			}
		}
	}
}
