package columnar

import (
	"github.com/steadysweep/steadysweep/core"
)

// sampleKey identifies a sample_uuid: packed hex, or the raw string in ext.
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

// Sample status during phase 2.
const (
	stPending uint8 = iota
	stDone
)

// machine is phase 2: the reference's per-sample state machine (detector
// spec §3.3–3.6) applied to events in file order.
type machine struct {
	dst  *Decoded
	sum  *Summary
	file string

	tracking bool
	index    map[sampleKey]int32 // latest sample of each uuid
	status   []uint8
	curIssue []int64 // issue time current after retries
	reissued []bool  // uuid completed before this sample was issued
}

func newMachine(dst *Decoded) *machine {
	return &machine{
		dst:   dst,
		sum:   &dst.Summary,
		file:  dst.Summary.File,
		index: make(map[sampleKey]int32, 1024),
	}
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
	key := sampleKey{hex: ev.uuid}
	if ev.flags&fUUIDExt != 0 {
		key = sampleKey{ext: ev.ext}
	}
	idx, known := m.index[key]
	pending := known && m.status[idx] == stPending
	switch ev.kind {
	case evIssued:
		if !m.tracking || ev.flags&fTS == 0 {
			return
		}
		if pending {
			m.reissue(idx, ev.ts)
		} else {
			m.newSample(key, known, ev)
		}
	case evRecvFirst:
		if pending && ev.flags&fTS != 0 {
			m.firstToken(idx, ev)
		}
	case evError:
		if pending {
			m.dst.Samples.Failed[idx] = true
		}
	case evComplete:
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
	m.curIssue[idx] = ts
	s.LastIssueNs[idx] = max(s.LastIssueNs[idx], ts)
	s.LastEventNs[idx] = max(s.LastEventNs[idx], ts)
	s.Retries[idx]++
}

// newSample appends a sample issued at ev.ts under key; known reports that
// the uuid completed before (a reissued uuid).
func (m *machine) newSample(key sampleKey, known bool, ev *event) {
	s := &m.dst.Samples
	ts := ev.ts
	m.index[key] = int32(s.Len())
	m.dst.keys = append(m.dst.keys, key)
	m.status = append(m.status, stPending)
	m.curIssue = append(m.curIssue, ts)
	m.reissued = append(m.reissued, known)
	s.IssueNs = append(s.IssueNs, ts)
	s.LastIssueNs = append(s.LastIssueNs, ts)
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
	s.ConversationID = append(s.ConversationID, ev.conv)
	turn := int32(-1)
	if ev.flags&fTurn != 0 {
		turn = ev.turn
	}
	s.Turn = append(s.Turn, turn)
	m.dst.TextBytes = append(m.dst.TextBytes, -1)
}

// firstToken records the first recv_first of the pending sample idx (a
// later one only extends its last event).
func (m *machine) firstToken(idx int32, ev *event) {
	s := &m.dst.Samples
	ts := ev.ts
	s.LastEventNs[idx] = max(s.LastEventNs[idx], ts)
	if s.HasFirstToken[idx] {
		return
	}
	s.HasFirstToken[idx] = true
	s.FirstTokenNs[idx] = ts
	s.TTFTNs[idx] = ts - m.curIssue[idx]
	s.WarmTTFT[idx] = ev.flags&fWarm != 0
	s.FirstTokenSeq[idx] = ev.line - 1
}

// complete ends the pending sample idx: a timestamped COMPLETE records the
// completion, its latency and its token counts.
func (m *machine) complete(idx int32, ev *event) {
	s := &m.dst.Samples
	m.status[idx] = stDone
	if ev.flags&fTS == 0 {
		return
	}
	ts := ev.ts
	if ev.flags&fDataNull != 0 {
		s.Failed[idx] = true
	}
	if m.reissued[idx] {
		m.sum.addProblem(KindCompletedTwice, ev.line, "sample_uuid")
	}
	s.HasComplete[idx] = true
	s.CompleteNs[idx] = ts
	s.LatencyNs[idx] = ts - m.curIssue[idx]
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

// finish fills the per-sample tallies of the summary.
func (m *machine) finish() {
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
		if m.status[i] == stPending {
			sum.Pending++
		}
		sum.Retries += int(s.Retries[i])
		agentic = agentic || s.ConversationID[i] != ""
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
