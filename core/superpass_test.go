package core

import (
	"cmp"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// sampleSpec is one sample of a hand-built Samples: issue, first token
// (−1: none), completion (−1: none), post-first-chunk word count (−1: none),
// warm flag, and the file line ordinals of its first token and completion.
type sampleSpec struct {
	issue, first, complete int64
	tokens                 int64
	warm                   bool
	firstSeq, completeSeq  int64
}

func buildSamples(specs []sampleSpec) *Samples {
	s := &Samples{}
	for _, sp := range specs {
		s.IssueNs = append(s.IssueNs, sp.issue)
		s.LastIssueNs = append(s.LastIssueNs, sp.issue)
		last := max(sp.issue, sp.first, sp.complete)
		s.LastEventNs = append(s.LastEventNs, last)
		appendSpecEvent(&s.HasFirstToken, &s.FirstTokenNs, &s.TTFTNs, sp.issue, sp.first)
		s.WarmTTFT = append(s.WarmTTFT, sp.warm)
		s.FirstTokenSeq = append(s.FirstTokenSeq, sp.firstSeq)
		appendSpecEvent(&s.HasComplete, &s.CompleteNs, &s.LatencyNs, sp.issue, sp.complete)
		s.CompleteSeq = append(s.CompleteSeq, sp.completeSeq)
		s.OutTokens = append(s.OutTokens, sp.tokens)
	}
	return s
}

// appendSpecEvent appends a sampleSpec event at ns (−1: none) to its
// three columns: whether it happened, its time and its time since issue
// (0, 0 when it did not).
func appendSpecEvent(has *[]bool, at, sinceIssue *[]int64, issue, ns int64) {
	*has = append(*has, ns >= 0)
	*at = append(*at, max(ns, 0))
	since := int64(0)
	if ns >= 0 {
		since = ns - issue
	}
	*sinceIssue = append(*sinceIssue, since)
}

// TestRollupBucketsByIssueOrder is upstream
// test_build_super_pass_series_buckets_by_issue_order (S = 2): A, B in
// super-pass 0, C in super-pass 1; lines: A issued 1, B issued 2, B first
// 3, A first 4, B complete 5 ("y y y"), A complete 6 ("b b"), C 7–9.
func TestRollupBucketsByIssueOrder(t *testing.T) {
	s := buildSamples([]sampleSpec{
		{issue: 1000, first: 1500, complete: 3000, tokens: 2, warm: true, firstSeq: 4, completeSeq: 6},
		{issue: 1100, first: 1300, complete: 2100, tokens: 3, warm: true, firstSeq: 3, completeSeq: 5},
		{issue: 1200, first: 1400, complete: 2000, tokens: 1, warm: true, firstSeq: 8, completeSeq: 9},
	})
	sps := Rollup(s, 2)
	if len(sps) != 2 || sps[0].NIssued != 2 || sps[1].NIssued != 1 {
		t.Fatalf("rollup %+v", sps)
	}
	// File order of first tokens: B (200) then A (500).
	if !slices.Equal(sps[0].TTFT, []float64{200, 500}) {
		t.Errorf("ttft %v", sps[0].TTFT)
	}
	// Completion order: B 800/3, then A 1500/2 = 750.
	if !slices.Equal(sps[0].TPOT, []float64{800.0 / 3.0, 750}) || math.Round(sps[0].TPOT[0]*100)/100 != 266.67 {
		t.Errorf("tpot %v", sps[0].TPOT)
	}
	if sps[0].OutTokens != 5 || !slices.Equal(sps[1].TTFT, []float64{200}) {
		t.Errorf("out tokens %d, sp1 ttft %v", sps[0].OutTokens, sps[1].TTFT)
	}
	if sps[0].FirstIssueNs != 1000 || sps[0].LastIssueNs != 1100 || sps[0].LastEventNs != 3000 {
		t.Errorf("timestamps %d %d %d", sps[0].FirstIssueNs, sps[0].LastIssueNs, sps[0].LastEventNs)
	}
	if !slices.Equal(sps[0].Latency, []float64{1000, 2000}) {
		t.Errorf("latency %v (completion order B, A)", sps[0].Latency)
	}
}

// TestRollupLatencyWarmAndPooling covers upstream
// test_build_super_pass_series_records_e2e_latency,
// test_warm_turn_ttft_excludes_cold_first_turn and
// test_window_elapsed_and_pooling.
func TestRollupLatencyWarmAndPooling(t *testing.T) {
	one := Rollup(buildSamples([]sampleSpec{{1000, 1500, 3000, 2, true, 1, 2}}), 4)
	if !slices.Equal(one[0].Latency, []float64{2000}) {
		t.Errorf("latency %v", one[0].Latency)
	}
	warm := Rollup(buildSamples([]sampleSpec{
		{1000, 1200, 3000, 1, false, 1, 2}, // turn 1: cold
		{1100, 1150, 2000, 1, true, 4, 5},  // turn 2: warm
	}), 4)
	if !slices.Equal(warm[0].TTFT, []float64{200, 50}) || !slices.Equal(warm[0].TTFTWarm, []float64{50}) {
		t.Errorf("ttft %v warm %v", warm[0].TTFT, warm[0].TTFTWarm)
	}
	two := Rollup(buildSamples([]sampleSpec{
		{1000, 1500, 3000, 2, true, 1, 2},
		{11000, 11500, 13000, 3, true, 4, 5},
	}), 1)
	if len(two) != 2 {
		t.Fatalf("%d super-passes", len(two))
	}
	ttft := pooled(two, func(sp *SuperPass) []float64 { return sp.TTFT })
	if !slices.Equal(ttft, []float64{500, 500}) || pooledOutTokens(two) != 5 || completionSpanNs(two) != 12000 {
		t.Errorf("pooled %v tokens %d elapsed %d", ttft, pooledOutTokens(two), completionSpanNs(two))
	}
}

// TestRollupEdgeCases: no TPOT without a first token or with a zero count,
// a partial last super-pass, and no panic on empty or short columns.
func TestRollupEdgeCases(t *testing.T) {
	s := buildSamples([]sampleSpec{
		{0, -1, 100, -1, true, -1, 1}, // non-streaming: latency only
		{10, 20, 120, 0, true, 2, 3},  // zero-count text: no TPOT
		{30, 40, 130, 4, true, 4, 5},
	})
	sps := Rollup(s, 2)
	if len(sps) != 2 || len(sps[0].TPOT) != 0 || len(sps[0].Latency) != 2 || len(sps[0].TTFT) != 1 ||
		sps[1].NIssued != 1 || !slices.Equal(sps[1].TPOT, []float64{22.5}) {
		t.Errorf("rollup %+v", sps)
	}
	if Rollup(&Samples{}, 4) != nil || Rollup(s, 0) != nil || Rollup(nil, 3) != nil {
		t.Error("degenerate input gave super-passes")
	}
	short := &Samples{IssueNs: []int64{5, 6, 7}}
	if got := Rollup(short, 2); len(got) != 2 || got[0].FirstIssueNs != 5 || got[0].LastIssueNs != 6 {
		t.Errorf("short columns: %+v", got)
	}
}

// TestSeqOrderIsStableSort checks rollupOf's sample order against a stable
// sort by seq of the selected samples: ties, negative and huge seqs (the
// packed keys' fallback), missing columns, exclusions, presorted input.
func TestSeqOrderIsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	var b rollupBuffers
	for trial := range 400 {
		n := 1 + rng.IntN(1500)
		lo := rng.IntN(n)
		hi := lo + 1 + rng.IntN(n-lo)
		has := make([]bool, max(n-rng.IntN(3), 0)) // sometimes short: a missing tail
		seq := make([]int64, max(n-rng.IntN(3), 0))
		var exclude []bool
		if trial%3 == 0 {
			exclude = make([]bool, n)
		}
		for i := range has {
			has[i] = rng.IntN(8) > 0
		}
		for i := range seq {
			switch trial % 5 {
			case 0:
				seq[i] = int64(rng.IntN(20)) // ties
			case 1:
				seq[i] = int64(i) // presorted
			case 2:
				seq[i] = int64(rng.Uint64()) // span too wide to pack
			default:
				seq[i] = int64(i + rng.IntN(40) - 20)
			}
		}
		for i := range exclude {
			exclude[i] = rng.IntN(10) == 0
		}
		var want []int
		for i := lo; i < hi; i++ {
			if at(has, i, false) && !at(exclude, i, false) {
				want = append(want, i)
			}
		}
		slices.SortStableFunc(want, func(x, y int) int {
			return cmp.Compare(at(seq, x, int64(x)), at(seq, y, int64(y)))
		})
		got := b.seqOrder(lo, hi, has, seq, exclude)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d [%d, %d): seqOrder = %v, want %v", trial, lo, hi, got, want)
		}
	}
}

// TestRunRollupSortsTimesInPlace: a Run's rollup holds each super-pass's
// TTFT and latency lists sorted (they are the percentile cache's sorted
// lists, no copies) with the values Rollup gives in file order, no
// partial warm TTFT list, TPOT in file order beside its sorted copy, and
// the same per-metric percentiles (the warm ones included) and TPOT mean
// as Rollup's cache.
func TestRunRollupSortsTimesInPlace(t *testing.T) {
	s := syntheticSamples(6, 40)
	for i := range s.WarmTTFT {
		s.WarmTTFT[i] = i%3 != 0 // a partial warm list: its own slice
	}
	// Shuffle the event order so file order is not issue order.
	for i := range s.FirstTokenSeq {
		s.FirstTokenSeq[i] = int64((i * 17) % len(s.FirstTokenSeq))
		s.CompleteSeq[i] = int64((i * 29) % len(s.CompleteSeq))
	}
	want := Rollup(s, 40)
	got := NewRun(s, RunInfo{}).rollup(40)
	if len(got.sps) != len(want) {
		t.Fatalf("%d super-passes, want %d", len(got.sps), len(want))
	}
	sortedOf := func(xs []float64) []float64 { return slices.Sorted(slices.Values(xs)) }
	same := func(a, b []float64) bool { return len(a) > 0 && &a[0] == &b[0] && len(a) == len(b) }
	for k := range want {
		g, w := &got.sps[k], &want[k]
		if slices.IsSorted(w.TTFT) || slices.IsSorted(w.Latency) {
			t.Fatalf("sp %d: the file-order lists are already sorted; the test shows nothing", k)
		}
		if len(w.TTFTWarm) == 0 || len(w.TTFTWarm) == len(w.TTFT) || g.TTFTWarm != nil {
			t.Errorf("sp %d: warm TTFT %d of %d kept as %v, want a partial list not kept", k, len(w.TTFTWarm), len(w.TTFT), g.TTFTWarm)
		}
		for _, l := range []struct {
			name      string
			got, want []float64
		}{{"ttft", g.TTFT, w.TTFT}, {"latency", g.Latency, w.Latency}} {
			if !slices.Equal(l.got, sortedOf(l.want)) {
				t.Errorf("sp %d %s: %v, want sorted %v", k, l.name, l.got, l.want)
			}
		}
		if !slices.Equal(g.TPOT, w.TPOT) {
			t.Errorf("sp %d: tpot %v, want file order %v", k, g.TPOT, w.TPOT)
		}
		if !same(g.pct.sortedTTFT, g.TTFT) || !same(g.pct.sortedLatency, g.Latency) || same(g.pct.sortedTPOT, g.TPOT) {
			t.Errorf("sp %d: the sorted TTFT and latency lists are not the lists themselves, or TPOT's is", k)
		}
		if g.pct.v != w.pct.v || g.pct.ok != w.pct.ok || g.pct.tpotMean != w.pct.tpotMean ||
			!slices.Equal(g.pct.sortedTPOT, w.pct.sortedTPOT) {
			t.Errorf("sp %d: percentiles %+v, want %+v", k, g.pct, w.pct)
		}
	}
}

// TestRollupHalvesMatchOneLoop checks the rollup of a run large enough to
// be built in two halves on two goroutines (rollupParallelMin samples)
// against one loop over all its super-passes, field for field, under each
// option set (a room included).
func TestRollupHalvesMatchOneLoop(t *testing.T) {
	const S = 500
	s := syntheticSamples(2*rollupParallelMin/S+3, S)
	room := func(n int) []float64 { return make([]float64, 0, n) }
	for _, opts := range []rollupOptions{{}, {sortedTimes: true}, {sortedTimes: true, room: room}} {
		got := rollupOf(s, S, opts)
		want := make([]SuperPass, len(got))
		pcts := make([]spPercentiles, len(got))
		rollupRange(s, S, opts, want, pcts, 0, len(want), &rollupBuffers{arena: floatArena{chunk: 1 << 17}})
		if len(got) < 2 || !reflect.DeepEqual(got, want) {
			t.Errorf("sortedTimes %v, room %v: the halves' rollup (%d super-passes) differs from one loop's",
				opts.sortedTimes, opts.room != nil, len(got))
		}
	}
}

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
