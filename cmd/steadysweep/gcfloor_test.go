package main

import (
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

func TestGCFloorKeepsDecodeTarget(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: neither the floor nor decodeGC changes the target")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	startGCFloor()
	decodeGC()
	if got := gcPercent(); got != loadGCPercent {
		t.Fatalf("target after decodeGC = %d, want %d", got, loadGCPercent)
	}
	// The floor's cleanup runs after this collection and must not raise it.
	for range 3 {
		runtime.GC()
	}
	time.Sleep(10 * time.Millisecond)
	runtime.GC()
	if got := gcPercent(); got != loadGCPercent {
		t.Fatalf("target after collections = %d, want the decode's %d", got, loadGCPercent)
	}
}
