//go:build unix

package sweep

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

var (
	errLockHeld        = errors.New("lock held by another process")
	errLockUnsupported = errors.New("flock not supported")
)

type lockFile struct{ f *os.File }

func (l lockFile) close() { l.f.Close() }

// acquireLock opens (creating) path without following a link at it and
// flocks it, without waiting; on success it records this process's pid.
func acquireLock(path string, exclusive bool) (lockFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return lockFile{}, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s is not a regular file", path)
		}
		return lockFile{}, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	switch {
	case err == syscall.EWOULDBLOCK:
		f.Close()
		return lockFile{}, errLockHeld
	case err == syscall.ENOLCK || err == syscall.ENOSYS || err == syscall.EOPNOTSUPP || err == syscall.EINVAL:
		f.Close()
		return lockFile{}, errLockUnsupported
	case err != nil:
		f.Close()
		return lockFile{}, fmt.Errorf("flock %s: %w", path, err)
	}
	if exclusive {
		// Only an exclusive holder may rewrite the record; shared holders
		// leave the last exclusive holder's (or nothing).
		if err := f.Truncate(0); err == nil {
			fmt.Fprintf(f, "pid %d\n", os.Getpid())
		}
	}
	return lockFile{f}, nil
}
