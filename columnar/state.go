package columnar

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// sampleKey identifies a sample_uuid: packed hex, or the raw string in
// ext (a map key for readers that keep per-uuid state of their own).
type sampleKey struct {
	hex [16]byte
	ext string
}

// String renders the key as the uuid string of the log.
func (k sampleKey) String() string {
	if k.ext != "" {
		return k.ext
	}
	return unpackHex(k.hex)
}

// uuidIndex maps a uuid of 32 lowercase hex digits (what the writer
// emits), packed to 16 bytes in a keys column, to its position in that
// column: an open-addressing table probed linearly by a seeded hash,
// whose 8-byte slots hold a 32-bit fingerprint of the hash beside the
// position, so a probe reads the keys column only on a likely match. At
// most three quarters full; sized ahead of the columns. The decoder keeps
// the uuids that are not packed hex in ext.
type uuidIndex struct {
	seed0, seed1 uint64
	slots        []uint64 // fingerprint<<32 | position+1; 0 is empty
	used         int
	ext          map[string]int32
	// hugePages advises the slots to huge pages (safeopen.HugeRoom): for
	// sample_idx_map.json's table, filled whole, not the decoder's, sized
	// from a projection that may be far above the samples it gets.
	hugePages bool
}

func (x *uuidIndex) reset() {
	if x.seed0 == 0 {
		x.seed0, x.seed1 = rand.Uint64()|1, rand.Uint64()
	}
	clear(x.slots)
	x.used = 0
	x.ext = nil
}

func (x *uuidIndex) hash(k *[16]byte) uint64 {
	hi, lo := bits.Mul64(binary.LittleEndian.Uint64(k[:8])^x.seed0, binary.LittleEndian.Uint64(k[8:])^x.seed1)
	return hi ^ lo
}

// locate returns the slot of k: holding it (found, with its position), or
// the empty slot it would take.
func (x *uuidIndex) locate(keys [][16]byte, k *[16]byte) (slot int, pos int32, found bool) {
	return x.locateHashed(keys, k, x.hash(k))
}

// locateHashed is locate with k's hash h.
func (x *uuidIndex) locateHashed(keys [][16]byte, k *[16]byte, h uint64) (slot int, pos int32, found bool) {
	fp, mask := h>>32, len(x.slots)-1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			return i, 0, false
		}
		if v>>32 == fp && keys[uint32(v)-1] == *k {
			return i, int32(uint32(v) - 1), true
		}
	}
}

func (x *uuidIndex) lookup(keys [][16]byte, k *[16]byte) (int32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	_, pos, found := x.locate(keys, k)
	return pos, found
}

// upsert returns k's position when it is in the table; else it enters k
// at position newPos (where the caller puts it in keys before the next
// call) and returns that.
func (x *uuidIndex) upsert(keys [][16]byte, k *[16]byte, newPos int32) (int32, bool) {
	x.ensure(keys, x.used+1)
	slot, pos, found := x.locate(keys, k)
	if found {
		return pos, true
	}
	x.slots[slot] = x.hash(k)>>32<<32 | uint64(uint32(newPos)+1)
	x.used++
	return newPos, false
}

// set points k at position pos, whose key keys[pos] is k.
func (x *uuidIndex) set(keys [][16]byte, k *[16]byte, pos int32) {
	x.ensure(keys, x.used+1)
	slot, _, _ := x.locate(keys, k)
	if x.slots[slot] == 0 {
		x.used++
	}
	x.slots[slot] = x.hash(k)>>32<<32 | uint64(uint32(pos)+1)
}

// ensure makes room for n keys, rehashing from the keys column.
func (x *uuidIndex) ensure(keys [][16]byte, n int) {
	if 4*n <= 3*len(x.slots) {
		return
	}
	size := max(1024, len(x.slots))
	for 4*n > 3*size {
		size *= 2
	}
	old := x.slots
	if x.hugePages {
		x.slots = safeopen.HugeRoom[uint64](size)[:size]
	} else {
		x.slots = make([]uint64, size)
	}
	mask := size - 1
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := int(x.hash(&keys[uint32(v)-1])) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = v
	}
}

// Sample status flags during phase 2.
const (
	stDone     uint8 = 1 << iota // COMPLETE seen: no longer pending
	stReissued                   // uuid completed before this sample was issued
)

// machine is phase 2: the reference's per-sample state machine (detector
// spec §3.3–3.6) applied to events in file order.
type machine struct {
	dst  *Decoded
	sum  *Summary
	file string

	tracking bool
	index    uuidIndex
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
	untracked map[sampleKey]struct{}
	orphans   map[sampleKey]int64
	anomalies eventAnomalies
}

func newMachine(dst *Decoded, sizeHint int64, index uuidIndex) *machine {
	m := &machine{dst: dst, sum: &dst.Summary, file: dst.Summary.File, index: index, sizeHint: sizeHint}
	m.index.reset()
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
		if int64(n+1)*bytesPerSample > m.limit {
			m.err = fmt.Errorf("%w: %d samples need about %d MiB of columns, over the limit of %d MiB",
				ErrMemoryLimit, n+1, int64(n+1)*bytesPerSample>>20, m.limit>>20)
			return
		}
		want = int(min(int64(want), m.limit/bytesPerSample))
	}
	growSamples(s, want)
	if m.reissued {
		s.LastIssueNs = withRoom(s.LastIssueNs, want)
		m.curIssue = withRoom(m.curIssue, want)
	}
	m.index.ensure(m.dst.keys, want)
	d := m.dst
	d.keys = withRoom(d.keys, want)
	d.TextBytes = withRoom(d.TextBytes, want)
	m.status = withRoom(m.status, want)
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
func (m *machine) apply(ev *event) {
	switch ev.kind {
	case evStart:
		m.startTracking(ev)
		return
	case evStop:
		m.stopTracking(ev)
		return
	}
	if ev.flags&fUUID == 0 {
		return
	}
	var idx int32
	var known bool
	if ev.flags&fUUIDExt != 0 {
		idx, known = m.index.ext[ev.ext]
	} else {
		idx, known = m.index.lookup(m.dst.keys, &ev.uuid)
	}
	pending := known && m.status[idx]&stDone == 0
	switch ev.kind {
	case evIssued:
		if !m.tracking || ev.flags&fTS == 0 {
			m.untrackedIssue(ev)
			return
		}
		if pending {
			m.reissue(idx, ev.ts)
		} else {
			m.newSample(known, ev)
			m.issuedAfterOrphan(ev)
		}
	case evRecvFirst:
		if pending && ev.flags&fTS != 0 {
			m.firstToken(idx, ev)
		}
		m.checkEvent(known, pending, idx, ev)
	case evError:
		if pending {
			m.dst.Samples.Failed[idx] = true
			m.errorCause(idx, ev.cause)
		}
	case evComplete:
		m.checkEvent(known, pending, idx, ev)
		if pending {
			m.complete(idx, ev)
		}
	}
}

// startTracking opens a performance-tracking window.
func (m *machine) startTracking(ev *event) {
	m.tracking = true
	m.sum.TrackingWindows++
	if m.sum.TrackingStartNs < 0 && ev.flags&fTS != 0 {
		m.sum.TrackingStartNs = ev.ts
	}
}

// stopTracking closes the tracking window.
func (m *machine) stopTracking(ev *event) {
	m.tracking = false
	if ev.flags&fTS != 0 {
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
func (m *machine) newSample(known bool, ev *event) {
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
	if ev.flags&fUUIDExt != 0 {
		if m.index.ext == nil {
			m.index.ext = make(map[string]int32)
		}
		if m.dst.ext == nil {
			m.dst.ext = make(map[int32]string)
		}
		m.index.ext[ev.ext] = n
		m.dst.ext[n] = ev.ext
		m.dst.keys = append(m.dst.keys, [16]byte{})
	} else {
		m.dst.keys = append(m.dst.keys, ev.uuid)
		m.index.set(m.dst.keys, &ev.uuid, n)
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
	if ev.flags&fTurn != 0 {
		turn = ev.turn
	}
	setOptional(&s.ConversationID, int(n)+1, int(n), ev.conv, "")
	setOptional(&s.Turn, int(n)+1, int(n), turn, -1)
	m.dst.TextBytes = append(m.dst.TextBytes, -1)
}

// firstToken records the first recv_first of the pending sample idx (a
// later one only extends its last event; without a retry between them it
// is a duplicated event).
func (m *machine) firstToken(idx int32, ev *event) {
	s := &m.dst.Samples
	ts := ev.ts
	s.LastEventNs[idx] = max(s.LastEventNs[idx], ts)
	if s.HasFirstToken[idx] {
		if s.Retries[idx] == 0 {
			m.anomalies.add(anomalyDuplicate, ev.line, idx)
		}
		return
	}
	s.HasFirstToken[idx] = true
	s.FirstTokenNs[idx] = ts
	s.TTFTNs[idx] = ts - m.issueOf(idx)
	s.WarmTTFT[idx] = ev.flags&fWarm != 0
	s.FirstTokenSeq[idx] = ev.line - 1
}

// errorCause records the first specific cause an error event of the
// pending sample idx names.
func (m *machine) errorCause(idx int32, c errCause) {
	if c.kind == core.FailNone {
		return
	}
	if m.dst.errCauses == nil {
		m.dst.errCauses = map[int32]errCause{}
	}
	if _, ok := m.dst.errCauses[idx]; !ok {
		m.dst.errCauses[idx] = c
	}
}

// complete ends the pending sample idx: a timestamped COMPLETE records the
// completion, its latency and its token counts.
func (m *machine) complete(idx int32, ev *event) {
	s := &m.dst.Samples
	m.status[idx] |= stDone
	if ev.flags&fTS == 0 {
		return
	}
	ts := ev.ts
	if ev.flags&fDataNull != 0 {
		s.Failed[idx] = true
	}
	if m.status[idx]&stReissued != 0 {
		m.sum.addProblem(KindCompletedTwice, ev.line, "sample_uuid")
	}
	s.HasComplete[idx] = true
	s.CompleteNs[idx] = ts
	s.LatencyNs[idx] = ts - m.issueOf(idx)
	s.CompleteSeq[idx] = ev.line - 1
	s.LastEventNs[idx] = max(s.LastEventNs[idx], ts)
	s.FullTokens[idx] = int64(ev.full)
	if s.HasFirstToken[idx] && ev.nbytes > 0 {
		m.dst.TextBytes[idx] = int64(ev.nbytes)
	}
	if s.HasFirstToken[idx] {
		switch ev.tokens {
		case tokEmpty:
		case tokNotCounted:
			m.dst.uncounted = append(m.dst.uncounted, idx)
		default:
			s.OutTokens[idx] = int64(ev.tokens)
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

// emptySamples resets every column of s to length 0, keeping capacity.
func emptySamples(s *core.Samples) {
	*s = core.Samples{
		IssueNs: s.IssueNs[:0], LastIssueNs: s.LastIssueNs[:0], LastEventNs: s.LastEventNs[:0],
		HasFirstToken: s.HasFirstToken[:0], FirstTokenNs: s.FirstTokenNs[:0], TTFTNs: s.TTFTNs[:0],
		WarmTTFT: s.WarmTTFT[:0], FirstTokenSeq: s.FirstTokenSeq[:0],
		HasComplete: s.HasComplete[:0], CompleteNs: s.CompleteNs[:0], LatencyNs: s.LatencyNs[:0],
		CompleteSeq: s.CompleteSeq[:0], OutTokens: s.OutTokens[:0], FullTokens: s.FullTokens[:0],
		Failed: s.Failed[:0], Retries: s.Retries[:0], ConversationID: s.ConversationID[:0], Turn: s.Turn[:0],
	}
}

// growSamples makes room for n samples in every column of s but
// LastIssueNs (the machine's: see machine.curIssue).
func growSamples(s *core.Samples, n int) {
	s.IssueNs = withRoom(s.IssueNs, n)
	s.LastEventNs = withRoom(s.LastEventNs, n)
	s.HasFirstToken = withRoom(s.HasFirstToken, n)
	s.FirstTokenNs = withRoom(s.FirstTokenNs, n)
	s.TTFTNs = withRoom(s.TTFTNs, n)
	s.WarmTTFT = withRoom(s.WarmTTFT, n)
	s.FirstTokenSeq = withRoom(s.FirstTokenSeq, n)
	s.HasComplete = withRoom(s.HasComplete, n)
	s.CompleteNs = withRoom(s.CompleteNs, n)
	s.LatencyNs = withRoom(s.LatencyNs, n)
	s.CompleteSeq = withRoom(s.CompleteSeq, n)
	s.OutTokens = withRoom(s.OutTokens, n)
	s.FullTokens = withRoom(s.FullTokens, n)
	s.Failed = withRoom(s.Failed, n)
	s.Retries = withRoom(s.Retries, n)
	if len(s.ConversationID) > 0 { // optional: see setOptional
		s.ConversationID = withRoom(s.ConversationID, n)
	}
	if len(s.Turn) > 0 {
		s.Turn = withRoom(s.Turn, n)
	}
}

// bytesPerSample is the decoder's memory per tracked sample: the
// detector's columns, the uuid, text-length and phase-2 columns and the
// index (what MemoryLimit is checked against).
const bytesPerSample = 11*8 + 4 + 2*4 + 16 + /* columns */ 16 + 8 + 1 + 8 + 8 /* keys, text bytes, status, issue, index */
