// Copyright 2017 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build amd64 && !purego

package sha256

import "sync/atomic"

//go:noescape
func blockAVX2(dig *Digest, p []byte)

//go:noescape
func blockSHANI(dig *Digest, p []byte)

// Implementations: 0 until the first block reads the CPU's features.
const (
	implUnknown uint32 = iota
	implGeneric
	implAVX2
	implSHANI
)

var impl atomic.Uint32

func block(dig *Digest, p []byte) {
	m := impl.Load()
	if m == implUnknown {
		m = detect()
		impl.Store(m)
	}
	switch m {
	case implSHANI:
		blockSHANI(dig, p)
	case implAVX2:
		blockAVX2(dig, p)
	default:
		blockGeneric(dig, p)
	}
}

// detect chooses as crypto/internal/fips140/sha256 does:
//
//	useAVX2 = X86HasAVX && X86HasAVX2 && X86HasBMI2
//	useSHANI = X86HasAVX && X86HasSHA && X86HasSSE41 && X86HasSSSE3
//
// with internal/cpu's definitions: AVX and AVX2 need the OS to save the
// YMM state (OSXSAVE, then XCR0 bits 1 and 2).
func detect() uint32 {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return implGeneric
	}
	_, _, ecx1, _ := cpuid(1, 0)
	osYMM := false
	if ecx1&(1<<27) != 0 { // OSXSAVE
		xcr0, _ := xgetbv()
		osYMM = xcr0&6 == 6
	}
	hasAVX := osYMM && ecx1&(1<<28) != 0
	hasSSSE3 := ecx1&(1<<9) != 0
	hasSSE41 := ecx1&(1<<19) != 0
	_, ebx7, _, _ := cpuid(7, 0)
	hasAVX2 := osYMM && ebx7&(1<<5) != 0
	hasBMI2 := ebx7&(1<<8) != 0
	hasSHA := ebx7&(1<<29) != 0
	switch {
	case hasAVX && hasSHA && hasSSE41 && hasSSSE3:
		return implSHANI
	case hasAVX && hasAVX2 && hasBMI2:
		return implAVX2
	}
	return implGeneric
}

// cpuid and xgetbv are golang.org/x/sys/cpu's (cpuid_amd64.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)
