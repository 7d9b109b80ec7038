package xxh3

import (
	"unsafe"

	"github.com/steadysweep/cpuid"
)

// steadysweep: the features come from github.com/steadysweep/cpuid
// (internal/third_party/cpuid: golang.org/x/sys/cpu's detection without
// its init's GODEBUG parsing and allocations) instead of
// github.com/klauspost/cpuid/v2, whose package init runs ~50 CPUID
// instructions, each a trap to the hypervisor on a VM (~1 ms of every
// process start). Its flags include the OS support check (XGETBV) as
// cpuid's do. Read at each use (cpuid detects once, on the first), not
// into variables at package init, which every process would run.
func hasAVX2() bool   { return cpuid.X86().HasAVX2 }
func hasSSE2() bool   { return cpuid.X86().HasSSE2 } // Always true on amd64
func hasAVX512() bool { return cpuid.X86().HasAVX512F }
func hasNEON() bool   { return false }

//go:noescape
func accumAVX2(acc *[8]u64, data, key unsafe.Pointer, len u64)

//go:noescape
func accumAVX512(acc *[8]u64, data, key unsafe.Pointer, len u64)

//go:noescape
func accumSSE(acc *[8]u64, data, key unsafe.Pointer, len u64)

//go:noescape
func accumBlockAVX2(acc *[8]u64, data, key unsafe.Pointer)

//go:noescape
func accumBlockAVX512(acc *[8]u64, data, key unsafe.Pointer)

//go:noescape
func accumBlockSSE(acc *[8]u64, data, key unsafe.Pointer)

func accumNEON(acc *[8]u64, data, key unsafe.Pointer, len u64) { panic("unreachable") }
func accumBlockNEON(acc *[8]u64, data, key unsafe.Pointer)     { panic("unreachable") }
