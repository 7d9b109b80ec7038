package core

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// SuperPass is the rollup of one super-pass (detector spec §4): the samples
// of issue rank k·S … k·S+S−1, with their measurement lists in the orders
// the reference builds them (§3.7), because the compensated sums of later
// stages depend on that order:
//
//	TTFT, TTFTWarm  file order of each sample's first recv_first
//	Latency         file order of the COMPLETE events
//	TPOT            file order of the COMPLETE events of TPOT samples
//
// Timestamps are int64 nanoseconds; FirstIssueNs, LastIssueNs and
// LastEventNs are −1 when unset. Lists may be empty.
//
// Those orders are what Rollup returns. A Run's own rollups hold TTFT,
// TTFTWarm and Latency sorted ascending instead (rollupOptions.sortedTimes):
// every stage takes only order statistics of them, and the sorted lists
// the stages need are then the lists themselves, not a copy beside them.
// Their TTFTWarm is empty unless it is TTFT itself: only its percentiles
// are read, and those are taken while the rollup is built.
type SuperPass struct {
	// Index is the position in the full series (warmup included).
	Index int
	// NIssued is the number of samples created in the super-pass.
	NIssued int
	// FirstIssueNs is the first-seen issue time (not the minimum).
	FirstIssueNs int64
	// LastIssueNs is the maximum issue time, retries included.
	LastIssueNs int64
	// LastEventNs is the maximum over the samples' issues, retries, first
	// tokens and timestamped completions.
	LastEventNs int64
	// TTFT is double(first token − issue) per sample with a first token.
	TTFT []float64
	// TTFTWarm holds the TTFTs of warm turns (turn null or > 1).
	TTFTWarm []float64
	// TPOT is double(complete − first token)/double(tokens) per sample
	// with a first token, a completion and a positive post-first-chunk
	// token count.
	TPOT []float64
	// Latency is double(complete − issue) per timestamped completion.
	Latency []float64
	// OutTokens is the sum of the TPOT samples' token counts.
	OutTokens int64
	// SysTokens is the output-token count of the successful completions,
	// the numerator of steadysweep's system throughput: the whole output's
	// count where the log records it (RunInfo.TokensRecorded) or the
	// decoder counts it (the first chunk plus the text after it; a
	// non-streamed output whole), see systemTokens.
	SysTokens int64
	// NCompleted counts the successful completions (timestamped COMPLETE,
	// not failed, not excluded); NFailed the failed samples issued in the
	// super-pass.
	NCompleted, NFailed int

	// pct caches the per-metric percentiles (see metricPercentiles); nil
	// when the SuperPass was built by hand.
	pct *spPercentiles
}

// Rollup buckets the samples into super-passes of S samples by issue rank
// (detector spec §4: sample k belongs to super-pass k/S; the partial last
// super-pass is kept). It returns nil if S ≤ 0 or there are no samples.
//
// The TPOT of a sample is one IEEE division of two doubles,
//
//	TPOT = double(CompleteNs − FirstTokenNs) / double(OutTokens)
//
// and exists iff HasFirstToken, HasComplete and OutTokens > 0 (§3.8).
// Rollup also caches each super-pass's sorted lists' percentiles. A Run
// builds its own rollups (one per super-pass size); Rollup is exported for
// inspecting them.
func Rollup(s *Samples, S int) []SuperPass { return rollupOf(s, S, rollupOptions{}) }

// rollupOptions are what steadysweep's rollup changes: samples whose
// measurements are left out of every list (failed requests, impossible
// timing) while they still count as issued, and whether the log records
// token counts (SysTokens).
type rollupOptions struct {
	// exclude[i] leaves sample i's TTFT, TPOT, latency and tokens out; its
	// issue times still count, its other timestamps only when it failed
	// (a sample with impossible timing may hold the impossible ones). nil
	// excludes nothing (the reference).
	exclude []bool
	// sortedTimes builds TTFT and Latency sorted (rollupSorted), instead
	// of in file order with sorted copies beside them (saving 16 bytes a
	// sample, and their file orders), and keeps no warm TTFT list apart
	// from TTFT (8 more on multi-turn runs). TPOT keeps its file order:
	// its compensated sums depend on it.
	sortedTimes bool
	// room is where the lists' memory comes from (Run.Floats; nil: make).
	room func(n int) []float64
}

// rollupOf is Rollup under opts.
func rollupOf(s *Samples, S int, opts rollupOptions) []SuperPass {
	if s == nil || S <= 0 {
		return nil
	}
	n := s.Len()
	if n == 0 {
		return nil
	}
	nsp := n / S
	if n%S != 0 {
		nsp++
	}
	out := make([]SuperPass, nsp)
	pcts := make([]spPercentiles, nsp)
	lists := 7 // per sample at most: TTFT, warm TTFT, latency, TPOT and the sorted copies of all but the warm
	if opts.sortedTimes {
		lists = 4 // no warm list apart, TPOT's sorted copy alone
	}
	// Two halves of the super-passes on two goroutines when the run is
	// large (a super-pass depends only on its own samples): the rollup is
	// a third of a warm analyze's CPU on the 185 MB streamed log, spent
	// while the other core is idle.
	parts := 1
	if n >= rollupParallelMin && nsp >= 2 {
		parts = 2
	}
	kMid := (nsp + 1) / 2
	var block []float64
	if opts.room != nil && opts.sortedTimes {
		block = opts.room(lists * n)[:lists*n] // the bound is tight: one block, split at kMid
	}
	part := func(kLo, kHi int) {
		lo, hi := kLo*S, min(kHi*S, n)
		b := rollupBuffers{arena: floatArena{chunk: min(lists*(hi-lo), 1<<17), room: opts.room}}
		// Sized once for a super-pass (grown by append they left every
		// smaller size behind as garbage, fresh pages each).
		m := min(S, hi-lo)
		if block != nil {
			b.arena.free = block[lists*lo : lists*hi]
		}
		if opts.sortedTimes {
			b.listKeys, b.seqs = make([]uint64, 0, m), make([]int64, 0, m)
		} else {
			b.order, b.seqs, b.tpot = make([]int, 0, m), make([]int64, 0, m), make([]float64, 0, m)
		}
		rollupRange(s, S, opts, out, pcts, kLo, kHi, &b)
	}
	if parts == 1 {
		part(0, nsp)
		return out
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		part(kMid, nsp)
	}()
	part(0, kMid)
	<-done
	return out
}

// rollupParallelMin is the fewest samples rollupOf splits over two
// goroutines (below, a goroutine costs more than it saves).
const rollupParallelMin = 1 << 14

// rollupRange fills out[kLo:kHi] and their percentiles pcts[kLo:kHi]
// (rollupOf's loop) with b's buffers.
func rollupRange(s *Samples, S int, opts rollupOptions, out []SuperPass, pcts []spPercentiles, kLo, kHi int, b *rollupBuffers) {
	n := s.Len()
	for k := kLo; k < kHi; k++ {
		lo, hi := k*S, min((k+1)*S, n)
		sp := &out[k]
		sp.Index = k
		sp.NIssued = hi - lo
		sp.FirstIssueNs = at(s.IssueNs, lo, -1)
		sp.pct = &pcts[k]
		if opts.sortedTimes {
			rollupSorted(s, lo, hi, opts, sp, b)
		} else {
			rollupFileOrder(s, lo, hi, opts, sp, b)
		}
	}
}

// rollupFileOrder fills sp, the super-pass of samples [lo, hi) (its
// index, size and first issue set), with its lists in file order
// (Rollup).
func rollupFileOrder(s *Samples, lo, hi int, opts rollupOptions, sp *SuperPass, b *rollupBuffers) {
	sp.LastIssueNs, sp.LastEventNs = -1, -1
	for i := lo; i < hi; i++ {
		last := at(s.LastIssueNs, i, at(s.IssueNs, i, -1))
		sp.LastIssueNs = max(sp.LastIssueNs, last)
		if at(opts.exclude, i, false) && !at(s.Failed, i, false) {
			sp.LastEventNs = max(sp.LastEventNs, last) // impossible timing: only its issues are trusted
		} else {
			sp.LastEventNs = max(sp.LastEventNs, at(s.LastEventNs, i, at(s.IssueNs, i, -1)))
		}
		if at(s.Failed, i, false) {
			sp.NFailed++
		}
	}

	// TTFT and warm TTFT in first-token order. Warm TTFTs are all
	// of them on a single-turn run: the same list then.
	order := b.seqOrder(lo, hi, s.HasFirstToken, s.FirstTokenSeq, opts.exclude)
	sp.TTFT = b.arena.take(len(order))
	nWarm := 0
	for j, i := range order {
		sp.TTFT[j] = float64(at(s.TTFTNs, i, 0))
		if at(s.WarmTTFT, i, true) {
			nWarm++
		}
	}
	switch nWarm {
	case 0:
	case len(order):
		sp.TTFTWarm = sp.TTFT
	default:
		sp.TTFTWarm = b.arena.take(nWarm)[:0]
		for j, i := range order {
			if at(s.WarmTTFT, i, true) {
				sp.TTFTWarm = append(sp.TTFTWarm, sp.TTFT[j])
			}
		}
	}

	// Latency and TPOT in completion order.
	order = b.seqOrder(lo, hi, s.HasComplete, s.CompleteSeq, opts.exclude)
	sp.Latency = b.arena.take(len(order))
	tpot := b.tpot[:0]
	for j, i := range order {
		sp.Latency[j] = float64(at(s.LatencyNs, i, 0))
		tok := at(s.OutTokens, i, -1)
		if tok > 0 && at(s.HasFirstToken, i, false) {
			delta := float64(at(s.CompleteNs, i, 0) - at(s.FirstTokenNs, i, 0))
			tpot = append(tpot, delta/float64(tok))
			sp.OutTokens += tok
		}
		if !at(s.Failed, i, false) {
			sp.NCompleted++
			sp.SysTokens += systemTokens(s, i)
		}
	}
	b.tpot = tpot
	if len(tpot) > 0 {
		sp.TPOT = b.arena.take(len(tpot))
		copy(sp.TPOT, tpot)
	}
	fillPercentiles(sp, sp.pct, &b.sorter, &b.arena, &b.warm)
}

// rollupBuffers are what rollupOf reuses from one super-pass to the next:
// the sample order, its sort keys, the TPOT list being built, the warm
// TTFTs being sorted, the sorter, and the arena the super-passes' lists
// are cut from.
type rollupBuffers struct {
	order  []int
	sorted []int    // seqOrder's sorted order, swapped with order
	seqs   []int64  // the sequence numbers stableBySeq sorts by (its counts are the sorter's)
	keys   []uint64 // stableBySeq's packed keys
	// listKeys are rollupSorted's sort keys of one list at a time.
	listKeys []uint64
	tpot     []float64
	warm     []float64
	sorter   stats.FloatSorter
	arena    floatArena
}

// seqOrder returns the samples i in [lo, hi) with has[i] and not
// excluded, ordered by seq[i] (default i), ties in sample order: what a
// stable sort by seq of the samples in sample order gives. The slice is
// reused by the next call.
func (b *rollupBuffers) seqOrder(lo, hi int, has []bool, seq []int64, exclude []bool) []int {
	order, seqs := b.order[:0], b.seqs[:0]
	for i := lo; i < hi; i++ {
		if at(has, i, false) && !at(exclude, i, false) {
			order = append(order, i)
			seqs = append(seqs, at(seq, i, int64(i)))
		}
	}
	b.order, b.seqs = order, seqs
	if !seqSorted(seqs) {
		b.sorted = slices.Grow(b.sorted[:0], len(order))[:len(order)]
		stableBySeq(b.sorted, order, seqs, b)
		b.order, b.sorted = b.sorted, order
	}
	return b.order
}

// seqSorted reports whether seqs is ascending.
func seqSorted(seqs []int64) bool {
	for j := 1; j < len(seqs); j++ {
		if seqs[j] < seqs[j-1] {
			return false
		}
	}
	return true
}

// stableBySeq sets dst (as long as src, not overlapping it) to src
// stably sorted by seqs (seqs[j] is src[j]'s sequence number): by
// counting when the numbers span a few per value, as a super-pass's
// event ordinals do (its events interleave with those of the samples in
// flight beside it), else by sorting (seq, position) packed into one key
// when it fits (the keys are distinct, so any sort is the stable one),
// else by a stable comparison sort.
func stableBySeq[T any](dst, src []T, seqs []int64, b *rollupBuffers) {
	if len(src) == 0 {
		return
	}
	minSeq, maxSeq := slices.Min(seqs), slices.Max(seqs)
	span := uint64(maxSeq) - uint64(minSeq)
	if span < uint64(countingSpanMax*len(src)) {
		count := b.sorter.Counts(int(span) + 2) // cleared; room for the next super-passes' spans
		for _, q := range seqs {
			count[q-minSeq+1]++
		}
		for q := 1; q < len(count); q++ {
			count[q] += count[q-1]
		}
		for j, q := range seqs {
			dst[count[q-minSeq]] = src[j]
			count[q-minSeq]++
		}
		return
	}
	idxBits := bits.Len(uint(len(src) - 1))
	if bits.Len64(span)+idxBits > 64 {
		perm := make([]int, len(src))
		for j := range perm {
			perm[j] = j
		}
		slices.SortStableFunc(perm, func(x, y int) int { return cmp.Compare(seqs[x], seqs[y]) })
		for j, p := range perm {
			dst[j] = src[p]
		}
		return
	}
	keys := b.keys[:0]
	for j, q := range seqs {
		keys = append(keys, (uint64(q)-uint64(minSeq))<<idxBits|uint64(j))
	}
	b.sorter.SortUint64(keys)
	for j, key := range keys {
		dst[j] = src[key&(1<<idxBits-1)]
	}
	b.keys = keys
}

// countingSpanMax bounds the span of sequence numbers, per value, that
// stableBySeq sorts by counting: a count per number in the span, so the
// counts cost about as much as the values up to a few per value.
const countingSpanMax = 8

// floatArena cuts float64 slices out of a few large allocations: a
// rollup's lists live as long as the rollup, and as one block they cost
// the allocator and the collector a few objects instead of seven per
// super-pass.
type floatArena struct {
	free  []float64
	chunk int                   // the size of the next block (at least what is asked)
	room  func(n int) []float64 // where blocks come from (Run.Floats; nil: make)
}

// take returns a slice of length and capacity n (appending to it copies).
// Its values are arbitrary when the arena has a room.
func (a *floatArena) take(n int) []float64 {
	if len(a.free) < n {
		size := max(n, a.chunk)
		if a.room != nil {
			a.free = a.room(size)[:size]
		} else {
			a.free = make([]float64, size)
		}
	}
	s := a.free[:n:n]
	a.free = a.free[n:]
	return s
}

// systemTokens is sample i's output-token count for system throughput
// (SuperPass.SysTokens), every output token the request produced (design
// §5.8: system TPS = the window's total output tokens over its span):
// FullTokens, the whole output's count, which the log records (AIPerf,
// GuideLLM, vLLM) or the decoder counts (an endpoints log: the first
// chunk plus the text after it; a non-streamed output whole). Where the
// whole count is missing (sampled tokenization) the post-first-chunk
// count of a streamed sample, else 0. TPOT divides by OutTokens alone,
// the tokens decoded after the first.
func systemTokens(s *Samples, i int) int64 {
	if full := at(s.FullTokens, i, -1); full >= 0 {
		return full
	}
	if !at(s.HasFirstToken, i, false) {
		return 0
	}
	return max(at(s.OutTokens, i, -1), 0)
}

// at returns xs[i], or def when the column is shorter (a missing column).
// i is never negative; the unsigned test tells the compiler so, and
// spares the index its own bounds check.
func at[T any](xs []T, i int, def T) T {
	if uint(i) < uint(len(xs)) {
		return xs[i]
	}
	return def
}

// issueSpanNs is the offered-load span of sps (detector spec §4): the
// largest LastIssueNs minus the smallest FirstIssueNs over the values ≥ 0,
// 0 when either set is empty.
func issueSpanNs(sps []SuperPass) int64 {
	return spanNs(sps, func(sp *SuperPass) int64 { return sp.LastIssueNs })
}

// completionSpanNs is the drain-inclusive span of sps: the largest
// LastEventNs minus the smallest FirstIssueNs (values ≥ 0), 0 when either
// set is empty. The reference computes it but no output uses it.
func completionSpanNs(sps []SuperPass) int64 {
	return spanNs(sps, func(sp *SuperPass) int64 { return sp.LastEventNs })
}

// spanNs is the largest end (of the values ≥ 0) minus the smallest
// FirstIssueNs (likewise) over sps, 0 when either set is empty.
func spanNs(sps []SuperPass, end func(*SuperPass) int64) int64 {
	first, last := int64(-1), int64(-1)
	for i := range sps {
		if f := sps[i].FirstIssueNs; f >= 0 && (first < 0 || f < first) {
			first = f
		}
		if l := end(&sps[i]); l >= 0 && l > last {
			last = l
		}
	}
	if first < 0 || last < 0 {
		return 0
	}
	return last - first
}

// pooled concatenates the list chosen by get over sps in super-pass order.
func pooled(sps []SuperPass, get func(*SuperPass) []float64) []float64 {
	return pooledInto(nil, sps, get)
}

// pooledInto is pooled in buf, emptied and grown when it is too small.
func pooledInto(buf []float64, sps []SuperPass, get func(*SuperPass) []float64) []float64 {
	n := 0
	for i := range sps {
		n += len(get(&sps[i]))
	}
	out := growFloats(buf, n)
	for i := range sps {
		out = append(out, get(&sps[i])...)
	}
	return out
}

// pooledOutTokens is the sum of OutTokens over sps.
func pooledOutTokens(sps []SuperPass) int64 {
	var t int64
	for i := range sps {
		t += sps[i].OutTokens
	}
	return t
}

// sumOver is the sum of one count of each super-pass of sps.
func sumOver[T int | int64](sps []SuperPass, count func(*SuperPass) T) T {
	var t T
	for i := range sps {
		t += count(&sps[i])
	}
	return t
}

// pooledSysTokens is the sum of SysTokens over sps.
func pooledSysTokens(sps []SuperPass) int64 {
	return sumOver(sps, func(sp *SuperPass) int64 { return sp.SysTokens })
}

// countCompleted is the sum of NCompleted over sps.
func countCompleted(sps []SuperPass) int {
	return sumOver(sps, func(sp *SuperPass) int { return sp.NCompleted })
}

// countIssued is the sum of NIssued over sps.
func countIssued(sps []SuperPass) int {
	return sumOver(sps, func(sp *SuperPass) int { return sp.NIssued })
}

// tpotMean is the compensated mean of a super-pass's TPOT list, 0 when empty
// (the reference's per-super-pass TPOT mean for Pettitt and batch means).
func tpotMean(sp *SuperPass) float64 {
	if len(sp.TPOT) == 0 {
		return 0
	}
	return stats.Sum(sp.TPOT) / float64(len(sp.TPOT))
}
