package safeopen

import (
	"sync/atomic"
	"syscall"
	"unsafe"
)

// hugePage is the transparent huge page size of amd64 and arm64 Linux.
const hugePage = 2 << 20

// maxHugeAdvice bounds the madvise calls of one process: each may split
// a heap mapping in two or three, and a sweep reads files per run.
const maxHugeAdvice = 256

var hugeAdvised atomic.Int32

// HugeRoom returns an empty slice with capacity for n values. When they
// take 4 MiB or more, the array is advised to be backed by transparent
// huge pages before anything is written to it: filling fresh memory
// otherwise takes a page fault per 4 KiB (2700 for an 11 MB cache entry,
// ~7 ms, most of a warm analyze's load; 30000 for sample_idx_map.json's
// columns at 5 M entries), and with huge pages one per 2 MiB. It is for
// arrays filled whole soon after (a file read into it, a hash table): a
// huge page is resident once any byte of it is written. The advice only
// reaches the array's 2 MiB-aligned interior and is lost on pages the heap
// had already touched; where THP is off ("never") it does nothing.
func HugeRoom[T any](n int) []T {
	s := make([]T, 0, n)
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if size < 2*hugePage || hugeAdvised.Add(1) > maxHugeAdvice {
		return s
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + size) &^ (hugePage - 1)
	if hi > lo {
		// Best effort: an error (an old kernel, no THP) leaves 4 KiB pages.
		syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE)
	}
	return s
}
