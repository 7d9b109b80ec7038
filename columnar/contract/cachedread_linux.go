//go:build linux && (amd64 || arm64)

package contract

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// rwfNoWait is preadv2's RWF_NOWAIT (Linux 4.14): a read that would wait
// for the disk returns EAGAIN instead.
const rwfNoWait = 0x8

// cachedReader reads a regular file by preadv2(RWF_NOWAIT) as a raw
// system call (the goroutine keeps its P), falling back to an ordinary
// read (which may block, and hands the P off) for bytes not in the page
// cache and on kernels or file systems without RWF_NOWAIT.
//
// Why: the decoder's reader goroutine reads the log in 256 KiB blocks
// while the workers decode on every P. An ordinary read of a cached block
// is a copy of ~60 µs: long enough for sysmon to retake the P from the
// "blocked" system call, hand it to another thread, and for the reader to
// queue for a P again when the copy ends. That was a futex wake, a thread
// stop and a context switch per block, and sysmon polling every 20 µs for
// the whole decode (it backs off only when it finds nothing to retake) —
// 8–10% of a cold analyze's CPU on 2 cores. A read that cannot block
// needs none of it.
type cachedReader struct {
	f      *os.File
	fd     uintptr
	noWait bool // RWF_NOWAIT is worth trying (unset on EOPNOTSUPP, ENOSYS, EINVAL)
}

// cachedFileReader is f read through a cachedReader when f is a regular
// file, else f itself.
func cachedFileReader(f *os.File, st os.FileInfo) io.Reader {
	if st == nil || !st.Mode().IsRegular() {
		return f
	}
	return &cachedReader{f: f, fd: f.Fd(), noWait: true}
}

func (r *cachedReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if r.noWait {
		iov := syscall.Iovec{Base: &p[0]}
		iov.SetLen(len(p))
		// Offset −1: the file's own offset, used and advanced, so the
		// fallback read goes on from there.
		n, _, errno := syscall.RawSyscall6(sysPreadv2, r.fd, uintptr(unsafe.Pointer(&iov)), 1,
			^uintptr(0), 0, rwfNoWait)
		switch {
		case errno == 0 && n > 0:
			return int(n), nil
		case errno == 0:
			// 0 at the end of the file, or when nothing is cached at
			// all on some kernels: the ordinary read says which.
		case errno == syscall.EAGAIN, errno == syscall.EINTR:
			// Not cached: the ordinary read waits for it.
		default:
			r.noWait = false
		}
	}
	return r.f.Read(p)
}
