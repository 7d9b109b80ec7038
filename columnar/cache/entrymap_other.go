//go:build !(linux || darwin)

package cache

import "os"

// mapEntry maps nothing here: entries are read (cache.go).
func mapEntry(*os.File, int64) ([]byte, func()) { return nil, nil }

// mappedEntries is the number of entries the process keeps mapped: none.
func mappedEntries() int64 { return 0 }
