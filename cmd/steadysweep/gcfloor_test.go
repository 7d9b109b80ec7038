package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcPercent is the collector's current target, read from the runtime.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// untilGCPercent collects until the target is want (the floor ends in a
// cleanup, which runs on its own goroutine after a collection) or the
// bound passes; it returns the last target seen.
func untilGCPercent(want int) int {
	deadline := time.Now().Add(30 * time.Second)
	for gcPercent() != want && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	return gcPercent()
}

func TestGCFloorEndsAtFirstCollection(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the floor leaves the user's target alone")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	startGCFloor()
	if got := gcPercent(); got != floorGCPercent {
		t.Fatalf("target after startGCFloor = %d, want %d", got, floorGCPercent)
	}
	if got := untilGCPercent(100); got != 100 {
		t.Fatalf("target after a collection = %d, want the default 100", got)
	}
}

// memoryLimit is the runtime's current memory limit (SetMemoryLimit with
// a negative value only reads it).
func memoryLimit() int64 { return debug.SetMemoryLimit(-1) }

func TestGCFloorKeepsDecodeTarget(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: neither the floor nor decodeGC changes the target")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	startGCFloor()
	decodeGC()
	if got := gcPercent(); got != -1 && got != 0 {
		// /gc/gogc:percent reads GOGC=off as 0 on some releases.
		t.Fatalf("target after decodeGC = %d, want off", got)
	}
	if got := memoryLimit(); got < loadFloor {
		t.Fatalf("memory limit after decodeGC = %d, want at least loadFloor %d", got, loadFloor)
	}
	// The floor's cleanup runs after this collection and must not raise
	// the target; a live heap above the floor raises the limit over it by
	// loadGCPercent (the cleanup re-armed at each collection).
	live := make([]byte, 3*loadFloor)
	for i := range live {
		live[i] = byte(i)
	}
	want := int64(len(live)) + int64(len(live))*loadGCPercent/100
	deadline := time.Now().Add(30 * time.Second)
	for memoryLimit() < want && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := memoryLimit(); got < want {
		t.Fatalf("memory limit with %d bytes live = %d, want at least %d", len(live), got, want)
	}
	if got := gcPercent(); got != -1 && got != 0 {
		t.Fatalf("target after collections = %d, want the decode's (off)", got)
	}
	runtime.KeepAlive(live)
}
