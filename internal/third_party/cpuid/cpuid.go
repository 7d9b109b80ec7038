// Copyright 2018 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package cpuid reports the x86 CPU features steadysweep and its patched
// dependencies choose assembly by, read with CPUID on first use.
//
// It is the part of golang.org/x/sys/cpu (v0.47.0, cpu_x86.go) they
// used, for one reason (issue 32): x/sys/cpu's package init runs CPUID
// (each a trap to the hypervisor on a virtual machine) and parses
// GODEBUG options, allocating, in every process — `steadysweep
// --version` included — whether anything asks or not. Here nothing runs
// until X86 is first called. The definitions are x/sys/cpu's: AVX and
// AVX2 need the OS to save the YMM state (OSXSAVE, XCR0 bits 1–2),
// AVX-512F the opmask and ZMM state too (XCR0 bits 5–7); SHA (not in
// x/sys/cpu) is internal/cpu's, CPUID.7.0:EBX bit 29.
package cpuid

import (
	"sync"
	"sync/atomic"
)

// Features are the CPU features of one x86 processor; all false
// elsewhere.
type Features struct {
	HasSSE2, HasSSSE3, HasSSE41, HasPOPCNT bool
	HasAVX, HasAVX2, HasAVX512F            bool
	HasBMI1, HasBMI2, HasSHA               bool
}

var features struct {
	known atomic.Bool // f is set
	once  sync.Once
	f     Features
}

// X86 returns the processor's features, detected on the first call. Small
// enough to inline: callers that choose a loop per call (xxh3 per block)
// pay a load and a branch.
func X86() *Features {
	if !features.known.Load() {
		detectOnce()
	}
	return &features.f
}

func detectOnce() {
	features.once.Do(func() {
		features.f = detect()
		features.known.Store(true)
	})
}
