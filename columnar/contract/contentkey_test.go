package contract

import (
	"encoding/hex"
	"testing"
)

// TestContentKeyVector: the content key is XXH3-128 in its canonical
// (big-endian) form: of the empty input 99aa06d3014798d8 6001c324468d497f,
// the reference implementation's value (xxhash's XXH3_128bits of "" with
// the default secret: high64 0x99AA06D3014798D8, low64 0x6001C324468D497F).
func TestContentKeyVector(t *testing.T) {
	if got := hex.EncodeToString(NewContentKey().Sum(nil)); got != "99aa06d3014798d86001c324468d497f" {
		t.Errorf("content key of \"\" = %s", got)
	}
}

// TestContentKeyVectorsLong: the content key of inputs long enough for
// every path of the hasher (the 0–16, 17–128, 129–240 byte cases, and
// the striped loop that runs on AVX-512, AVX2, SSE2 or scalar code by
// what the CPU has), written in pieces as a file is read. The expected
// sums are the reference C library's: libxxhash 0.8.1's XXH3_128bits of
// bytes (7i+3) mod 256, i = 0…n-1, canonical (high64 then low64). They
// pin the content key across the patched copy of zeebo/xxh3
// (internal/third_party/xxh3, which picks its SIMD path with golang.org/x/sys/cpu):
// a changed sum would orphan every cache entry.
func TestContentKeyVectorsLong(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "22bbb76b211a39ba13e608bc156defed"},
		{3, "ce31763cbf8245a5a9088dda485b481c"},
		{4, "47197970590746b1788a609154b0fe20"},
		{8, "e3bc8a5f461715553cd024e3d63a1588"},
		{9, "c72c88247a9a56d7eafab1c7f123109f"},
		{16, "ce0b9647ab24f88460d75c5e47d40a24"},
		{17, "bfd327edcc2fbd12eeed7654312a26d7"},
		{128, "1b1962a096bac78bc580008b6c92ac53"},
		{129, "293e4968c4619023bd91ce7ace4d385b"},
		{240, "ad46c1021b076bc704e0b5f034bee80b"},
		{241, "ac6c3492c3d6b45d8beadd3a8874fe17"},
		{1024, "18bc0eaca9a336369b81661c641c72b1"},
		{1025, "bf447251cfa98d7c806c2072ed713576"},
		{4096, "1546867423105cd5d7428746842be37e"},
		{100003, "45791f178bfff9e8d3c5426780ed98b3"},
	} {
		b := make([]byte, tc.n)
		for i := range b {
			b[i] = byte(i*7 + 3)
		}
		h := NewContentKey()
		for rest := b; len(rest) > 0; {
			k := min(len(rest), 1000)
			h.Write(rest[:k])
			rest = rest[k:]
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != tc.want {
			t.Errorf("content key of %d bytes = %s, want %s", tc.n, got, tc.want)
		}
	}
}
