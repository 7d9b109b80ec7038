package endpoints

import (
	"fmt"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// Sample status flags during phase 2.
const (
	stDone     uint8 = 1 << iota // COMPLETE seen: no longer pending
	stReissued                   // uuid completed before this sample was issued
)

// machine is phase 2: the reference's per-sample state machine (detector
// spec §3.3–3.6) applied to events in file order.
type machine struct {
	dst  *contract.Decoded
	sum  *contract.Summary
	file string

	tracking bool
	index    scan.UUIDIndex
	status   []uint8
	// curIssue is the issue time current after retries (issueOf). Until a
	// sample is reissued (reissued), every sample's current and last issue
	// are its first: curIssue is empty and Samples.LastIssueNs is IssueNs
	// itself (capacity cut to its length), not copies of it.
	curIssue []int64
	reissued bool

	// Column capacity planning: sizeHint is the stream's expected length
	// (0 unknown), pos the bytes consumed so far; limit the memory limit
	// (0 none) and err set once the columns would exceed it.
	sizeHint, pos, limit int64
	err                  error

	// untracked holds the uuids issued outside tracking (warmup,
	// accuracy): their late events are not orphans. orphans holds the
	// line of the first event of a uuid not issued yet; anomalies counts
	// the impossible events (anomaly.go).
	untracked map[scan.SampleKey]struct{}
	orphans   map[scan.SampleKey]int64
	anomalies eventAnomalies
}

func newMachine(dst *contract.Decoded, sizeHint int64, index scan.UUIDIndex) *machine {
	m := &machine{dst: dst, sum: &dst.Summary, file: dst.Summary.File, index: index, sizeHint: sizeHint}
	m.index.Reset()
	return m
}

// reserve grows every column for the next sample when it is full: to the
// sample count the consumed fraction of a sized stream projects (plus
// 5 %), so the columns are allocated about once; doubling when the size
// is unknown.
func (m *machine) reserve() {
	s := &m.dst.Samples
	n := s.Len()
	if n < cap(s.IssueNs) && n < cap(m.status) {
		return
	}
	want := 2*n + 256
	// Project only from a fair share of the stream: a log's first blocks
	// (the admission ramp: issues before completions) are denser in
	// samples than the rest, and an early projection overshoots.
	if m.sizeHint > 0 && m.pos >= max(m.sizeHint/32, 4<<20) && m.pos < m.sizeHint {
		want = max(int(float64(n)*float64(m.sizeHint)/float64(m.pos)*1.05)+256, n+n/8+256)
	}
	if m.limit > 0 {
		if int64(n+1)*BytesPerSample > m.limit {
			m.err = fmt.Errorf("%w: %d samples need about %d MiB of columns, over the limit of %d MiB",
				contract.ErrMemoryLimit, n+1, int64(n+1)*BytesPerSample>>20, m.limit>>20)
			return
		}
		want = int(min(int64(want), m.limit/BytesPerSample))
	}
	sl := newColumnSlab(want, m.reissued, m.index.SlotsFor(want))
	growSamples(s, want, sl)
	if m.reissued {
		s.LastIssueNs = carve(sl, s.LastIssueNs, want)
		m.curIssue = carve(sl, m.curIssue, want)
	}
	m.index.EnsureFrom(m.dst.Keys, want, sl.slots)
	d := m.dst
	d.Keys = carve(sl, d.Keys, want)
	d.TextBytes = carve(sl, d.TextBytes, want)
	m.status = carve(sl, m.status, want)
}

// withRoom returns xs with capacity for n elements, in a new array when
// it has less. Unlike slices.Grow (an append of zeros, which clears the
// whole new array) it writes only the elements copied: the pages of the
// room stay untouched, so a projection's margin costs no resident memory
// until samples fill it.
func withRoom[T any](xs []T, n int) []T {
	if cap(xs) >= n {
		return xs
	}
	grown := make([]T, len(xs), n)
	copy(grown, xs)
	return grown
}

// apply applies one event: a tracking window boundary, or an event of a
// sample (identified by its uuid), which the step of its kind handles.
func (m *machine) apply(ev *Event) {
	switch ev.Kind {
	case EvStart:
		m.startTracking(ev)
		return
	case EvStop:
		m.stopTracking(ev)
		return
	}
	if ev.Flags&fUUID == 0 {
		return
	}
	var idx int32
	var known bool
	if ev.Flags&fUUIDExt != 0 {
		idx, known = m.index.Ext[ev.ext]
	} else {
		idx, known = m.index.Lookup(m.dst.Keys, &ev.uuid)
	}
	pending := known && m.status[idx]&stDone == 0
	switch ev.Kind {
	case EvIssued:
		if !m.tracking || ev.Flags&fTS == 0 {
			m.untrackedIssue(ev)
			return
		}
		if pending {
			m.reissue(idx, ev.ts)
		} else {
			m.newSample(known, ev)
			m.issuedAfterOrphan(ev)
		}
	case EvRecvFirst:
		if pending && ev.Flags&fTS != 0 {
			m.firstToken(idx, ev)
		}
		m.checkEvent(known, pending, idx, ev)
	case EvError:
		if pending {
			m.dst.Samples.Failed[idx] = true
			m.ErrorCause(idx, ev.Cause)
		}
	case EvComplete:
		m.checkEvent(known, pending, idx, ev)
		if pending {
			m.complete(idx, ev)
		}
	}
}

// startTracking opens a performance-tracking window.
func (m *machine) startTracking(ev *Event) {
	m.tracking = true
	m.sum.TrackingWindows++
	if m.sum.TrackingStartNs < 0 && ev.Flags&fTS != 0 {
		m.sum.TrackingStartNs = ev.ts
	}
}

// stopTracking closes the tracking window.
func (m *machine) stopTracking(ev *Event) {
	m.tracking = false
	if ev.Flags&fTS != 0 {
		m.sum.TrackingStopNs = ev.ts
	}
}

// reissue records a retry of the pending sample idx issued again at ts.
func (m *machine) reissue(idx int32, ts int64) {
	s := &m.dst.Samples
	if !m.reissued {
		// The first retry: from now on the current and the last issues
		// are columns of their own.
		s.LastIssueNs = append(make([]int64, 0, cap(s.IssueNs)), s.IssueNs...)
		m.curIssue = append(make([]int64, 0, cap(s.IssueNs)), s.IssueNs...)
		m.reissued = true
	}
	m.curIssue[idx] = ts
	s.LastIssueNs[idx] = max(s.LastIssueNs[idx], ts)
	s.LastEventNs[idx] = max(s.LastEventNs[idx], ts)
	s.Retries[idx]++
}

// issueOf is sample idx's issue time current after its retries.
func (m *machine) issueOf(idx int32) int64 {
	if m.reissued {
		return m.curIssue[idx]
	}
	return m.dst.Samples.IssueNs[idx]
}

// newSample appends a sample issued at ev.ts under ev's uuid; known
// reports that the uuid completed before (a reissued uuid).
func (m *machine) newSample(known bool, ev *Event) {
	if m.reserve(); m.err != nil {
		return
	}
	s := &m.dst.Samples
	ts := ev.ts
	n := int32(s.Len())
	st := uint8(0)
	if known {
		st = stReissued
	}
	if ev.Flags&fUUIDExt != 0 {
		if m.index.Ext == nil {
			m.index.Ext = make(map[string]int32)
		}
		if m.dst.Ext == nil {
			m.dst.Ext = make(map[int32]string)
		}
		m.index.Ext[ev.ext] = n
		m.dst.Ext[n] = ev.ext
		m.dst.Keys = append(m.dst.Keys, [16]byte{})
	} else {
		m.dst.Keys = append(m.dst.Keys, ev.uuid)
		m.index.Set(m.dst.Keys, &ev.uuid, n)
	}
	m.status = append(m.status, st)
	s.IssueNs = append(s.IssueNs, ts)
	if m.reissued {
		m.curIssue = append(m.curIssue, ts)
		s.LastIssueNs = append(s.LastIssueNs, ts)
	} else {
		s.LastIssueNs = s.IssueNs[:len(s.IssueNs):len(s.IssueNs)] // an append to it copies
	}
	s.LastEventNs = append(s.LastEventNs, ts)
	s.HasFirstToken = append(s.HasFirstToken, false)
	s.FirstTokenNs = append(s.FirstTokenNs, 0)
	s.TTFTNs = append(s.TTFTNs, 0)
	s.WarmTTFT = append(s.WarmTTFT, false)
	s.FirstTokenSeq = append(s.FirstTokenSeq, -1)
	s.HasComplete = append(s.HasComplete, false)
	s.CompleteNs = append(s.CompleteNs, 0)
	s.LatencyNs = append(s.LatencyNs, 0)
	s.CompleteSeq = append(s.CompleteSeq, -1)
	s.OutTokens = append(s.OutTokens, -1)
	s.FullTokens = append(s.FullTokens, -1)
	s.Failed = append(s.Failed, false)
	s.Retries = append(s.Retries, 0)
	turn := int32(-1)
	if ev.Flags&fTurn != 0 {
		turn = ev.Turn
	}
	contract.SetOptional(&s.ConversationID, int(n)+1, int(n), ev.Conv, "")
	contract.SetOptional(&s.Turn, int(n)+1, int(n), turn, -1)
	m.dst.TextBytes = append(m.dst.TextBytes, -1)
}

// firstToken records the first recv_first of the pending sample idx (a
// later one only extends its last event; without a retry between them it
// is a duplicated event).
func (m *machine) firstToken(idx int32, ev *Event) {
	s := &m.dst.Samples
	ts := ev.ts
	s.LastEventNs[idx] = max(s.LastEventNs[idx], ts)
	if s.HasFirstToken[idx] {
		if s.Retries[idx] == 0 {
			m.anomalies.add(anomalyDuplicate, ev.Line, idx)
		}
		return
	}
	s.HasFirstToken[idx] = true
	s.FirstTokenNs[idx] = ts
	s.TTFTNs[idx] = ts - m.issueOf(idx)
	s.WarmTTFT[idx] = ev.Flags&fWarm != 0
	s.FirstTokenSeq[idx] = ev.Line - 1
}

// ErrorCause records the first specific cause an error event of the
// pending sample idx names.
func (m *machine) ErrorCause(idx int32, c contract.ErrCause) {
	if c.Kind == core.FailNone {
		return
	}
	if m.dst.ErrCauses == nil {
		m.dst.ErrCauses = map[int32]contract.ErrCause{}
	}
	if _, ok := m.dst.ErrCauses[idx]; !ok {
		m.dst.ErrCauses[idx] = c
	}
}

// complete ends the pending sample idx: a timestamped COMPLETE records the
// completion, its latency and its token counts.
func (m *machine) complete(idx int32, ev *Event) {
	s := &m.dst.Samples
	m.status[idx] |= stDone
	if ev.Flags&fTS == 0 {
		return
	}
	ts := ev.ts
	if ev.Flags&FDataNull != 0 {
		s.Failed[idx] = true
	}
	if m.status[idx]&stReissued != 0 {
		m.sum.AddProblem(contract.KindCompletedTwice, ev.Line, "sample_uuid")
	}
	s.HasComplete[idx] = true
	s.CompleteNs[idx] = ts
	s.LatencyNs[idx] = ts - m.issueOf(idx)
	s.CompleteSeq[idx] = ev.Line - 1
	s.LastEventNs[idx] = max(s.LastEventNs[idx], ts)
	s.FullTokens[idx] = int64(ev.Full)
	if s.HasFirstToken[idx] && ev.NBytes > 0 {
		m.dst.TextBytes[idx] = int64(ev.NBytes)
	}
	if s.HasFirstToken[idx] {
		switch ev.Tokens {
		case TokEmpty:
		case TokNotCounted:
			m.dst.UncountedRows = append(m.dst.UncountedRows, idx)
		default:
			s.OutTokens[idx] = int64(ev.Tokens)
		}
	}
}

// finish fills the per-sample tallies of the summary, with the impossible
// events (the orphans left counted).
func (m *machine) finish() {
	m.finishAnomalies()
	s := &m.dst.Samples
	sum := m.sum
	sum.Samples = s.Len()
	agentic, streaming := false, false
	for i := 0; i < s.Len(); i++ {
		if s.HasComplete[i] {
			sum.Completed++
		}
		if s.Failed[i] {
			sum.Failed++
		}
		if m.status[i]&stDone == 0 {
			sum.Pending++
		}
		sum.Retries += int(s.Retries[i])
		agentic = agentic || i < len(s.ConversationID) && s.ConversationID[i] != ""
		streaming = streaming || s.HasFirstToken[i]
	}
	switch {
	case agentic:
		sum.Mode = "agentic"
	case streaming:
		sum.Mode = "streaming"
	default:
		sum.Mode = "non-streaming"
	}
}

// growSamples makes room for n samples in every column of s but
// LastIssueNs (the machine's: see machine.curIssue), new arrays cut from
// sl when there is one (carve).
func growSamples(s *core.Samples, n int, sl *columnSlab) {
	s.IssueNs = carve(sl, s.IssueNs, n)
	s.LastEventNs = carve(sl, s.LastEventNs, n)
	s.HasFirstToken = carve(sl, s.HasFirstToken, n)
	s.FirstTokenNs = carve(sl, s.FirstTokenNs, n)
	s.TTFTNs = carve(sl, s.TTFTNs, n)
	s.WarmTTFT = carve(sl, s.WarmTTFT, n)
	s.FirstTokenSeq = carve(sl, s.FirstTokenSeq, n)
	s.HasComplete = carve(sl, s.HasComplete, n)
	s.CompleteNs = carve(sl, s.CompleteNs, n)
	s.LatencyNs = carve(sl, s.LatencyNs, n)
	s.CompleteSeq = carve(sl, s.CompleteSeq, n)
	s.OutTokens = carve(sl, s.OutTokens, n)
	s.FullTokens = carve(sl, s.FullTokens, n)
	s.Failed = carve(sl, s.Failed, n)
	s.Retries = carve(sl, s.Retries, n)
	if len(s.ConversationID) > 0 { // optional: see setOptional
		s.ConversationID = withRoom(s.ConversationID, n)
	}
	if len(s.Turn) > 0 {
		s.Turn = withRoom(s.Turn, n)
	}
}

// BytesPerSample is the decoder's memory per tracked sample: the
// detector's columns, the uuid, text-length and phase-2 columns and the
// index (what MemoryLimit is checked against).
const BytesPerSample = 11*8 + 4 + 2*4 + 16 + /* columns */ 16 + 8 + 1 + 8 + 8 /* keys, text bytes, status, issue, index */
