package main

// A goroutine starts on a 2 KiB stack and doubles it each time a call
// does not fit, copying the whole stack: the runtime walks every frame on
// it and reads each one's stack map from the binary's pclntab, pages a
// short command touches for nothing else (no collection happens in a warm
// analyze), each a first-touch fault (~16 µs on the benchmarks' virtual
// machines). A warm analyze's main goroutine grew 4 KiB → 32 KiB in three
// copies taken deep in flag registration and the sidecar decoders; its
// diagnostics goroutine 2 → 8 KiB in two, deep in the trend tests. The
// growStack functions below take the size in one copy while the stack
// is two frames deep.

// stackIndex is read by the growStack functions so that their array (and
// with it their frame) is kept; it is always 0.
var stackIndex int

// growStack32K grows the calling goroutine's stack to 32 KiB in one copy
// (a 24 KiB frame: the runtime doubles until the frame fits below its
// guard): the size the main goroutine of a warm analyze reaches.
//
//go:noinline
func growStack32K() byte {
	var frame [24 << 10]byte
	return frame[stackIndex]
}

// growStack8K is growStack32K for 8 KiB: the size the diagnostics
// goroutine of an analyze reaches.
//
//go:noinline
func growStack8K() byte {
	var frame [6 << 10]byte
	return frame[stackIndex]
}
