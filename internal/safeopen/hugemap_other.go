//go:build !linux

package safeopen

// HugeMapping returns nil here: only Linux's transparent huge pages are
// asked for (hugemap_linux.go); the caller maps or reads as before.
func HugeMapping(int) ([]byte, func()) { return nil, nil }
