//go:build !linux

package safeopen

// bigBuffer returns an empty buffer of capacity n (bigbuffer_linux.go
// advises huge pages for large ones).
func bigBuffer(n int) []byte { return make([]byte, 0, n) }
