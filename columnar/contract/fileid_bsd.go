//go:build darwin || freebsd || netbsd || openbsd

package contract

import (
	"io/fs"
	"syscall"
)

// FileIdentity: see fileid_linux.go.
func FileIdentity(fi fs.FileInfo) [5]int64 {
	id := [5]int64{0, 0, fi.Size(), fi.ModTime().UnixNano(), 0}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id[0], id[1], id[4] = int64(st.Dev), int64(st.Ino), st.Ctimespec.Nano()
	}
	return id
}
