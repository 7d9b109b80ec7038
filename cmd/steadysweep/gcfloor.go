package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// floorGCPercent is the collector's target from the start of a command
// that processes data until its first collection. The runtime's smallest
// heap goal is 4 MiB × GOGC/100, so 400 puts the first collection at a
// 16 MiB heap instead of 4 MiB. A warm analyze (column-cache hit) of the
// 185 MB streamed log peaks at ~12 MiB of heap: at the default it
// collected once, and that one collection cost ~13 ms of its ~67 ms of CPU
// and ~200 of its ~1530 page faults (its mark workers, and the read-only
// pages releaseInitPagesAtFirstGC then unmaps and the rest of the command
// faults back in) for 2.4 MB less peak RSS (23.1 against 20.7 MB; the
// reference peaks at ~36 MiB). bench/RESULTS.md §8.
const floorGCPercent = 400

// gcPhase orders the floor's end against a decode's lower target
// (decodeGC): whichever comes first, a decode's target stays.
var gcPhase struct {
	sync.Mutex
	floor bool // floorGCPercent is set and nothing has replaced it
}

// startGCFloor sets floorGCPercent (unless GOGC says otherwise) until the
// first collection, then the default 100: after it the heap goal follows
// the live heap as usual, so a large command's peak is what it was.
func startGCFloor() {
	if os.Getenv("GOGC") != "" {
		return
	}
	gcPhase.Lock()
	defer gcPhase.Unlock()
	debug.SetGCPercent(floorGCPercent)
	gcPhase.floor = true
	atFirstGC(endGCFloor)
}

// endGCFloor restores the default target if the floor is still the one
// set (a decode may have set its own since).
func endGCFloor() {
	gcPhase.Lock()
	defer gcPhase.Unlock()
	if gcPhase.floor {
		debug.SetGCPercent(100)
		gcPhase.floor = false
	}
}

// setDecodeGCPercent sets a decode's target; the floor, if still on,
// ends with it.
func setDecodeGCPercent(p int) {
	gcPhase.Lock()
	defer gcPhase.Unlock()
	gcPhase.floor = false
	debug.SetGCPercent(p)
}
