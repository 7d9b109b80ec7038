package core

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestRollupSortedMatchesFileOrder checks rollupSorted against the
// file-order rollup (Rollup's) on random runs with exclusions, failures,
// partial warm lists, samples without a first token or a completion,
// shuffled event orders (near and far) and missing columns: the same
// counts, times and token sums, TTFT and latency as the file-order lists
// sorted, TPOT in the same completion order, the same percentiles of
// every metric (the warm ones included) and TPOT mean.
func TestRollupSortedMatchesFileOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	for trial := range 60 {
		S := 1 + rng.IntN(700)
		s := syntheticSamples(1+rng.IntN(4), S)
		n := s.Len()
		var exclude []bool
		if trial%2 == 0 {
			exclude = make([]bool, n)
		}
		s.Failed = make([]bool, n)
		for i := range n {
			if rng.IntN(12) == 0 {
				s.HasFirstToken[i] = false
			}
			if rng.IntN(12) == 0 {
				s.HasComplete[i] = false
			}
			s.WarmTTFT[i] = trial%3 != 0 || rng.IntN(4) > 0
			s.Failed[i] = rng.IntN(15) == 0
			if exclude != nil {
				exclude[i] = s.Failed[i] || rng.IntN(20) == 0
			}
			switch trial % 4 {
			case 1: // completions displaced by a few hundred
				s.CompleteSeq[i] += int64(rng.IntN(900))
			case 2: // one far away: too wide a span to count
				s.CompleteSeq[i] = int64(rng.Uint32())
			}
			if rng.IntN(50) == 0 {
				s.OutTokens[i] = 0
			}
		}
		switch trial % 5 { // a missing column: its default
		case 1:
			s.WarmTTFT = nil
		case 2:
			s.Failed = s.Failed[:n/2]
		case 3:
			s.LastIssueNs = nil
		}
		opts := rollupOptions{exclude: exclude}
		want := rollupOf(s, S, opts)
		opts.sortedTimes = true
		got := rollupOf(s, S, opts)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d super-passes, want %d", trial, len(got), len(want))
		}
		for k := range want {
			g, w := got[k], want[k]
			if !slices.Equal(g.TTFT, slices.Sorted(slices.Values(w.TTFT))) ||
				!slices.Equal(g.Latency, slices.Sorted(slices.Values(w.Latency))) || !slices.Equal(g.TPOT, w.TPOT) {
				t.Fatalf("trial %d sp %d: lists differ", trial, k)
			}
			if !reflect.DeepEqual(g.pct.v, w.pct.v) || g.pct.ok != w.pct.ok || g.pct.tpotMean != w.pct.tpotMean ||
				!slices.Equal(g.pct.sortedTPOT, w.pct.sortedTPOT) {
				t.Fatalf("trial %d sp %d: percentiles %+v, want %+v", trial, k, g.pct, w.pct)
			}
			g.TTFT, g.TTFTWarm, g.TPOT, g.Latency, g.pct = nil, nil, nil, nil, nil
			w.TTFT, w.TTFTWarm, w.TPOT, w.Latency, w.pct = nil, nil, nil, nil, nil
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("trial %d sp %d: %+v, want %+v", trial, k, g, w)
			}
		}
	}
}
