package core

import (
	"math"
	"slices"
	"testing"
)

// TestNATLPairs is upstream test_build_trajectory_natl: conversation c1
// has two 1 s turns with 2 + 3 words (NATL 2.5, ends at 3e9), c2 one 2 s
// turn with 4 words (NATL 2.0, ends at 2e9).
func TestNATLPairs(t *testing.T) {
	s := &Samples{
		ConversationID: []string{"c1", "c1", "c2"},
		HasComplete:    []bool{true, true, true},
		CompleteNs:     []int64{1_000_000_000, 3_000_000_000, 2_000_000_000},
		LatencyNs:      []int64{1_000_000_000, 1_000_000_000, 2_000_000_000},
		CompleteSeq:    []int64{2, 4, 6},
		FullTokens:     []int64{2, 3, 4},
		IssueNs:        []int64{0, 2_000_000_000, 0},
	}
	pairs := NATLPairs(s)
	if len(pairs) != 2 || pairs[0] != (NATLPair{2_000_000_000, 2.0}) || pairs[1] != (NATLPair{3_000_000_000, 2.5}) {
		t.Errorf("pairs %+v", pairs)
	}
}

// TestNATLSummary is upstream test_build_natl_result_flat_and_varied.
func TestNATLSummary(t *testing.T) {
	var flat, varied []NATLPair
	for i := range 100 {
		flat = append(flat, NATLPair{int64(i), 5})
		varied = append(varied, NATLPair{int64(i), float64(1 + (i/10)*5)})
	}
	r := NATLSummary(flat, 10, []float64{0.10, 0.15})
	if r.NTrajectories != 100 || r.NSuperPasses != 10 || len(r.SPMedian) != 10 || r.AcrossCoV != 0 ||
		!r.Found || r.P50 != 5 {
		t.Errorf("flat: %+v", r)
	}
	r2 := NATLSummary(varied, 10, []float64{0.10, 0.15})
	if !(r2.AcrossCoV > 0.15) || r2.Found {
		t.Errorf("varied: across %v found %v", r2.AcrossCoV, r2.Found)
	}
	// A trailing group shorter than T/2 is dropped: 100 values, T = 30 →
	// groups 30, 30, 30, 10 → 3 kept.
	if r3 := NATLSummary(flat, 30, []float64{0.15}); r3.NSuperPasses != 3 ||
		r3.BatchMeansSEPct != 0 || !slices.Equal(r3.SPMedian, []float64{5, 5, 5}) {
		t.Errorf("T=30: %+v", r3)
	}
	if e := NATLSummary(nil, 32, []float64{0.15}); e.NTrajectories != 0 || e.Found || e.Mean != 0 ||
		math.IsNaN(e.CoV) || e.SPMedian == nil {
		t.Errorf("empty: %+v", e)
	}
}
