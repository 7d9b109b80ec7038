package columnar

import (
	"reflect"
	"slices"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// Implausible timestamps. A record stamped 9.2e18 ns (year 2261) in a run
// of 2025 is no event anyone timed: left in, it stretches the run's span
// to centuries (a 20 s run certified over 7.5e9 s). Whatever the reader,
// once its columns are built (Load, attach) every sample whose timestamps
// lie more than maxPlausibleSpanNs from the run's median issue time is
// taken out of the columns and reported as impossible timing of kind
// core.TimingImplausibleTimestamp (dropImplausible): its issue time is
// among the impossible stamps, so unlike core's other kinds it cannot
// stay as an issued sample. Core counts the kind and, beyond its small
// fraction, certifies nothing — as for any impossible timing. One pass
// for every reader, in Load; the anomaly is kept in the Summary, so a
// cache entry (whose columns are already clean) reports it too.

// maxPlausibleSpanNs is how far from the run's median issue time a
// sample's timestamp may lie: a year. No benchmark run lasts that long,
// and a clock that far off is not one to time requests with; the bound
// is wide so that only impossible stamps fall outside it.
const maxPlausibleSpanNs = int64(365 * 24 * 3600 * 1e9)

// medianSampleMax bounds the issue times sorted for the median: a strided
// sample of at most this many is exact enough for a bound of a year.
const medianSampleMax = 8191

// implausibleTimestamps returns the anomaly of the samples of s whose
// issue, retry, first-token, completion or last-event timestamp lies more
// than maxPlausibleSpanNs from the median issue time (ok false: none).
// FirstLine is the earliest log line of one of them when lines (the
// columns' Seq are line ordinals: endpoints logs), else 0 (unknown: the
// record-list readers' Seq are ranks).
func implausibleTimestamps(s *core.Samples, lines bool) (a core.EventAnomaly, ok bool) {
	n := s.Len()
	if n == 0 {
		return a, false
	}
	med := medianIssue(s.IssueNs)
	far := func(t int64) bool {
		if t == 0 { // a column a reader does not fill (or a clock's origin): no stamp
			return false
		}
		d := t - med
		if (t > med) != (d > 0) { // the difference overflowed: astronomically far
			return true
		}
		return d > maxPlausibleSpanNs || d < -maxPlausibleSpanNs
	}
	a.Kind = core.TimingImplausibleTimestamp
	for i := range n {
		bad := far(s.IssueNs[i]) || far(stampAt(s.LastIssueNs, i)) || far(stampAt(s.LastEventNs, i)) ||
			(atBool(s.HasFirstToken, i) && far(stampAt(s.FirstTokenNs, i))) ||
			(atBool(s.HasComplete, i) && far(stampAt(s.CompleteNs, i)))
		if !bad {
			continue
		}
		a.Count++
		a.Samples = append(a.Samples, i)
		line := int(max(atSeq(s.CompleteSeq, i), atSeq(s.FirstTokenSeq, i))) + 1
		if lines && line > 0 && (a.FirstLine == 0 || line < a.FirstLine) {
			a.FirstLine = line
		}
	}
	return a, a.Count > 0
}

// medianIssue is the median of a strided sample of issue times.
func medianIssue(issue []int64) int64 {
	step := max(1, len(issue)/medianSampleMax)
	sample := make([]int64, 0, min(len(issue), medianSampleMax+1))
	for i := 0; i < len(issue); i += step {
		sample = append(sample, issue[i])
	}
	slices.Sort(sample)
	return sample[len(sample)/2]
}

// at is xs[i], 0 (no stamp) beyond a column a reader left short.
func stampAt(xs []int64, i int) int64 {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

func atBool(xs []bool, i int) bool { return i < len(xs) && xs[i] }

func atSeq(xs []int64, i int) int64 {
	if i < len(xs) {
		return xs[i]
	}
	return -1
}

// dropImplausible takes the samples with implausible timestamps out of
// d's columns (lines: see implausibleTimestamps) (every per-sample column, in order) and records their
// anomaly in d.Summary.EventAnomalies; it returns how many it dropped.
func dropImplausible(d *contract.Decoded, lines bool) int {
	a, ok := implausibleTimestamps(&d.Samples, lines)
	if !ok {
		return 0
	}
	n := d.Samples.Len()
	drop := make([]bool, n)
	for _, i := range a.Samples {
		drop[i] = true
	}
	// newIdx maps a kept sample's old index to its new one (-1: dropped).
	newIdx := make([]int32, n)
	k := int32(0)
	for i := range n {
		if drop[i] {
			newIdx[i] = -1
			continue
		}
		newIdx[i] = k
		k++
	}
	sv := reflect.ValueOf(&d.Samples).Elem()
	for f := range sv.NumField() {
		if col := sv.Field(f); col.Kind() == reflect.Slice && col.Len() == n {
			col.Set(compact(col, drop))
		}
	}
	if len(d.TextBytes) == n {
		d.TextBytes = compact(reflect.ValueOf(d.TextBytes), drop).Interface().([]int64)
	}
	if len(d.Keys) == n {
		d.Keys = compact(reflect.ValueOf(d.Keys), drop).Interface().([][16]byte)
	}
	if d.Ext != nil {
		ext := make(map[int32]string, len(d.Ext))
		for i, u := range d.Ext {
			if j := newIdx[i]; j >= 0 {
				ext[j] = u
			}
		}
		d.Ext = ext
	}
	if d.ErrCauses != nil {
		causes := make(map[int32]contract.ErrCause, len(d.ErrCauses))
		for i, c := range d.ErrCauses {
			if j := newIdx[i]; j >= 0 {
				causes[j] = c
			}
		}
		d.ErrCauses = causes
	}
	kept := d.UncountedRows[:0]
	for _, i := range d.UncountedRows {
		if j := newIdx[i]; j >= 0 {
			kept = append(kept, j)
		}
	}
	d.UncountedRows = kept
	// The decoder's anomalies name samples by index: renumbered, the
	// dropped ones left out (their kind still counts them).
	for e := range d.Summary.EventAnomalies {
		ea := &d.Summary.EventAnomalies[e]
		var ss []int
		for _, i := range ea.Samples {
			if i >= 0 && i < n && newIdx[i] >= 0 {
				ss = append(ss, int(newIdx[i]))
			}
		}
		ea.Samples = ss
	}
	a.Samples = nil // no longer among the tracked samples
	d.Summary.EventAnomalies = append(d.Summary.EventAnomalies, a)
	return a.Count
}

// compact returns the slice col without the elements drop marks, in
// place.
func compact(col reflect.Value, drop []bool) reflect.Value {
	k := 0
	for i := range col.Len() {
		if drop[i] {
			continue
		}
		if k != i {
			col.Index(k).Set(col.Index(i))
		}
		k++
	}
	return col.Slice(0, k)
}
