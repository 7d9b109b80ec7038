//go:build linux || darwin

package cache

import (
	"os"
	"sync"
	"syscall"
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

// mapEntry maps the size bytes of f private (copy-on-write), returning the
// mapping and the function that unmaps it (only for an entry found
// invalid, nothing of it kept), or nil when the entry is small, the budget
// spent or the mapping fails: then the caller reads it.
func mapEntry(f *os.File, size int64) ([]byte, func()) {
	if size < mapMinSize {
		return nil, nil
	}
	mapBudget.Lock()
	defer mapBudget.Unlock()
	if mapBudget.count >= mapMaxCount || mapBudget.bytes+size > mapMaxBytes {
		return nil, nil
	}
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
	mapBudget.count++
	mapBudget.bytes += size
	return b, func() {
		syscall.Munmap(b)
		mapBudget.Lock()
		mapBudget.count--
		mapBudget.bytes -= size
		mapBudget.Unlock()
	}
}

// mappedEntries is the number of entries the process keeps mapped.
func mappedEntries() int64 {
	mapBudget.Lock()
	defer mapBudget.Unlock()
	return mapBudget.count
}
