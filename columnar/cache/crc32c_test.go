package cache

import (
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCRC32CCombine checks crc32cCombine and entryChecksum against
// hash/crc32's CRC-32C of the whole, on random data of many lengths split
// at 0, 1, odd, page-sized, random and the whole length.
func TestCRC32CCombine(t *testing.T) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	r := rand.New(rand.NewPCG(32, 1))
	for _, n := range []int{0, 1, 2, 3, 7, 8, 63, 4095, 4096, 4097, 65537, 1<<20 + 13} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		want := crc32.Checksum(b, tab)
		splits := []int{0, n}
		for _, s := range []int{1, 3, n / 2, n/2 + 1, 4096, n - 1} {
			if s >= 0 && s <= n {
				splits = append(splits, s)
			}
		}
		if n > 0 {
			splits = append(splits, r.IntN(n+1))
		}
		for _, s := range splits {
			got := crc32cCombine(crc32.Checksum(b[:s], tab), crc32.Checksum(b[s:], tab), int64(n-s))
			if got != want {
				t.Errorf("len %d split %d: combined %08x, crc32.Checksum %08x", n, s, got, want)
			}
		}
		if got := entryChecksum(b); got != want {
			t.Errorf("len %d: entryChecksum %08x, crc32.Checksum %08x", n, got, want)
		}
	}
}

// BenchmarkCRC32C measures one-goroutine and two-goroutine checksums of
// sizes around parallelCRCMin (run with -cpu 2; compare cpu and wall on an
// idle machine).
func BenchmarkCRC32C(b *testing.B) {
	for _, n := range []int{64 << 10, 256 << 10, 1 << 20, 6 << 20} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i * 7)
		}
		tab := crc32.MakeTable(crc32.Castagnoli)
		b.Run(fmt.Sprintf("single/%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			for range b.N {
				crc32.Checksum(data, tab)
			}
		})
		b.Run(fmt.Sprintf("halves/%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			for range b.N {
				crc32cHalves(data)
			}
		})
	}
}

// BenchmarkCRC32CCombine is the join's cost for a 3 MB second half (the
// 185 MB log's entry split in two).
func BenchmarkCRC32CCombine(b *testing.B) {
	var s uint32
	for i := range b.N {
		s = crc32cCombine(uint32(i), s, 3<<20+12345)
	}
	_ = s
}
