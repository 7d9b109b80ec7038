package core

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// timingRun is syntheticSamples(30, 100) (a clean closed loop) with
// every k-th sample's timing broken by mutate.
func timingRun(k int, mutate func(s *Samples, i int)) *Samples {
	s := syntheticSamples(30, 100)
	for i := 0; i < s.Len(); i += k {
		mutate(s, i)
	}
	return s
}

// COMPLETE timestamps 1000 s before their ISSUED on 5 % of the samples
// (the issue's report: windowable, STEADY STATE, TPOT p50 −23,168 ms):
// counted with the first line, excluded from every measurement, the run
// not certified; the reference still measures them.
func TestTimingNegativeLatency(t *testing.T) {
	negative := func(s *Samples, i int) {
		s.CompleteNs[i] = s.IssueNs[i] - 1000e9
		s.LatencyNs[i] = s.CompleteNs[i] - s.IssueNs[i]
	}
	info := RunInfo{DatasetSize: 100}
	clean, err := analyze(syntheticSamples(30, 100), info, DefaultParams())
	if err != nil || clean.Assessment.Status != StatusWindowable {
		t.Fatalf("clean run: %v %v", err, clean.Assessment.Status)
	}
	s := timingRun(20, negative)
	r, err := analyze(s, info, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	as := r.Assessment
	want := []EventAnomaly{{Kind: TimingNegativeLatency, Count: 150, FirstLine: int(s.CompleteSeq[0]) + 1}}
	if !slices.EqualFunc(as.Timing.Kinds, want, func(a, b EventAnomaly) bool {
		return a.Kind == b.Kind && a.Count == b.Count && a.FirstLine == b.FirstLine
	}) || as.Timing.NExcluded != 150 || as.Timing.Trusted {
		t.Errorf("timing %+v, want %+v, 150 excluded, untrusted", as.Timing, want)
	}
	if as.Status != StatusInvalidTiming || as.Verdict != VerdictNotFound || r.Outcome().Found ||
		!strings.Contains(as.Reason, "impossible timing") || as.Submission.HasWindow {
		t.Errorf("status %s verdict %s found %v block window %v, reason %q", as.Status, as.Verdict, r.Outcome().Found,
			as.Submission.HasWindow, as.Reason)
	}
	if w := as.Timing.Warning(); !strings.Contains(w, "150 negative latency (first at line 3)") ||
		!strings.Contains(w, "150 sample(s) excluded") || !strings.Contains(w, "nothing is certified") {
		t.Errorf("warning %q", w)
	}
	// The numbers left are the clean samples': no negative latency or
	// TPOT, the TPOT p50 within 1 % of the unbroken run's.
	if as.Total.Lat.P50 <= 0 || r.Steady.TPOT == nil || r.Steady.TPOT.Min <= 0 ||
		math.Abs(as.Total.TPOT.P50/clean.Assessment.Total.TPOT.P50-1) > 0.01 {
		t.Errorf("latency p50 %v, steady TPOT %+v, total TPOT p50 %v vs clean %v", as.Total.Lat.P50, r.Steady.TPOT,
			as.Total.TPOT.P50, clean.Assessment.Total.TPOT.P50)
	}
	ref, err := analyze(s, info, ReferenceParams())
	if err != nil || ref.Assessment != nil || ref.Steady.TPOT == nil || ref.Steady.TPOT.Min >= 0 {
		t.Errorf("reference: %v, TPOT %+v: it measures the broken samples (negative TPOT), as the reference does", err,
			ref.Steady.TPOT)
	}
}

// A first token after the COMPLETE (a negative TPOT) on 0.5 % of the
// samples: counted and excluded, the run still certified.
func TestTimingFirstTokenAfterComplete(t *testing.T) {
	late := func(s *Samples, i int) {
		s.FirstTokenNs[i] = s.CompleteNs[i] + 1e9
		s.TTFTNs[i] = s.FirstTokenNs[i] - s.IssueNs[i]
	}
	s := timingRun(200, late)
	r, err := analyze(s, RunInfo{DatasetSize: 100}, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	as := r.Assessment
	if len(as.Timing.Kinds) != 1 || as.Timing.Kinds[0].Kind != TimingFirstTokenAfterComplete ||
		as.Timing.Kinds[0].Count != 15 || as.Timing.Kinds[0].FirstLine != int(s.FirstTokenSeq[0])+1 ||
		!as.Timing.Trusted || as.Timing.NExcluded != 15 {
		t.Errorf("timing %+v", as.Timing)
	}
	if as.Status != StatusWindowable || r.Steady.TPOT == nil || r.Steady.TPOT.Min <= 0 {
		t.Errorf("status %s (%s), steady TPOT %+v: want windowable without the negative TPOTs", as.Status, as.Reason,
			r.Steady.TPOT)
	}
}

// The decoder's kinds (RunInfo.EventAnomalies) merge with the columns':
// their samples are excluded too, and an orphan COMPLETE counts toward the
// fraction without a sample.
func TestTimingDecoderKinds(t *testing.T) {
	s := syntheticSamples(30, 100)
	info := RunInfo{DatasetSize: 100, EventAnomalies: []EventAnomaly{
		{Kind: TimingDuplicateEvent, Count: 2, FirstLine: 900, Samples: []int{5, 7}},
		{Kind: TimingCompleteWithoutIssue, Count: 40, FirstLine: 77},
	}}
	rep, bad := timingOf(s, info)
	if len(rep.Kinds) != 2 || rep.Kinds[0].Kind != TimingCompleteWithoutIssue || rep.NExcluded != 2 || !bad[5] || !bad[7] ||
		math.Abs(rep.Frac-42.0/3000) > 1e-12 || rep.Trusted {
		t.Errorf("report %+v", rep)
	}
}

// Failed requests are counted by kind over the run and the window and
// left out of TTFT, TPOT and latency (the reference keeps a mid-stream
// failure's TTFT and every failure's latency).
func TestFailuresExcluded(t *testing.T) {
	s := syntheticSamples(30, 100)
	n := s.Len()
	s.Failed, s.FailureKind = make([]bool, n), make([]FailureKind, n)
	failed := 0
	for i := 3; i < n; i += 25 {
		s.Failed[i], s.FailureKind[i] = true, FailHTTP
		if i%2 == 0 {
			s.FailureKind[i] = FailMidstream
		}
		s.OutTokens[i] = -1
		failed++
	}
	run := NewRun(s, RunInfo{DatasetSize: 100})
	r, err := run.Analyze(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	f := r.Assessment.Failures
	http, mid := 0, 0
	for _, k := range f.ByKind {
		switch k.Kind {
		case FailHTTP:
			http = k.N
		case FailMidstream:
			mid = k.N
		}
	}
	if f.NFailed != failed || f.NIssued != n || http+mid != failed || http == 0 || mid == 0 || !f.Warn() ||
		f.Window == nil || f.Window.NFailed == 0 || r.Outcome().NFailed != failed {
		t.Errorf("failures %+v (http %d, midstream %d), want %d", f, http, mid, failed)
	}
	ttft, lat := 0, 0
	for _, sp := range run.cleanRollup(100).sps {
		ttft += len(sp.TTFT)
		lat += len(sp.Latency)
	}
	refTTFT := 0
	for _, sp := range run.rollup(100).sps {
		refTTFT += len(sp.TTFT)
	}
	if ttft != n-failed || lat != n-failed || refTTFT != n {
		t.Errorf("clean rollup: %d TTFTs, %d latencies of %d successes; reference rollup %d TTFTs of %d", ttft, lat,
			n-failed, refTTFT, n)
	}
	if got := r.Assessment.Total.CompletedFraction; math.Abs(got-float64(n-failed)/float64(n)) > 1e-12 {
		t.Errorf("completed_frac %v", got)
	}
}

// A run without first tokens (not streamed): TTFT and TPOT cannot be
// measured, so steadiness cannot be assessed; the whole run's latency,
// request rate, output tokens (the full outputs') and throughput are
// reported, no window.
func TestNonStreamingWholeRun(t *testing.T) {
	s := syntheticSamples(30, 100)
	n := s.Len()
	s.FullTokens = make([]int64, n)
	var tokens int64
	for i := range n {
		s.HasFirstToken[i], s.FirstTokenNs[i], s.TTFTNs[i], s.FirstTokenSeq[i] = false, 0, 0, -1
		s.FullTokens[i], s.OutTokens[i] = s.OutTokens[i]+1, -1
		tokens += s.FullTokens[i]
	}
	r, err := analyze(s, RunInfo{DatasetSize: 100}, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	as := r.Assessment
	if as.Status != StatusNonStreaming || as.Verdict != VerdictNotFound || !strings.Contains(as.Reason, "cannot be assessed") ||
		as.Mode.Method != "whole_run" || as.Window.Ok() || as.Steady != nil || r.Steady.TPS != nil ||
		as.Submission.HasWindow || as.Submission.Status != StatusInsufficientPasses {
		t.Fatalf("status %s verdict %s method %s window %d steady %v block %+v", as.Status, as.Verdict, as.Mode.Method,
			as.Window.Lo, as.Steady, as.Submission)
	}
	tot := as.Total
	span := float64(slices.Max(s.LastEventNs)-s.IssueNs[0]) / 1e9
	if tot.OutTokens != tokens || math.Abs(tot.TPSSystem-float64(tokens)/span) > 1e-9*tot.TPSSystem ||
		math.Abs(tot.RequestsPerS-float64(n)/span) > 1e-9*tot.RequestsPerS || !(tot.Lat.P50 > 0) ||
		!math.IsNaN(tot.TPOT.P50) || !math.IsNaN(tot.TTFT.P50) {
		t.Errorf("total %+v; want %d tokens over %.1f s, latency percentiles, no TPOT/TTFT", *tot, tokens, span)
	}
}

// Without per-request start times (a vLLM result) nothing can be windowed
// and no duration or rate exists: latency percentiles only.
func TestNoTimelineWholeRun(t *testing.T) {
	r, err := analyze(syntheticSamples(4, 100), RunInfo{DatasetSize: 400, NoTimelineReason: "no start_times"},
		DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	as := r.Assessment
	if as.Status != StatusNoTimeline || as.Reason != "no start_times" || !math.IsNaN(as.Total.TPSSystem) ||
		!math.IsNaN(as.Total.DurationS) || !math.IsNaN(as.Total.RequestsPerS) || !(as.Total.Lat.P50 > 0) ||
		!(as.Total.TTFT.P50 > 0) {
		t.Errorf("status %s (%q), total %+v", as.Status, as.Reason, *as.Total)
	}
}
