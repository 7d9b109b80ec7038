package tokenizer

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only, its pages populated
// at once (one system call instead of a fault per 4 KiB page touched);
// false when it cannot (an empty file, a filesystem without mmap).
func mapFile(f *os.File, size int64) ([]byte, bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, false
	}
	return data, true
}
