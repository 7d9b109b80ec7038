//go:build !unix

package cache

import "io/fs"

// privateTo: where permissions carry no owner and mode bits (Windows),
// the cache directory is taken to be the user's own, as it was before
// shared directories were checked (README, "Cache").
func privateTo(fs.FileInfo, int) bool { return true }

func currentUID() int { return -1 }
