//go:build arm64

package xxh3

import "unsafe"

func hasAVX2() bool   { return false }
func hasSSE2() bool   { return false }
func hasAVX512() bool { return false }
func hasNEON() bool   { return true }

//go:noescape
func accumNEON(acc *[8]u64, data, key unsafe.Pointer, len u64)

//go:noescape
func accumBlockNEON(acc *[8]u64, data, key unsafe.Pointer)
func accumAVX2(acc *[8]u64, data, key unsafe.Pointer, len u64)   { panic("unreachable") }
func accumSSE(acc *[8]u64, data, key unsafe.Pointer, len u64)    { panic("unreachable") }
func accumBlockAVX2(acc *[8]u64, data, key unsafe.Pointer)       { panic("unreachable") }
func accumBlockSSE(acc *[8]u64, data, key unsafe.Pointer)        { panic("unreachable") }
func accumAVX512(acc *[8]u64, data, key unsafe.Pointer, len u64) { panic("unreachable") }
func accumBlockAVX512(acc *[8]u64, data, key unsafe.Pointer)     { panic("unreachable") }
