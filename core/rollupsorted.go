package core

import "github.com/steadysweep/steadysweep/core/stats"

// rollupSorted fills sp, the super-pass of samples [lo, hi) (its index,
// size and first issue set), for a Run's own rollups
// (rollupOptions.sortedTimes): TTFT and latency are sorted lists, so
// their file orders are never built. One pass over a super-pass's samples
// takes the issue times, the counts and token sums (integers: their order
// does not matter), the TTFT values as their sort keys, the latency
// values, and the TPOTs with their completion ordinals; TPOT, whose
// compensated sums depend on the order, is laid out in completion order
// (stableBySeq), and each list is then sorted from its keys, built in one
// buffer in turn. The values are the file-order rollup's, bit for bit: a
// sorted list does not depend on the order its values came in, as no
// integer converts to a NaN or to −0, and a TPOT (an integer over a
// positive integer) is finite and never −0, as SortKeysTo requires.
//
// Only the TTFT keys, the ordinals and the sorter are heap memory: the
// latency values and TPOT's reordering wait in the arena's room for their
// lists (Run.Floats' huge pages in a command), each key buffer or float
// copy beside them was fresh memory of the size of a super-pass (8 kB at
// 1000 samples, two page faults).
func rollupSorted(s *Samples, lo, hi int, opts rollupOptions, sp *SuperPass, b *rollupBuffers) {
	lastIssue, lastEvent := int64(-1), int64(-1)
	nFailed, nCompleted, nWarm := 0, 0, 0
	var outTokens, sysTokens int64
	keys := b.listKeys[:0]
	// The latency values and the TPOTs in sample order, with the
	// TPOTs' completion ordinals, in the arena's room for their lists
	// (they hold no more values).
	lat, tpot, seqs := b.arena.take(hi - lo)[:0], b.arena.take(hi - lo)[:0], b.seqs[:0]
	for i := lo; i < hi; i++ {
		issue := at(s.IssueNs, i, -1)
		last := at(s.LastIssueNs, i, issue)
		lastIssue = max(lastIssue, last)
		failed := at(s.Failed, i, false)
		if failed {
			nFailed++
		}
		if at(opts.exclude, i, false) {
			if !failed {
				lastEvent = max(lastEvent, last) // impossible timing: only its issues are trusted
			} else {
				lastEvent = max(lastEvent, at(s.LastEventNs, i, issue))
			}
			continue
		}
		lastEvent = max(lastEvent, at(s.LastEventNs, i, issue))
		first := at(s.HasFirstToken, i, false)
		if first {
			keys = append(keys, stats.FloatKey(float64(at(s.TTFTNs, i, 0))))
			if at(s.WarmTTFT, i, true) {
				nWarm++
			}
		}
		if !at(s.HasComplete, i, false) {
			continue
		}
		lat = append(lat, float64(at(s.LatencyNs, i, 0)))
		if tok := at(s.OutTokens, i, -1); tok > 0 && first {
			outTokens += tok
			delta := float64(at(s.CompleteNs, i, 0) - at(s.FirstTokenNs, i, 0))
			tpot = append(tpot, delta/float64(tok))
			seqs = append(seqs, at(s.CompleteSeq, i, int64(i)))
		}
		if !failed {
			nCompleted++
			sysTokens += systemTokens(s, i)
		}
	}
	sp.LastIssueNs, sp.LastEventNs = lastIssue, lastEvent
	sp.NFailed, sp.NCompleted = nFailed, nCompleted
	sp.OutTokens, sp.SysTokens = outTokens, sysTokens
	b.seqs = seqs

	// TPOT in completion order, the room of its sorted list holding the
	// sample order meanwhile. First, so that the counts of stableBySeq's
	// counting sort (the span of the ordinals, a few per value) are the
	// sorter's, grown to that size before its bucket counts (about two a
	// value) need them.
	var sortedTPOT []float64
	if n := len(tpot); n > 0 {
		sp.TPOT = tpot[:n:n] // appending to it copies, as to take's
		sortedTPOT = b.arena.take(n)
		if !seqSorted(seqs) {
			copy(sortedTPOT, tpot)
			stableBySeq(sp.TPOT, sortedTPOT, seqs, b)
		}
	}

	pct := sp.pct
	sp.TTFT = b.arena.take(len(keys))
	b.sorter.SortKeysTo(sp.TTFT, keys)
	pct.set(SourceTTFT, sp.TTFT)
	switch nWarm {
	case 0:
	case len(keys):
		sp.TTFTWarm = sp.TTFT
		pct.set(SourceTTFTWarm, sp.TTFT)
	default:
		// Read once for its percentiles, then dropped.
		warm := b.warm[:0]
		for i := lo; i < hi; i++ {
			if at(s.HasFirstToken, i, false) && !at(opts.exclude, i, false) && at(s.WarmTTFT, i, true) {
				warm = append(warm, float64(at(s.TTFTNs, i, 0)))
			}
		}
		b.sorter.Sort(warm)
		pct.set(SourceTTFTWarm, warm)
		b.warm = warm
	}
	sp.Latency = lat[:len(lat):len(lat)]
	keys = keysOf(keys, lat)
	b.sorter.SortKeysTo(sp.Latency, keys)
	pct.set(SourceLatency, sp.Latency)

	if len(sortedTPOT) > 0 {
		keys = keysOf(keys, sp.TPOT)
		b.sorter.SortKeysTo(sortedTPOT, keys)
		pct.set(SourceTPOT, sortedTPOT)
	}
	b.listKeys = keys
	pct.tpotMean = tpotMean(sp)
}

// keysOf returns buf (its room grown if need be) holding the FloatKeys of
// xs.
func keysOf(buf []uint64, xs []float64) []uint64 {
	if cap(buf) < len(xs) {
		buf = make([]uint64, len(xs))
	}
	buf = buf[:len(xs)]
	for j, x := range xs {
		buf[j] = stats.FloatKey(x)
	}
	return buf
}
