package safeopen

import (
	"bytes"
	"sync"
	"syscall"
	"unsafe"
)

// HugeMapping returns n bytes of zeroed anonymous memory outside the Go
// heap, starting on a 2 MiB boundary and advised to transparent huge
// pages, and the function that unmaps it; nil when THP is off here
// ("never", or not built into the kernel) or the mapping fails. It is for
// large arrays filled whole at once that the process keeps (a cache
// entry read for good): one fault per 2 MiB where 4 KiB pages fault 512
// times (~35 µs each, a shadow-paged fault, on the virtual machines the
// benchmarks run on), and, unlike HugeRoom's, the array neither raises
// the heap's collection target nor loses its advice to pages the heap
// had already touched. Without THP, 4 KiB faults of fresh memory cost
// far more than a file's page-cache pages mapped or the heap's reused
// ones, so the caller does that instead.
func HugeMapping(n int) ([]byte, func()) {
	if n <= 0 || !thpAdvisable() {
		return nil, nil
	}
	size := (n + hugePage - 1) &^ (hugePage - 1)
	m, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	b := m[(p+hugePage-1)&^(hugePage-1)-p:][:size]
	if syscall.Madvise(b, syscall.MADV_HUGEPAGE) != nil {
		syscall.Munmap(m)
		return nil, nil
	}
	return b[:n:n], func() { syscall.Munmap(m) }
}

// thpAdvisable reports whether madvise(MADV_HUGEPAGE) gets huge pages:
// the kernel's THP mode is "always" or "madvise". Read once a process;
// a sync.Once in a zero-valued variable, as sync.OnceValue at package
// level would be built by a package init in every process (issue 32).
//
// The file is read into a small array of its own, not by os.ReadFile,
// which sizes its buffer by the file's stat (4096 for a sysfs file): a
// fresh 4.5 kB object (and an os.File, registered with the poller) that
// a warm analyze faulted in for a 23-byte line.
func thpAdvisable() bool {
	thp.once.Do(func() {
		fd, err := syscall.Open("/sys/kernel/mm/transparent_hugepage/enabled", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return
		}
		defer syscall.Close(fd)
		var buf [128]byte // "always [madvise] never\n"
		n, err := syscall.Read(fd, buf[:])
		for err == syscall.EINTR {
			n, err = syscall.Read(fd, buf[:])
		}
		b := buf[:max(n, 0)]
		thp.advisable = err == nil && (bytes.Contains(b, []byte("[always]")) || bytes.Contains(b, []byte("[madvise]")))
	})
	return thp.advisable
}

var thp struct {
	once      sync.Once
	advisable bool
}
