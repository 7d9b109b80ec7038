// Copyright 2018 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build amd64 && gc

package cpuid

import "runtime"

// cpuid and xgetbv are in cpuid_amd64.s (x/sys/cpu's cpu_gc_x86.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

func isSet(hwc uint32, bit uint) bool { return hwc&(1<<bit) != 0 }

// detect is x/sys/cpu's archInit for the features Features has.
func detect() (f Features) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 1 {
		return f
	}
	_, _, ecx1, edx1 := cpuid(1, 0)
	f.HasSSE2 = isSet(edx1, 26)
	f.HasSSSE3 = isSet(ecx1, 9)
	f.HasSSE41 = isSet(ecx1, 19)
	f.HasPOPCNT = isSet(ecx1, 23)
	var osSupportsAVX, osSupportsAVX512 bool
	// For XGETBV, OSXSAVE bit is required and sufficient.
	if isSet(ecx1, 27) {
		eax, _ := xgetbv()
		// Check if XMM and YMM registers have OS support.
		osSupportsAVX = isSet(eax, 1) && isSet(eax, 2)
		// Check if OPMASK and ZMM registers have OS support. On darwin
		// x/sys/cpu asks the kernel (it enables them lazily); steadysweep
		// does not, and takes AVX-512 as absent there.
		osSupportsAVX512 = runtime.GOOS != "darwin" && osSupportsAVX && isSet(eax, 5) && isSet(eax, 6) && isSet(eax, 7)
	}
	f.HasAVX = isSet(ecx1, 28) && osSupportsAVX
	if maxID < 7 {
		return f
	}
	_, ebx7, _, _ := cpuid(7, 0)
	f.HasBMI1 = isSet(ebx7, 3)
	f.HasAVX2 = isSet(ebx7, 5) && osSupportsAVX
	f.HasBMI2 = isSet(ebx7, 8)
	f.HasAVX512F = isSet(ebx7, 16) && osSupportsAVX512
	f.HasSHA = isSet(ebx7, 29)
	return f
}
