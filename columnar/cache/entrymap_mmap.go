//go:build linux || darwin

package cache

import (
	"io"
	"os"
	"sync"
	"syscall"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// mapBudget bounds the mappings a process keeps (they are never
// unmapped, cache.go): a sweep over an archive loads thousands of runs,
// each mapping is a VMA (Linux allows 65,530), and its populated pages
// stay in the process's resident set for good, where an entry read into
// the heap is collected after its run. So the budget is what one analyze
// needs, not what a sweep could use: 256 MiB keeps a sweep's resident
// set bounded (its first runs mapped, the rest read, as before mapping);
// past either bound, entries are read into memory instead.
var mapBudget = struct {
	sync.Mutex
	count, bytes int64
}{}

const (
	mapMaxCount = 64
	mapMaxBytes = 256 << 20
)

// mapEntry returns the size bytes of f in memory of their own that the
// process keeps, and the function that frees it (only for an entry found
// invalid, nothing of it kept), or nil when the entry is small, the budget
// spent or neither way works: then the caller reads it into the heap.
//
// Read into huge pages (safeopen.HugeMapping) where the kernel gives
// them, else mapped. Either way every page is touched by the checksum,
// and a first touch is what costs: a mapping's 4 KiB pages cost one
// (shadow-paged) fault each to the process even when MAP_POPULATE'd
// (~3 µs a page, 4 ms of CPU for the 5.9 MB entry of the 185 MB streamed
// log), where read() copies through the kernel's own mapping into three
// 2 MiB pages (1.6–2.8 ms, BenchmarkReadEntry and first reads in fresh
// processes, issue 32). Read in two parts on two goroutines (split on a
// huge page boundary) it cost +0.9 ms of LoadRun's CPU and gained no wall
// time (medians of 60 interleaved warm analyzes, load 13–17).
func mapEntry(f *os.File, size int64) ([]byte, func()) {
	if size < mapMinSize {
		return nil, nil
	}
	mapBudget.Lock()
	defer mapBudget.Unlock()
	if mapBudget.count >= mapMaxCount || mapBudget.bytes+size > mapMaxBytes {
		return nil, nil
	}
	var b []byte
	var free func()
	if size >= hugeReadMin {
		b, free = readHuge(f, size)
	}
	if b == nil {
		b, free = mapFile(f, size)
	}
	if b == nil {
		return nil, nil
	}
	mapBudget.count++
	mapBudget.bytes += size
	return b, func() {
		free()
		mapBudget.Lock()
		mapBudget.count--
		mapBudget.bytes -= size
		mapBudget.Unlock()
	}
}

// hugeReadMin is the smallest entry read into huge pages: a huge page is
// resident whole once touched, so a smaller entry would waste more than
// half of its last one (mapped, it costs a few hundred faults at most).
const hugeReadMin = 1 << 20

// readHuge reads the size bytes of f into a huge-page mapping
// (safeopen.HugeMapping), or returns nil.
func readHuge(f *os.File, size int64) ([]byte, func()) {
	b, free := safeopen.HugeMapping(int(size))
	if b == nil {
		return nil, nil
	}
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), b); err != nil {
		free()
		return nil, nil
	}
	return b, free
}

// mapFile maps the size bytes of f private (copy-on-write), or returns nil.
func mapFile(f *os.File, size int64) ([]byte, func()) {
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE|mapPopulate)
	if err != nil {
		return nil, nil
	}
	// Writable, privately: a Loaded's columns are the caller's to change
	// (a buffer read was), and a write must copy its page, not fault the
	// process; the file is never written (MAP_PRIVATE). Made writable
	// only after the populate, which on a writable private mapping would
	// copy every page.
	if err := syscall.Mprotect(b, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		syscall.Munmap(b)
		return nil, nil
	}
	return b, func() { syscall.Munmap(b) }
}

// mappedEntries is the number of entries the process keeps mapped.
func mappedEntries() int64 {
	mapBudget.Lock()
	defer mapBudget.Unlock()
	return mapBudget.count
}
