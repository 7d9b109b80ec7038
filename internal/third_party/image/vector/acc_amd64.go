// Copyright 2016 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !appengine && gc && !noasm

package vector

import "sync"

func haveSSE4_1() bool

// steadysweep: asked on the first accumulation, not at package init
// (upstream: var haveAccumulateSIMD = haveSSE4_1()): CPUID traps to the
// hypervisor on a virtual machine, and every steadysweep process paid it,
// plots or not.
var accumulateSIMD struct {
	once sync.Once
	ok   bool
}

func haveAccumulateSIMD() bool {
	accumulateSIMD.once.Do(func() { accumulateSIMD.ok = haveSSE4_1() })
	return accumulateSIMD.ok
}

//go:noescape
func fixedAccumulateOpOverSIMD(dst []uint8, src []uint32)

//go:noescape
func fixedAccumulateOpSrcSIMD(dst []uint8, src []uint32)

//go:noescape
func fixedAccumulateMaskSIMD(buf []uint32)

//go:noescape
func floatingAccumulateOpOverSIMD(dst []uint8, src []float32)

//go:noescape
func floatingAccumulateOpSrcSIMD(dst []uint8, src []float32)

//go:noescape
func floatingAccumulateMaskSIMD(dst []uint32, src []float32)
