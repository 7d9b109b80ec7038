package endpoints

import (
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// Impossible events (core/timing.go): the state machine's checks of what
// only lines and uuids show. A sample event (first token, COMPLETE) for a
// uuid not issued yet is an orphan: if its ISSUED comes later the events
// are out of order, if it never comes the event is a COMPLETE without
// ISSUED. A second COMPLETE of a completed sample, or a second first token
// of a sample never retried, is a duplicated event. The reference applies
// such logs as they come (detector spec §3.3–3.6: an orphan is dropped, a
// duplicate ignored); the counts let steadysweep leave the samples out
// and say so.

// The kinds the machine counts, as indices of eventAnomalies.
const (
	anomalyNoIssue = iota
	anomalyOutOfOrder
	anomalyDuplicate
	numAnomalies
)

// anomalyKinds are the core names of the kinds.
func anomalyKinds() [numAnomalies]string {
	return [numAnomalies]string{core.TimingCompleteWithoutIssue, core.TimingOutOfOrder, core.TimingDuplicateEvent}
}

// eventAnomalies counts each kind with its first line and the tracked
// samples concerned.
type eventAnomalies [numAnomalies]core.EventAnomaly

// add counts one event of kind k on line; sample is the tracked sample
// concerned (−1 for none).
func (a *eventAnomalies) add(k int, line int64, sample int32) {
	e := &a[k]
	e.Count++
	if e.FirstLine <= 0 || int(line) < e.FirstLine {
		e.FirstLine = int(line)
	}
	if sample >= 0 {
		e.Samples = append(e.Samples, int(sample))
	}
}

// list returns the kinds found, named, in kind order (nil when none).
func (a *eventAnomalies) list() []core.EventAnomaly {
	var out []core.EventAnomaly
	for k, name := range anomalyKinds() {
		if a[k].Count > 0 {
			e := a[k]
			e.Kind = name
			out = append(out, e)
		}
	}
	return out
}

// keyOf is the map key of ev's uuid.
func keyOf(ev *Event) scan.SampleKey {
	if ev.Flags&fUUIDExt != 0 {
		return scan.SampleKey{Ext: ev.ext}
	}
	return scan.SampleKey{Hex: ev.uuid}
}

// untrackedIssue remembers a uuid issued outside tracking, so its later
// events are not taken for orphans.
func (m *machine) untrackedIssue(ev *Event) {
	key := keyOf(ev)
	if m.untracked == nil {
		m.untracked = map[scan.SampleKey]struct{}{}
	}
	m.untracked[key] = struct{}{}
	m.orphanIssued(key, -1)
}

// issuedAfterOrphan counts the ISSUED of a new tracked sample whose uuid
// had events before it: out of order, the sample concerned.
func (m *machine) issuedAfterOrphan(ev *Event) {
	if len(m.orphans) > 0 {
		m.orphanIssued(keyOf(ev), int32(m.dst.Samples.Len()-1))
	}
}

// orphanIssued counts key's orphan events as out of order now that it is
// issued (sample: the tracked sample it became, −1 for none).
func (m *machine) orphanIssued(key scan.SampleKey, sample int32) {
	line, ok := m.orphans[key]
	if !ok {
		return
	}
	delete(m.orphans, key)
	m.anomalies.add(anomalyOutOfOrder, line, sample)
}

// checkEvent checks a first token or COMPLETE: an orphan (no ISSUED seen
// for its uuid), a second COMPLETE of a completed sample, a first token
// after its sample's COMPLETE.
func (m *machine) checkEvent(known, pending bool, idx int32, ev *Event) {
	switch {
	case !known:
		key := keyOf(ev)
		if _, ok := m.untracked[key]; ok {
			return
		}
		if _, ok := m.orphans[key]; !ok {
			if m.orphans == nil {
				m.orphans = map[scan.SampleKey]int64{}
			}
			m.orphans[key] = ev.Line
		}
	case pending:
	case ev.Kind == EvComplete && ev.Flags&fTS != 0:
		m.anomalies.add(anomalyDuplicate, ev.Line, idx)
	case ev.Kind == EvRecvFirst && ev.Flags&fTS != 0:
		m.anomalies.add(anomalyOutOfOrder, ev.Line, idx)
	}
}

// finishAnomalies counts the orphans whose ISSUED never came and puts the
// counts in the summary.
func (m *machine) finishAnomalies() {
	for _, line := range m.orphans {
		m.anomalies.add(anomalyNoIssue, line, -1)
	}
	m.orphans, m.untracked = nil, nil
	m.sum.EventAnomalies = m.anomalies.list()
}
