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

// key orders the events: by time, then by scheduling order.
func (e timedEvent) key() (float64, uint64) { return e.at, e.seq }

// decodeEntry is a decoding request that finishes when the virtual work clock
// reaches workEnd.
type decodeEntry struct {
	workEnd float64
	seq     uint64
	req     int32
}

// key orders the decodes: by finishing work, then by scheduling order.
func (d decodeEntry) key() (float64, uint64) { return d.workEnd, d.seq }

// seqHeap is a min-heap of entries by key: the float first, ties broken by
// the sequence number, so equal keys pop in scheduling order.
type seqHeap[T interface{ key() (float64, uint64) }] []T

type (
	eventHeap  = seqHeap[timedEvent]
	decodeHeap = seqHeap[decodeEntry]
)

func (h seqHeap[T]) Len() int { return len(h) }
func (h seqHeap[T]) Less(i, j int) bool {
	ai, as := h[i].key()
	bi, bs := h[j].key()
	if ai != bi {
		return ai < bi
	}
	return as < bs
}
func (h seqHeap[T]) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *seqHeap[T]) Push(x any)   { *h = append(*h, x.(T)) }
func (h *seqHeap[T]) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

var (
	_ heap.Interface = (*eventHeap)(nil)
	_ heap.Interface = (*decodeHeap)(nil)
)
