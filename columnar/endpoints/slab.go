package endpoints

import (
	"unsafe"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// columnSlab is one array the columns of a big decode are cut from
// (carve), advised to transparent huge pages (safeopen.HugeRoom): filling
// 53,000 samples' columns in their own arrays took ~1,800 page faults of
// 4 KiB, at ~19 µs of CPU each on the virtual machines the benchmarks run
// on (8 % of a cold analyze of a 185 MB log); a slab takes a few of 2 MiB.
// Only pointer-free columns are cut from it (numbers, flags, uuids): the
// garbage collector never scans it, and it lives while any column does.
type columnSlab struct {
	b   []byte
	off int
}

// slabMin is the smallest slab worth making: HugeRoom advises only the
// 2 MiB-aligned interior of an array of 4 MiB or more.
var slabMin = 4 << 20 // a variable for a test

// slabBytesPerSample is what reserve cuts from a slab per sample: the
// detector's pointer-free columns (10 of int64, 4 of bool, Retries),
// the uuid key, the text length and the phase-2 status; reissued adds
// LastIssueNs and curIssue.
func slabBytesPerSample(reissued bool) int {
	n := 10*8 + 4 + 4 + 16 + 8 + 1
	if reissued {
		n += 2 * 8
	}
	return n
}

// newColumnSlab returns a slab for the columns of n samples and an index
// table of indexSlots slots, or nil when they are too small for huge pages
// (carve then allocates as withRoom).
func newColumnSlab(n int, reissued bool, indexSlots int) *columnSlab {
	size := n*slabBytesPerSample(reissued) + indexSlots*8 + 32*8 // and each column's alignment
	if size < slabMin {
		return nil
	}
	return &columnSlab{b: safeopen.HugeRoom[byte](size)[:size]}
}

// carve is withRoom(xs, n), the new array cut from sl when there is one
// with room left. T must hold no pointers.
func carve[T any](sl *columnSlab, xs []T, n int) []T {
	if cap(xs) >= n {
		return xs
	}
	var zero T
	size, align := int(unsafe.Sizeof(zero)), int(unsafe.Alignof(zero))
	if sl == nil || n == 0 {
		return withRoom(xs, n)
	}
	off := (sl.off + align - 1) &^ (align - 1)
	if off+n*size > len(sl.b) {
		return withRoom(xs, n)
	}
	grown := unsafe.Slice((*T)(unsafe.Pointer(&sl.b[off])), n)[:len(xs):n]
	copy(grown, xs)
	sl.off = off + n*size
	return grown
}

// slots returns size zeroed index slots cut from sl (UUIDIndex.EnsureFrom):
// the slab is fresh memory and every cut a new part of it.
func (sl *columnSlab) slots(size int) []uint64 { return carve(sl, []uint64(nil), size)[:size] }
