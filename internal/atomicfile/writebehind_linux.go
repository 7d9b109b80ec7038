//go:build linux && (amd64 || arm64)

package atomicfile

import (
	"os"
	"syscall"
)

// startWriteback asks the kernel to start writing f's bytes [off,
// off+n) to disk now, without waiting (sync_file_range with
// SYNC_FILE_RANGE_WRITE), so that Commit's fsync waits only for the
// last of a large file instead of all of it. A failure is ignored: the
// fsync writes whatever is left and reports the errors.
func startWriteback(f *os.File, off, n int64) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		syscall.SyncFileRange(int(fd), off, n, _SYNC_FILE_RANGE_WRITE)
	})
}

// _SYNC_FILE_RANGE_WRITE is linux's SYNC_FILE_RANGE_WRITE (not in package
// syscall).
const _SYNC_FILE_RANGE_WRITE = 2
