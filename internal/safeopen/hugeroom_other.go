//go:build !linux

package safeopen

// HugeRoom returns an empty slice with capacity for n values
// (hugeroom_linux.go advises huge pages for large ones).
func HugeRoom[T any](n int) []T { return make([]T, 0, n) }
