package core

import (
	"fmt"
	"strings"
)

// Impossible timing. A sample whose events cannot have happened in the
// order their timestamps or lines say (a COMPLETE before its ISSUED, a
// first token after the COMPLETE, …) has no latency, TTFT or TPOT anyone
// should believe. The reference measures such samples anyway (a COMPLETE
// 1000 s before its ISSUED gives a TPOT of −23 s); steadysweep counts them
// per kind, leaves them out of every measurement (the clean rollup,
// memo.go) and, when they are more than timingMaxFrac of the tracked
// samples, certifies nothing (status invalid_timing).
//
// Three kinds are read from the columns here; the others are the
// decoder's, which alone sees lines and duplicates, and columnar's
// implausible timestamps (RunInfo.EventAnomalies).

// The timing-anomaly kinds, as named in the JSON and the warnings.
const (
	// TimingNegativeLatency: a COMPLETE timestamped before the ISSUED.
	TimingNegativeLatency = "negative_latency"
	// TimingNegativeTTFT: a first token timestamped before the ISSUED.
	TimingNegativeTTFT = "negative_ttft"
	// TimingFirstTokenAfterComplete: a first token timestamped after the
	// COMPLETE (a negative TPOT).
	TimingFirstTokenAfterComplete = "first_token_after_complete"
	// TimingCompleteWithoutIssue: a COMPLETE (or first token) for a uuid
	// never issued in the log (decoder).
	TimingCompleteWithoutIssue = "complete_without_issue"
	// TimingOutOfOrder: a sample event on a line before its ISSUED line
	// (decoder).
	TimingOutOfOrder = "out_of_order"
	// TimingDuplicateEvent: a second COMPLETE for a completed sample, or a
	// second first token without a retry between them (decoder).
	TimingDuplicateEvent = "duplicate_event"
	// TimingImplausibleTimestamp: a sample timestamped more than a year
	// from the run's median issue time (columnar, for every reader).
	TimingImplausibleTimestamp = "implausible_timestamp"
)

// TimingKinds returns the kinds in report order: the column kinds, then
// the decoder's.
func TimingKinds() []string {
	return []string{TimingNegativeLatency, TimingNegativeTTFT, TimingFirstTokenAfterComplete,
		TimingCompleteWithoutIssue, TimingOutOfOrder, TimingDuplicateEvent, TimingImplausibleTimestamp}
}

// EventAnomaly is one kind of impossible event the decoder found: how many,
// the first line, and the tracked samples (issue ranks) it concerns (none
// for a COMPLETE without any ISSUED).
type EventAnomaly struct {
	Kind      string `json:"kind"`
	Count     int    `json:"count"`
	FirstLine int    `json:"first_line"`
	Samples   []int  `json:"samples,omitempty"`
}

// timingMaxFrac is the largest fraction of tracked samples with impossible
// timing a certified result may have had excluded: beyond it the log is
// not trusted (status invalid_timing). timingMinCount keeps one or two
// glitches in a small run (a duplicated line in 96 samples is 1.04 %) from
// decertifying it: they are excluded and warned about; a systematic
// problem (clock skew between workers, a reordered log) shows in many.
const (
	timingMaxFrac  = 0.01
	timingMinCount = 3
)

// TimingReport is what a run's impossible timing amounts to: the kinds
// found (report order, only those with a count), the samples left out of
// every measurement for it and their fraction of the tracked samples.
type TimingReport struct {
	Kinds []EventAnomaly
	// NExcluded counts the distinct tracked samples excluded; Frac is
	// NExcluded plus the COMPLETEs without any ISSUED, over the tracked
	// samples (0 without samples).
	NExcluded int
	Frac      float64
	// Trusted is false when Frac exceeds timingMaxFrac and at least
	// timingMinCount samples or events are concerned: nothing is certified.
	Trusted bool
}

// MaxFrac is the fraction of samples beyond which a run is not trusted.
func (TimingReport) MaxFrac() float64 { return timingMaxFrac }

// Warning is the one-line warning of the report ("" when nothing was
// found): every kind with its count and first line, the samples excluded.
func (t TimingReport) Warning() string {
	if len(t.Kinds) == 0 {
		return ""
	}
	parts := make([]string, len(t.Kinds))
	for i, k := range t.Kinds {
		parts[i] = fmt.Sprintf("%d %s", k.Count, strings.ReplaceAll(k.Kind, "_", " "))
		if k.FirstLine > 0 { // unknown for logs without lines per event
			parts[i] += fmt.Sprintf(" (first at line %d)", k.FirstLine)
		}
	}
	w := "impossible timing: " + strings.Join(parts, ", ") +
		fmt.Sprintf("; %d sample(s) excluded from every measurement (%.2f%% of the run concerned)", t.NExcluded, 100*t.Frac)
	if !t.Trusted {
		w += fmt.Sprintf(" — more than %g%%: nothing is certified", 100*timingMaxFrac)
	}
	return w
}

// timingOf finds the column kinds in s, merges the decoder's kinds of
// info, and returns the report and the per-sample exclusion of impossible
// timing (nil when none).
func timingOf(s *Samples, info RunInfo) (TimingReport, []bool) {
	n := s.Len()
	var bad []bool
	mark := func(i int) {
		if bad == nil {
			bad = make([]bool, n)
		}
		bad[i] = true
	}
	found := map[string]*EventAnomaly{}
	note := func(kind string, i int, line int64) {
		k := found[kind]
		if k == nil {
			k = &EventAnomaly{Kind: kind, FirstLine: int(line)}
			found[kind] = k
		}
		k.Count++
		if int(line) < k.FirstLine || k.FirstLine <= 0 {
			k.FirstLine = int(line)
		}
		if i >= 0 {
			mark(i)
		}
	}
	for i := range n {
		first, done := at(s.HasFirstToken, i, false), at(s.HasComplete, i, false)
		ftLine, cLine := at(s.FirstTokenSeq, i, -1)+1, at(s.CompleteSeq, i, -1)+1
		switch {
		case done && at(s.LatencyNs, i, 0) < 0:
			note(TimingNegativeLatency, i, cLine)
		case first && at(s.TTFTNs, i, 0) < 0:
			note(TimingNegativeTTFT, i, ftLine)
		case first && done && at(s.FirstTokenNs, i, 0) > at(s.CompleteNs, i, 0):
			note(TimingFirstTokenAfterComplete, i, ftLine)
		}
	}
	for _, ea := range info.EventAnomalies {
		k := found[ea.Kind]
		if k == nil {
			k = &EventAnomaly{Kind: ea.Kind, FirstLine: ea.FirstLine}
			found[ea.Kind] = k
		}
		k.Count += ea.Count
		if ea.FirstLine > 0 && (k.FirstLine <= 0 || ea.FirstLine < k.FirstLine) {
			k.FirstLine = ea.FirstLine
		}
		for _, i := range ea.Samples {
			if i >= 0 && i < n {
				mark(i)
			}
		}
	}
	rep := TimingReport{Trusted: true}
	for _, kind := range TimingKinds() {
		if k := found[kind]; k != nil {
			rep.Kinds = append(rep.Kinds, *k)
		}
	}
	for _, b := range bad {
		if b {
			rep.NExcluded++
		}
	}
	// A COMPLETE without any ISSUED concerns no tracked sample, yet it is
	// as much a sign of a broken log as a sample's impossible timing.
	affected := rep.NExcluded
	if k := found[TimingCompleteWithoutIssue]; k != nil {
		affected += k.Count
	}
	// Samples with implausible timestamps were taken out of the columns
	// (columnar): counted here over the samples there were.
	if k := found[TimingImplausibleTimestamp]; k != nil {
		affected += k.Count
		n += k.Count
		rep.NExcluded += k.Count
	}
	if n > 0 {
		rep.Frac = float64(affected) / float64(n)
	} else if affected > 0 {
		rep.Frac = 1
	}
	rep.Trusted = rep.Frac <= timingMaxFrac || affected < timingMinCount
	return rep, bad
}
