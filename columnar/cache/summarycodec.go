package cache

import (
	"encoding/binary"
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
	w := summaryWriter{b: append(b, summaryMagic...)}
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
	r := summaryReader{b: b[len(summaryMagic):]}
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

// summaryWriter appends the summary form's values.
type summaryWriter struct{ b []byte }

func (w *summaryWriter) int(v int64) { w.b = binary.AppendVarint(w.b, v) }

func (w *summaryWriter) bool(v bool) { w.b = append(w.b, b2u(v)) }

func (w *summaryWriter) str(s string) {
	w.b = append(binary.AppendUvarint(w.b, uint64(len(s))), s...)
}

// size writes a slice's or map's length + 1, or 0 for nil.
func (w *summaryWriter) size(n int, isNil bool) {
	if isNil {
		w.b = append(w.b, 0)
		return
	}
	w.b = binary.AppendUvarint(w.b, uint64(n)+1)
}

func (w *summaryWriter) ints(v []int) {
	w.size(len(v), v == nil)
	for _, x := range v {
		w.int(int64(x))
	}
}

// summaryReader reads the summary form's values; the first error sticks,
// and every read after it is zero.
type summaryReader struct {
	b   []byte
	err error
}

func (r *summaryReader) fail(what string) {
	if r.err == nil {
		r.err = errors.New("summary: " + what)
	}
	r.b = nil
}

func (r *summaryReader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("a bad integer")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *summaryReader) bool() bool {
	if len(r.b) == 0 || r.b[0] > 1 {
		r.fail("a bad bool")
		return false
	}
	v := r.b[0] == 1
	r.b = r.b[1:]
	return v
}

// uvarint is a length: at most the bytes left, each element taking one
// at least.
func (r *summaryReader) uvarint() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(len(r.b)-n)+1 {
		r.fail("a bad length")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *summaryReader) str() string {
	n := r.uvarint()
	if n > len(r.b) {
		r.fail("a string past its end")
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// size is a slice's or map's length, and false for nil.
func (r *summaryReader) size() (int, bool) {
	n := r.uvarint()
	if n == 0 {
		return 0, false
	}
	return n - 1, r.err == nil
}

func (r *summaryReader) ints() []int {
	n, ok := r.size()
	if !ok {
		return nil
	}
	v := make([]int, n)
	for i := range v {
		v[i] = int(r.int())
	}
	return v
}
