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

// HugeRoom returns an empty slice with capacity for n values.
// When they take 4 MiB or more, the array is advised to be backed by
// transparent huge pages before anything is written to it: filling fresh
// memory otherwise takes a page fault per 4 KiB (2700 for an 11 MB cache
// entry, ~7 ms, most of a warm analyze's load; 30000 for
// sample_idx_map.json's columns at 5 M entries; ~19 µs each on the
// virtual machines the benchmarks run on), and with huge pages one per
// 2 MiB. The array is allocated with up to 4 MiB to spare so that the
// slice starts on a 2 MiB boundary and its last huge page is whole: all of
// it is advised (an array placed anywhere had only its 2 MiB-aligned
// interior advised, and its ends, up to 2 MiB each, faulted in 4 KiB
// pages). It is for arrays filled whole soon after (a file read into it,
// a hash table, columns): a huge page is resident once any byte of it is
// written. The advice is lost on pages the heap had already touched; where
// THP is off ("never") it does nothing.
func HugeRoom[T any](n int) []T {
	var zero T
	elem := unsafe.Sizeof(zero)
	size := uintptr(n) * elem
	if size < 2*hugePage || elem == 0 || hugePage%elem != 0 || hugeAdvised.Add(1) > maxHugeAdvice {
		return make([]T, 0, n)
	}
	span := (size + hugePage - 1) &^ (hugePage - 1) // whole huge pages
	s := make([]T, 0, (span+hugePage)/elem)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	off := int((lo - p) / elem)
	s = s[off : off : off+n]
	// Best effort: an error (an old kernel, no THP) leaves 4 KiB pages.
	syscall.Syscall(syscall.SYS_MADVISE, lo, span, syscall.MADV_HUGEPAGE)
	return s
}
