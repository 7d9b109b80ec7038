package main

import (
	"unsafe"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// hugeFloatsMin is the smallest array hugeFloats puts in huge pages: one
// 2 MiB huge page costs about as much to fault in (~170 µs on the
// benchmarks' virtual machines) as ten 4 KiB pages (~16 µs each), so
// from 256 KiB (64 pages) on it is the cheaper; below, the huge page
// would mostly raise the resident size.
const hugeFloatsMin = 256 << 10 / 8

// hugeFloats is core.Run.Floats for a command that analyses one run and
// exits: the rollups' lists (4 values a sample, 1.7 MB for the 53,000
// samples of the 185 MB streamed log) in transparent huge pages outside
// the Go heap (safeopen.HugeMapping), one fault per 2 MiB instead of ~450
// of 4 KiB. The mapping is never unmapped: the values hold no pointers,
// the process ends with the analysis, and on the heap the array (with
// HugeRoom's padding to align it) raised the heap past the start's
// collection floor (gcfloor.go), so a warm analyze collected once more
// than it saved. Only the pages written become resident. Small arrays, and
// no huge pages (another system, THP off, a failed mapping), come from
// make.
func hugeFloats(n int) []float64 {
	if n < hugeFloatsMin {
		return make([]float64, 0, n)
	}
	b, _ := safeopen.HugeMapping(n * 8)
	if b == nil {
		return make([]float64, 0, n)
	}
	// HugeMapping's memory starts on a 2 MiB boundary: aligned for float64.
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(b))), n)[:0]
}
