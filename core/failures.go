package core

import "math"

// Failed requests. The reference measures a failed request like any other
// (a mid-stream failure's TTFT, an HTTP error's latency) and reports no
// count of them; steadysweep counts them per kind, over the run and over
// the reported window, and leaves them out of every measurement (the
// clean rollup, memo.go): a failure's TTFT or latency is not the service's.

// failureWarnFrac is the failed fraction above which the report warns.
const failureWarnFrac = 0.01

// FailureCount is the number of failed requests of one kind.
type FailureCount struct {
	Kind FailureKind
	N    int
}

// FailureRate is a failed count over the requests issued.
type FailureRate struct {
	NIssued, NFailed int
	// Frac is NFailed / NIssued (NaN when nothing was issued).
	Frac float64
}

func rateOf(issued, failed int) FailureRate {
	r := FailureRate{NIssued: issued, NFailed: failed, Frac: math.NaN()}
	if issued > 0 {
		r.Frac = float64(failed) / float64(issued)
	}
	return r
}

// Failures summarises a run's failed requests: the tracked samples the
// log records as failed (an error event or a COMPLETE with null data),
// by kind, and those still in flight when the log ended (not failures:
// NIncomplete).
type Failures struct {
	FailureRate
	// ByKind counts the failed requests of every failure kind (error,
	// http, midstream, timeout, cancelled), in kind order, zeros included.
	ByKind      []FailureCount
	NIncomplete int
	// Window is the reported window's own rate (nil without a window).
	Window *FailureRate
}

// Warn reports a failed fraction above the report's warning threshold.
func (f Failures) Warn() bool { return f.Frac > failureWarnFrac }

// WarnFrac is the failed fraction above which the report warns.
func (Failures) WarnFrac() float64 { return failureWarnFrac }

// failuresOf counts the failures of s.
func failuresOf(s *Samples) Failures {
	var counts [numFailureKinds]int
	failed, incomplete := 0, 0
	for i := range s.Len() {
		k := at(s.FailureKind, i, FailNone)
		switch {
		case at(s.Failed, i, false):
			failed++
			if k == FailNone || k == FailIncomplete {
				k = FailError
			}
			counts[k]++
		case k == FailIncomplete:
			incomplete++
		}
	}
	f := Failures{FailureRate: rateOf(s.Len(), failed), NIncomplete: incomplete}
	for k := FailError; k < numFailureKinds; k++ {
		if k != FailIncomplete {
			f.ByKind = append(f.ByKind, FailureCount{Kind: k, N: counts[k]})
		}
	}
	return f
}

// windowFailures is the failure rate of the super-passes sps.
func windowFailures(sps []SuperPass) *FailureRate {
	failed := 0
	for i := range sps {
		failed += sps[i].NFailed
	}
	r := rateOf(countIssued(sps), failed)
	return &r
}

// sampleHealth is what a run's samples say about its log, computed once:
// the failures, the impossible timing and the samples steadysweep leaves
// out of every measurement for either (nil when none).
type sampleHealth struct {
	failures Failures
	timing   TimingReport
	exclude  []bool
}

// health returns the run's sampleHealth, computing it once.
func (run *Run) health() *sampleHealth {
	if h := run.perSample.health; h != nil {
		return h
	}
	s := run.samples
	h := &sampleHealth{failures: failuresOf(s)}
	var bad []bool
	h.timing, bad = timingOf(s, run.info)
	for i := range s.Len() {
		if at(s.Failed, i, false) || at(bad, i, false) {
			if h.exclude == nil {
				h.exclude = make([]bool, s.Len())
			}
			h.exclude[i] = true
		}
	}
	run.perSample.health = h
	return h
}

// excluded is the per-sample exclusion of the clean rollup (nil: none).
func (run *Run) excluded() []bool { return run.health().exclude }

// Failures returns the run's failure summary (no window): a fact of the
// log whatever the parameters, the same under every compat.
func (run *Run) Failures() Failures {
	f := run.health().failures
	f.ByKind = append([]FailureCount(nil), f.ByKind...)
	return f
}
