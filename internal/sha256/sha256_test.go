package sha256

import (
	"bytes"
	stdsha256 "crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestMatchesCryptoSHA256 holds New and Sum256 to crypto/sha256 on every
// length to 300 bytes and a few long ones, written whole and in pieces,
// with each block implementation this CPU can run (implementations.go).
func TestMatchesCryptoSHA256(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 200_000)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	lengths := []int{maxAsmSize - 1, maxAsmSize, maxAsmSize + 65, 3*maxAsmSize + 7, len(data)}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	for _, m := range runnableImpls() {
		t.Run(implName(m), func(t *testing.T) {
			withImpl(t, m)
			for _, n := range lengths {
				p := data[:n]
				want := stdsha256.Sum256(p)
				if got := Sum256(p); got != want {
					t.Fatalf("Sum256 of %d bytes = %x, crypto/sha256 %x", n, got, want)
				}
				h := New()
				for rest := p; len(rest) > 0; {
					k := min(len(rest), 1+r.IntN(100))
					h.Write(rest[:k])
					rest = rest[k:]
				}
				if got := h.Sum([]byte("x")); !bytes.Equal(got, append([]byte("x"), want[:]...)) {
					t.Fatalf("New, written in pieces, %d bytes: %x, crypto/sha256 %x", n, got, want)
				}
				h.Reset()
				h.Write(p)
				if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
					t.Fatalf("after Reset, %d bytes: %x", n, got)
				}
			}
		})
	}
	if h := New(); h.Size() != stdsha256.Size || h.BlockSize() != stdsha256.BlockSize {
		t.Errorf("Size %d BlockSize %d", h.Size(), h.BlockSize())
	}
}

// TestSumOfEmptyInput: FIPS 180-4's published digest of "" and of "abc".
func TestPublishedDigests(t *testing.T) {
	for in, want := range map[string]string{
		"":    "\xe3\xb0\xc4\x42\x98\xfc\x1c\x14\x9a\xfb\xf4\xc8\x99\x6f\xb9\x24\x27\xae\x41\xe4\x64\x9b\x93\x4c\xa4\x95\x99\x1b\x78\x52\xb8\x55",
		"abc": "\xba\x78\x16\xbf\x8f\x01\xcf\xea\x41\x41\x40\xde\x5d\xae\x22\x23\xb0\x03\x61\xa3\x96\x17\x7a\x9c\xb4\x10\xff\x61\xf2\x00\x15\xad",
	} {
		if got := Sum256([]byte(in)); string(got[:]) != want {
			t.Errorf("Sum256(%q) = %x", in, got)
		}
	}
}

func BenchmarkSum256_1MiB(b *testing.B) {
	data := make([]byte, 1<<20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Sum256(data)
	}
}

func BenchmarkCryptoSum256_1MiB(b *testing.B) {
	data := make([]byte, 1<<20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		stdsha256.Sum256(data)
	}
}
