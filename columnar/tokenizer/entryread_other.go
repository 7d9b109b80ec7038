//go:build !linux

package tokenizer

import "os"

// mapFile does not map files here: readEntry reads them.
func mapFile(*os.File, int64) ([]byte, bool) { return nil, false }
