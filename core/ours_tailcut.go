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

// tailCutOf evaluates the guard over the reported window of r and, when it
// holds, the TPOT summary without the tail.
func tailCutOf(r *Result, s *Samples, p Params) TailCut {
	o := r.Ours
	tc := TailCut{CoV: math.NaN(), Skew: math.NaN()}
	w := r.all[o.WinLo:o.WinHi]
	itl := pooled(w, func(sp *SuperPass) []float64 { return sp.TPOT })
	if len(itl) < 2 {
		tc.Reason = "fewer than two samples with an inter-token latency"
		return tc
	}
	mu := stats.Mean(itl)
	tc.CoV = stats.PStdev(itl) / mu
	tc.Skew = math.Abs(mu-stats.Median(itl)) / mu
	if s == nil {
		tc.Reason = "per-sample completion times unavailable (rollups only)"
		return tc
	}
	var lastIssue int64 = -1
	for _, t := range s.IssueNs {
		lastIssue = max(lastIssue, t)
	}
	S := r.SuperpassSize
	lo, hi := o.WinLo*S, min(o.WinHi*S, s.Len())
	var kept []float64
	for i := lo; i < hi; i++ {
		tok := at(s.OutTokens, i, -1)
		hasTPOT := tok > 0 && at(s.HasFirstToken, i, false) && at(s.HasComplete, i, false)
		if at(s.HasComplete, i, false) && at(s.CompleteNs, i, 0) > lastIssue {
			tc.NTail++
			continue
		}
		if hasTPOT {
			kept = append(kept, float64(at(s.CompleteNs, i, 0)-at(s.FirstTokenNs, i, 0))/float64(tok))
		}
	}
	switch {
	case !(tc.CoV <= p.TailCutEps):
		tc.Reason = "ITL not per-sample invariant: σ/μ above tail_cut_eps; tail kept"
	case !(tc.Skew <= p.TailCutDelta):
		tc.Reason = "ITL skewed: |μ − m|/μ above tail_cut_delta; tail kept"
	case tc.NTail == 0:
		tc.Reason = "no window sample in flight at issuance stop"
	case len(kept) == 0:
		tc.Reason = "the whole window is tail; tail kept"
	default:
		tc.Applied = true
		sum := stats.Summarize(kept)
		tc.tpot = &sum
	}
	return tc
}
