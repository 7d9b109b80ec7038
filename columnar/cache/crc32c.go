package cache

import (
	"hash/crc32"
	"runtime"
)

// castagnoliReflected is the CRC-32C polynomial 0x1EDC6F41, bit-reversed
// (hash/crc32's Castagnoli): bit 31 of a value is the coefficient of x^0.
const castagnoliReflected = 0x82F63B78

// parallelCRCMin is the smallest body checksummed on two goroutines.
// The checksum of a mapped entry is memory-bound (~3 GB/s per core on
// page-cache pages, 66 % of BenchmarkReadEntry's CPU on the 5.9 MB entry of
// the 185 MB streamed log), so halving it pays when the second core is free;
// a goroutine start and join plus crc32cCombine (~2 µs) cost more than the
// half saved below ~1 MiB when that core is busy (BenchmarkCRC32C -cpu 2 at
// load 7: halves slower than one goroutine at 64 and 256 KiB).
//
// The mapping stays MAP_POPULATE'd on one core (entrymap_populate_linux.go):
// faulting the halves in on the two goroutines instead — no populate, or
// madvise(MADV_POPULATE_READ) per half — cost more CPU (no populate: +10 ms
// task-clock per warm analyze; per half: +0.4 ms per BenchmarkReadEntry op)
// and no measurable wall at load 6–10.
const parallelCRCMin = 1 << 20

// entryChecksum is crc32.Checksum(b, Castagnoli) — the value the entry
// format stores — computed over two halves on two goroutines and joined
// with crc32cCombine when b is large enough and a second core exists.
// The second half is the goroutine's, so its pages (an unpopulated
// mapping's) fault in on that core.
func entryChecksum(b []byte) uint32 {
	if len(b) < parallelCRCMin || runtime.GOMAXPROCS(0) < 2 {
		return crc32.Checksum(b, castagnoli())
	}
	return crc32cHalves(b)
}

// crc32cHalves is the CRC-32C of b, its second half run on a new goroutine.
func crc32cHalves(b []byte) uint32 {
	mid := len(b) / 2
	tail := make(chan uint32, 1)
	go func() { tail <- crc32.Checksum(b[mid:], castagnoli()) }()
	head := crc32.Checksum(b[:mid], castagnoli())
	return crc32cCombine(head, <-tail, int64(len(b)-mid))
}

// crc32cCombine is the CRC-32C of A‖B from crcA = CRC(A), crcB = CRC(B) and
// lenB = len(B), as zlib's crc32_combine (1.2.12 and later) for the
// Castagnoli polynomial P.
//
// The math: a CRC without its pre- and post-inversion is linear over GF(2),
// CRC(M) = M(x)·x^32 mod P. Appending lenB bytes shifts A's polynomial by
// x^(8·lenB), so rawCRC(A‖B) = rawCRC(A)·x^(8·lenB) ⊕ rawCRC(B) mod P. The
// inversions (the initial ¬0 register and the final ¬) contribute terms that
// are the same for A‖B as for A shifted plus B — the register's ¬0 at B's
// start in CRC(B) matches the final ¬ of CRC(A) carried into B — so the same
// identity holds for the finished values:
//
//	CRC(A‖B) = CRC(A) · x^(8·lenB) mod P  ⊕  CRC(B).
//
// x^(8·lenB) mod P is built by square-and-multiply over lenB's bits from
// x^8 (one zero byte) — O(log lenB) products of 32-bit polynomials, each
// ≤ 32 shift-and-xor steps — instead of zlib's older 32×32 GF(2) matrix
// operator; the result is the same "shift by lenB zero bytes".
// Edge case: lenB = 0 gives crcA ⊕ crcB with crcB = CRC(ε) = 0, i.e. crcA.
func crc32cCombine(crcA, crcB uint32, lenB int64) uint32 {
	if lenB <= 0 {
		return crcA ^ crcB
	}
	return gf2MulModP(x8nModP(lenB), crcA) ^ crcB
}

// gf2MulModP is a·b mod P for reflected polynomials (bit 31 = x^0): for
// each set bit of a from x^0 upward, add b·x^i, advancing b by one power
// of x (a right shift, reducing by P when x^31's coefficient carries out).
func gf2MulModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
			if a&(m-1) == 0 {
				break
			}
		}
		if b&1 != 0 {
			b = b>>1 ^ castagnoliReflected
		} else {
			b >>= 1
		}
	}
	return p
}

// x8nModP is x^(8·n) mod P (reflected), for n ≥ 0.
func x8nModP(n int64) uint32 {
	p := uint32(1) << 31        // x^0
	sq := uint32(1) << (31 - 8) // x^8: x^(8·2^k) for k = 0, then squared
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			p = gf2MulModP(sq, p)
		}
		sq = gf2MulModP(sq, sq)
	}
	return p
}
