package safeopen

import (
	"sync/atomic"
	"syscall"
	"unsafe"
)

// hugePage is the transparent huge page size of amd64 and arm64 Linux.
const hugePage = 2 << 20

// maxHugeAdvice bounds the madvise calls of one process: each may split
// a heap mapping in two or three, and a sweep reads a file per run.
const maxHugeAdvice = 256

var hugeAdvised atomic.Int32

// bigBuffer returns an empty buffer of capacity n. One of 4 MiB or more
// is advised to be backed by transparent huge pages before anything is
// written to it: a whole-file read into fresh memory otherwise takes a
// page fault per 4 KiB (2700 for a 11 MB cache entry, ~7 ms, most of a
// warm analyze's load), and with huge pages about six. The advice only
// reaches the buffer's 2 MiB-aligned interior and is lost on pages the
// heap had already touched; where THP is off ("never") it does nothing.
func bigBuffer(n int) []byte {
	b := make([]byte, 0, n)
	if n < 2*hugePage || hugeAdvised.Add(1) > maxHugeAdvice {
		return b
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + uintptr(n)) &^ (hugePage - 1)
	if hi > lo {
		// Best effort: an error (an old kernel, no THP) leaves 4 KiB pages.
		syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE)
	}
	return b
}
