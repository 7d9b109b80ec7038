package core

import "github.com/steadysweep/steadysweep/core/stats"

// rollupSorted fills sp, the super-pass of samples [lo, hi) (its index,
// size and first issue set), for a Run's own rollups
// (rollupOptions.sortedTimes): TTFT and latency are sorted lists, so
// their file orders are never built. One pass over a super-pass's samples
// takes the issue times, the counts and token sums (integers: their order
// does not matter), the TTFT and latency values as their sort keys, which
// are sorted straight into the lists, and the TPOTs with their completion
// ordinals; only TPOT, whose compensated sums depend on the order, is
// then laid out in completion order (stableBySeq). Its values are the
// file-order rollup's, bit for bit: a sorted list does not depend on the
// order its values came in, as no integer converts to a NaN or to −0.
func rollupSorted(s *Samples, lo, hi int, opts rollupOptions, sp *SuperPass, b *rollupBuffers) {
	lastIssue, lastEvent := int64(-1), int64(-1)
	nFailed, nCompleted, nWarm := 0, 0, 0
	var outTokens, sysTokens int64
	ttft, lat := b.ttftKeys[:0], b.latKeys[:0]
	// TPOTs in sample order, with their completion ordinals, in the
	// arena's room for the list (it holds no more values).
	tpot, seqs := b.arena.take(hi - lo)[:0], b.seqs[:0]
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
			ttft = append(ttft, stats.FloatKey(float64(at(s.TTFTNs, i, 0))))
			if at(s.WarmTTFT, i, true) {
				nWarm++
			}
		}
		if !at(s.HasComplete, i, false) {
			continue
		}
		lat = append(lat, stats.FloatKey(float64(at(s.LatencyNs, i, 0))))
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
	b.ttftKeys, b.latKeys, b.seqs = ttft, lat, seqs

	pct := sp.pct
	sp.TTFT = b.arena.take(len(ttft))
	b.sorter.SortKeysTo(sp.TTFT, ttft)
	pct.set(SourceTTFT, sp.TTFT)
	switch nWarm {
	case 0:
	case len(ttft):
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
	sp.Latency = b.arena.take(len(lat))
	b.sorter.SortKeysTo(sp.Latency, lat)
	pct.set(SourceLatency, sp.Latency)

	// TPOT in completion order, then sorted, both through the values'
	// keys in the TTFT and latency keys' buffers, free once those lists
	// are sorted (a float copy and the sorter's own keys were 36 kB of
	// fresh memory a rollup). A TPOT is finite and never −0 (an integer
	// over a positive integer), as SortKeysTo requires.
	if n := len(tpot); n > 0 {
		sp.TPOT = tpot[:n:n] // appending to it copies, as to take's
		keys := growKeys(&b.ttftKeys, n)
		for j, x := range tpot {
			keys[j] = stats.FloatKey(x)
		}
		if !seqSorted(seqs) {
			ordered := growKeys(&b.latKeys, n)
			stableBySeq(ordered, keys, seqs, b)
			for j, k := range ordered {
				sp.TPOT[j] = stats.KeyFloat(k)
			}
			keys = ordered
		}
		sorted := b.arena.take(n)
		b.sorter.SortKeysTo(sorted, keys)
		pct.set(SourceTPOT, sorted)
	}
	pct.tpotMean = tpotMean(sp)
}

// growKeys returns (*buf)[:n], growing *buf first if need be.
func growKeys(buf *[]uint64, n int) []uint64 {
	if cap(*buf) < n {
		*buf = make([]uint64, n)
	}
	return (*buf)[:n]
}
