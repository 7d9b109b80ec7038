//go:build !linux

package main

// hugeFloats is core.Run.Floats: make where transparent huge pages are
// not available.
func hugeFloats(n int) []float64 { return make([]float64, 0, n) }
