package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// TailCut is the guarded drain-tail cut of the reported window (design
// §5.4). Over the window's samples with an inter-token latency
//
//	ITL_i = (t_complete − t_first) / (OSL_i − 1)
//
// (OSL_i − 1 = the tokens after the first chunk, so ITL_i is the sample's
// TPOT) with mean μ, median m and population standard deviation σ, the
// tail — the window's samples still in flight when issuance stopped
// (completion after the run's last issue) — is cut iff
//
//	σ/μ ≤ TailCutEps  and  |μ − m|/μ ≤ TailCutDelta
//
// and kept (and reported) otherwise.
type TailCut struct {
	// Applied reports that the tail samples were removed from the window's
	// latency summaries.
	Applied bool
	// CoV is σ/μ and Skew |μ − m|/μ of the window's ITL (NaN without one).
	CoV, Skew float64
	// NTail is the number of window samples in flight at issuance stop.
	NTail int
	// Reason says why the cut was not applied ("" when applied).
	Reason string

	tpot *stats.Summary // the window's TPOT summary without the tail
}

// tailCut evaluates the guard over the reported window and, when it
// holds, the TPOT summary without the tail. The statistics do not depend
// on the parameters (they are memoised on the run); the parameters only
// compare against them.
func (a *analysis) tailCut() TailCut {
	ts := a.run.tailStatsOf(a.roll, a.assess.Window)
	p := a.p
	tc := TailCut{CoV: ts.cov, Skew: ts.skew, NTail: ts.nTail}
	switch {
	case ts.reason != "":
		tc.Reason = ts.reason
	case !(tc.CoV <= p.TailCutEps):
		tc.Reason = "ITL not per-sample invariant: σ/μ above tail_cut_eps; tail kept"
	case !(tc.Skew <= p.TailCutDelta):
		tc.Reason = "ITL skewed: |μ − m|/μ above tail_cut_delta; tail kept"
	case tc.NTail == 0:
		tc.Reason = "no window sample in flight at issuance stop"
	case ts.kept == nil:
		tc.Reason = "the whole window is tail; tail kept"
	default:
		tc.Applied = true
		tc.tpot = ts.kept
	}
	return tc
}

// tailStats is what the tail-cut guard measures of a window, independent
// of the parameters: the ITL's σ/μ and |μ − m|/μ, the tail's size and the
// TPOT summary without the tail (nil when nothing is kept); reason is set
// when the guard cannot be evaluated at all.
type tailStats struct {
	cov, skew float64
	nTail     int
	kept      *stats.Summary
	reason    string
}

// computeTailStats measures the window w (super-passes winLo… of size S)
// of the run's samples s, whose last issue is lastIssue; samples excluded
// from the rollup (exclude, nil for none) are left out; sc is scratch.
//
// When w's super-passes carry their sorted TPOT lists (a Run's rollup)
// and every TPOT is positive, nothing is pooled: the mean is summed list
// by list in pool order, σ and the median are taken from the sorted
// lists, and the kept summary is of the sorted lists less the tail's
// TPOTs (tailStatsFromLists). Otherwise the window's TPOTs are pooled
// (tailStatsPooled). Both give the same bits.
func computeTailStats(w []SuperPass, s *Samples, S, winLo int, lastIssue int64, exclude []bool, sc *scratch) *tailStats {
	if sorted, n := sortedListsOf(w, SourceTPOT, sc.lists[:0]); sorted != nil && positiveLists(sorted) {
		sc.lists = sorted[:0]
		if ts, ok := tailStatsFromLists(w, sorted, n, s, S, winLo, lastIssue, exclude, sc); ok {
			return ts
		}
	}
	return tailStatsPooled(w, s, S, winLo, lastIssue, exclude, sc)
}

// tailStatsFromLists is computeTailStats from the window's sorted TPOT
// lists (n values, positive); ok is false when a tail TPOT is not found
// in its super-pass's list (a window not of this run's rollup).
func tailStatsFromLists(w []SuperPass, sorted [][]float64, n int, s *Samples, S, winLo int, lastIssue int64,
	exclude []bool, sc *scratch) (*tailStats, bool) {
	ts := &tailStats{cov: math.NaN(), skew: math.NaN()}
	if n < 2 {
		ts.reason = "fewer than two samples with an inter-token latency"
		return ts, true
	}
	var sum stats.Summer // stats.Mean of the pool: its sum in pool order
	for i := range w {
		sum.Add(w[i].TPOT)
	}
	mu := sum.Sum() / float64(n)
	ts.cov = stats.PStdevLists(sorted) / mu
	ranks, mid := []int{n / 2}, []float64{0}
	if n%2 == 0 {
		ranks, mid = []int{n/2 - 1, n / 2}, []float64{0, 0}
	}
	listsOrderStats(sorted, n, ranks, mid, sc)
	median := mid[0]
	if n%2 == 0 {
		median = (mid[0] + mid[1]) / 2 // FloatSorter.Median's; positive, so no zero's sign to settle
	}
	ts.skew = math.Abs(mu-median) / mu

	// The kept lists: each super-pass's sorted TPOTs less its tail's.
	kept := make([][]float64, 0, len(w))
	nKept := 0
	for k := range w {
		lo, hi := (winLo+k)*S, min((winLo+k+1)*S, s.Len())
		tail := sc.aux[:0]
		for i := lo; i < hi; i++ {
			if at(exclude, i, false) || !at(s.HasComplete, i, false) || at(s.CompleteNs, i, 0) <= lastIssue {
				continue
			}
			ts.nTail++
			if tok := at(s.OutTokens, i, -1); tok > 0 && at(s.HasFirstToken, i, false) {
				tail = append(tail, float64(at(s.CompleteNs, i, 0)-at(s.FirstTokenNs, i, 0))/float64(tok))
			}
		}
		sc.aux = tail
		l := w[k].pct.sortedTPOT
		if len(tail) > 0 {
			var ok bool
			if l, ok = without(l, tail, &sc.fs); !ok {
				return nil, false
			}
		}
		if len(l) > 0 {
			kept, nKept = append(kept, l), nKept+len(l)
		}
	}
	if nKept > 0 && ts.nTail > 0 {
		sum := summarizeLists(kept, nil, nil)
		ts.kept = &sum
	}
	return ts, true
}

// without returns the ascending list l less one occurrence of each value
// of drop (sorted here), in a new slice; ok is false when a value of drop
// is not in l.
func without(l, drop []float64, fs *stats.FloatSorter) ([]float64, bool) {
	fs.Sort(drop)
	out := make([]float64, 0, len(l)-min(len(drop), len(l)))
	j := 0
	for _, x := range l {
		if j < len(drop) && x == drop[j] {
			j++
			continue
		}
		out = append(out, x)
	}
	return out, j == len(drop)
}

// tailStatsPooled is computeTailStats over the pooled TPOTs of w.
func tailStatsPooled(w []SuperPass, s *Samples, S, winLo int, lastIssue int64, exclude []bool, sc *scratch) *tailStats {
	ts := &tailStats{cov: math.NaN(), skew: math.NaN()}
	itl := sc.pooled(w, func(sp *SuperPass) []float64 { return sp.TPOT })
	if len(itl) < 2 {
		ts.reason = "fewer than two samples with an inter-token latency"
		return ts
	}
	mu := stats.Mean(itl)
	ts.cov = stats.PStdev(itl) / mu
	ts.skew = math.Abs(mu-sc.fs.Median(itl)) / mu
	lo, hi := winLo*S, min((winLo+len(w))*S, s.Len())
	kept := growFloats(sc.aux, len(itl)) // at most the window's TPOTs
	for i := lo; i < hi; i++ {
		if at(exclude, i, false) {
			continue
		}
		tok := at(s.OutTokens, i, -1)
		hasTPOT := tok > 0 && at(s.HasFirstToken, i, false) && at(s.HasComplete, i, false)
		if at(s.HasComplete, i, false) && at(s.CompleteNs, i, 0) > lastIssue {
			ts.nTail++
			continue
		}
		if hasTPOT {
			kept = append(kept, float64(at(s.CompleteNs, i, 0)-at(s.FirstTokenNs, i, 0))/float64(tok))
		}
	}
	sc.aux = kept
	if len(kept) > 0 && ts.nTail > 0 {
		sum := sc.fs.SummarizeInPlace(kept)
		ts.kept = &sum
	}
	return ts
}
