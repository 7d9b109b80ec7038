package contract

import (
	"io/fs"
	"syscall"
)

// FileIdentity returns what identifies fi's content without reading it:
// device, inode, size, mtime and ctime. The ctime changes on every write
// and cannot be set back by a user (touch -d restores mtime only), so an
// in-place edit changes the identity even at equal size and mtime.
func FileIdentity(fi fs.FileInfo) [5]int64 {
	id := [5]int64{0, 0, fi.Size(), fi.ModTime().UnixNano(), 0}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id[0], id[1], id[4] = int64(st.Dev), int64(st.Ino), st.Ctim.Nano()
	}
	return id
}
