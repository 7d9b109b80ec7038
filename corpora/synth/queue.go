package synth

import "container/heap"

// eventKind names what happens at a simulated instant.
type eventKind uint8

const (
	evIssue          eventKind = iota // a client issues a request (ISSUED line)
	evArrive                          // the request reaches the server
	evPrefillDone                     // prefill finished: first token, decode starts
	evRecvFirst                       // the client receives the first chunk
	evServerFailed                    // the server answers an HTTP error
	evClientDone                      // the client receives the final result (COMPLETE line)
	evDuplicateIssue                  // a retried ISSUED line for an in-flight request
	evDrainTimeout                    // settings.drain.performance_timeout_s elapsed
	evMaxDuration                     // settings.runtime.max_duration_ms elapsed
	evStopTracking                    // publish session.stop_performance_tracking
	evEnd                             // publish session.ended and stop
)

// timedEvent is one scheduled event; seq breaks ties so equal times pop in
// scheduling order, which keeps the simulation deterministic.
type timedEvent struct {
	at   float64
	seq  uint64
	kind eventKind
	req  int32
}

type eventHeap []timedEvent

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(timedEvent)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// decodeEntry is a decoding request that finishes when the virtual work clock
// reaches workEnd.
type decodeEntry struct {
	workEnd float64
	seq     uint64
	req     int32
}

type decodeHeap []decodeEntry

func (h decodeHeap) Len() int { return len(h) }
func (h decodeHeap) Less(i, j int) bool {
	if h[i].workEnd != h[j].workEnd {
		return h[i].workEnd < h[j].workEnd
	}
	return h[i].seq < h[j].seq
}
func (h decodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *decodeHeap) Push(x any)   { *h = append(*h, x.(decodeEntry)) }
func (h *decodeHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

var (
	_ heap.Interface = (*eventHeap)(nil)
	_ heap.Interface = (*decodeHeap)(nil)
)
