//go:build unix

package cache

import (
	"io/fs"
	"os"
	"syscall"
)

// privateTo reports whether the file or directory fi can be written by
// no one but uid: owned by uid, neither group- nor other-writable. A
// cache directory that is not (a team's, on a common filesystem) may hold
// identity files and entries planted by its other writers.
func privateTo(fi fs.FileInfo, uid int) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	return int(st.Uid) == uid && fi.Mode().Perm()&0o022 == 0
}

// currentUID is the user whose cache a private one is.
func currentUID() int { return os.Getuid() }
