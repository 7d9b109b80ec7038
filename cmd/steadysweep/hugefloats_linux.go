package main

import (
	"syscall"
	"unsafe"
)

// hugePage is the transparent huge page size of amd64 and arm64 Linux.
const hugePage = 2 << 20

// hugeFloats is core.Run.Floats for a command that analyses one run and
// exits: the rollups' lists (4 values a sample, 1.7 MB for the 53,000
// samples of the 185 MB streamed log) in an anonymous mapping aligned to
// and advised to transparent huge pages, one fault per 2 MiB instead of
// ~450 of 4 KiB. The mapping is outside the Go heap, and never unmapped:
// the values hold no pointers, the process ends with the analysis, and on
// the heap the array (with HugeRoom's padding to align it) raised the
// heap past the start's collection floor (gcfloor.go), so a warm analyze
// collected once more than it saved. Only the pages written become
// resident. Small arrays, and a failed mapping, come from make.
func hugeFloats(n int) []float64 {
	if n < hugeFloatsMin {
		return make([]float64, 0, n)
	}
	size := (n*8 + hugePage - 1) &^ (hugePage - 1)
	b, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]float64, 0, n)
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	b = b[(p+hugePage-1)&^(hugePage-1)-p:][:size]
	// Best effort: an error (no THP) leaves 4 KiB pages.
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(b))), size/8)[:0:n]
}
