package cache

import (
	"errors"
	"slices"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// An entry's summary section (cacheentry.go) is the contract.Summary in a
// binary form of this file's own, not JSON: decoding it with
// encoding/json cost a warm analyze ~1.4 ms, nearly all of it the
// package's first look at the types (reflect's field lists and encoders),
// for 0.5 KB of values. The form:
//
//	summaryMagic, then each field of contract.Summary in declaration order:
//	integers and bools as varints, strings as a uvarint length and the
//	bytes, a slice or map as a uvarint of its length + 1 (0: nil, so nil
//	and empty read back as they were written) then its elements (a map's
//	in key order). ProblemCount.First is not stored (RestoreFirst
//	rebuilds it), as in the JSON.
//
// summaryFields is the number of fields the form covers: a test fails when
// contract.Summary gains one, so the form is extended with it (and
// entryVersion bumped) rather than the field silently dropped.
const (
	summaryMagic  = "S1"
	summaryFields = 20
)

// appendSummary appends s in the summary form to b.
func appendSummary(b []byte, s *contract.Summary) []byte {
	w := fieldWriter{b: append(b, summaryMagic...)}
	w.str(s.File)
	w.int(s.Bytes)
	w.int(s.Lines)
	w.size(len(s.Events), s.Events == nil)
	keys := make([]string, 0, len(s.Events))
	for k := range s.Events {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		w.str(k)
		w.int(s.Events[k])
	}
	w.size(len(s.Problems), s.Problems == nil)
	for _, p := range s.Problems {
		w.str(p.Kind)
		w.int(p.Count)
		w.ints(p.FirstLines)
		w.size(len(p.FirstFields), p.FirstFields == nil)
		for _, f := range p.FirstFields {
			w.str(f)
		}
	}
	w.bool(s.Truncated)
	w.str(s.TruncatedReason)
	w.int(s.TrackingStartNs)
	w.int(s.TrackingStopNs)
	w.int(int64(s.TrackingWindows))
	w.str(s.Mode)
	for _, v := range []int{s.Samples, s.Completed, s.Failed, s.Pending, s.Retries} {
		w.int(int64(v))
	}
	w.str(s.Counter)
	w.int(int64(s.TokenizeSample))
	w.int(int64(s.SuperPassSize))
	w.size(len(s.EventAnomalies), s.EventAnomalies == nil)
	for _, a := range s.EventAnomalies {
		w.str(a.Kind)
		w.int(int64(a.Count))
		w.int(int64(a.FirstLine))
		w.ints(a.Samples)
	}
	return w.b
}

// decodeSummary reads the summary form b into s: every length is checked
// against what is left of b, and b must end with the last field.
func decodeSummary(b []byte, s *contract.Summary) error {
	if len(b) < len(summaryMagic) || string(b[:len(summaryMagic)]) != summaryMagic {
		return errors.New("not a summary")
	}
	r := fieldReader{b: b[len(summaryMagic):], name: "summary"}
	s.File = r.str()
	s.Bytes = r.int()
	s.Lines = r.int()
	if n, ok := r.size(); ok {
		s.Events = make(map[string]int64, n)
		for range n {
			k := r.str()
			s.Events[k] = r.int()
		}
	}
	if n, ok := r.size(); ok {
		s.Problems = make([]contract.ProblemCount, n)
		for i := range s.Problems {
			p := &s.Problems[i]
			p.Kind = r.str()
			p.Count = r.int()
			p.FirstLines = r.ints()
			if n, ok := r.size(); ok {
				p.FirstFields = make([]string, n)
				for j := range p.FirstFields {
					p.FirstFields[j] = r.str()
				}
			}
		}
	}
	s.Truncated = r.bool()
	s.TruncatedReason = r.str()
	s.TrackingStartNs = r.int()
	s.TrackingStopNs = r.int()
	s.TrackingWindows = int(r.int())
	s.Mode = r.str()
	for _, v := range []*int{&s.Samples, &s.Completed, &s.Failed, &s.Pending, &s.Retries} {
		*v = int(r.int())
	}
	s.Counter = r.str()
	s.TokenizeSample = int(r.int())
	s.SuperPassSize = int(r.int())
	if n, ok := r.size(); ok {
		s.EventAnomalies = make([]core.EventAnomaly, n)
		for i := range s.EventAnomalies {
			a := &s.EventAnomalies[i]
			a.Kind = r.str()
			a.Count = int(r.int())
			a.FirstLine = int(r.int())
			a.Samples = r.ints()
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = errors.New("summary: bytes after its last field")
	}
	return r.err
}
