package core

// prefixMemo is what the earliest-stop search (EarliestStopOf) keeps of a
// run between parameter sets (issue 32: a sweep paid ~8.5 ms per
// configuration re-deriving it): the run's first issue and last event,
// its prefix cut times per super-pass size, and the prefix runs analysed
// so far, whose rollups and memos then serve every later configuration.
// The prefix runs are kept while the samples they hold total at most
// prefixBudget times the run's; beyond that a prefix is analysed afresh,
// so the memo's memory stays a small multiple of the run's.
type prefixMemo struct {
	spanDone       bool
	startNs, endNs int64
	cuts           map[int][]int64
	runs           map[[2]int]*Run // by (S, k)
	heldSamples    int
	// scratch is lent to each prefix run in turn (CheckPrefix).
	scratch scratch
}

// prefixBudget bounds the samples the memoised prefix runs hold, in
// multiples of the run's samples (a 60-super-pass run's search holds
// about a third of its prefixes: ~10× its samples would be all of them).
const prefixBudget = 8

// issueSpan returns the run's first issue time and last event time (−1
// when none), the earliest stop's time base.
func (run *Run) issueSpan() (startNs, endNs int64) {
	m := &run.prefixes
	if !m.spanDone {
		m.startNs, m.endNs, m.spanDone = -1, -1, true
		for i := 0; i < run.samples.Len(); i++ {
			if v := run.samples.IssueNs[i]; v >= 0 && (m.startNs < 0 || v < m.startNs) {
				m.startNs = v
			}
			m.endNs = max(m.endNs, at(run.samples.LastEventNs, i, -1))
		}
	}
	return m.startNs, m.endNs
}

// prefixCuts is PrefixCutNs(run's samples, S), memoised. The caller must
// not modify it.
func (run *Run) prefixCuts(S int) []int64 {
	m := &run.prefixes
	if c, ok := m.cuts[S]; ok {
		return c
	}
	if m.cuts == nil {
		m.cuts = map[int][]int64{}
	}
	c := PrefixCutNs(run.samples, S)
	m.cuts[S] = c
	return c
}

// prefixRun is the run cut after k full super-passes of size S as
// AnalyzePrefix analyses it (the same facts, not partial), kept for the
// next call while the budget allows. Its Stop is the run's.
func (run *Run) prefixRun(S, k int) *Run {
	m := &run.prefixes
	key := [2]int{S, k}
	pre, ok := m.runs[key]
	if !ok {
		pre = run.newPrefix(S, k)
		if n := pre.Len(); m.heldSamples+n <= prefixBudget*run.Len() {
			if m.runs == nil {
				m.runs = map[[2]int]*Run{}
			}
			m.runs[key] = pre
			m.heldSamples += n
		}
	}
	pre.Stop = run.Stop
	return pre
}
