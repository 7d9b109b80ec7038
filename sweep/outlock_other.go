//go:build !unix

package sweep

import "errors"

var (
	errLockHeld        = errors.New("lock held by another process")
	errLockUnsupported = errors.New("flock not supported")
)

type lockFile struct{}

func (lockFile) close() {}

// acquireLock: no flock on this platform; sweeps run unlocked.
func acquireLock(string, bool) (lockFile, error) { return lockFile{}, errLockUnsupported }
