package core

import "github.com/steadysweep/steadysweep/core/stats"

// rollupSorted is rollupRange for a Run's own rollups
// (rollupOptions.sortedTimes): TTFT and latency are sorted lists, so
// their file orders are never built. One pass over a super-pass's samples
// takes the issue times, the counts and token sums (integers: their order
// does not matter), and the TTFT and latency values as their sort keys,
// which are sorted straight into the lists; only TPOT, whose compensated
// sums depend on the order, is laid out in completion order, by a second
// pass over the completed samples sorted by completion. Its values are
// rollupRange's, bit for bit: a sorted list does not depend on the order
// its values came in, as no integer converts to a NaN or to −0.
func rollupSorted(s *Samples, S int, opts rollupOptions, out []SuperPass, pcts []spPercentiles, kLo, kHi int, b *rollupBuffers) {
	n := s.Len()
	for k := kLo; k < kHi; k++ {
		lo, hi := k*S, min((k+1)*S, n)
		sp := &out[k]
		sp.Index = k
		sp.NIssued = hi - lo
		sp.FirstIssueNs = at(s.IssueNs, lo, -1)
		lastIssue, lastEvent := int64(-1), int64(-1)
		nFailed, nCompleted, nWarm := 0, 0, 0
		var outTokens, sysTokens int64
		ttft, lat, done := b.ttftKeys[:0], b.latKeys[:0], b.order[:0]
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
			done = append(done, i)
			lat = append(lat, stats.FloatKey(float64(at(s.LatencyNs, i, 0))))
			if tok := at(s.OutTokens, i, -1); tok > 0 && first {
				outTokens += tok
			}
			if !failed {
				nCompleted++
				sysTokens += systemTokens(s, i)
			}
		}
		sp.LastIssueNs, sp.LastEventNs = lastIssue, lastEvent
		sp.NFailed, sp.NCompleted = nFailed, nCompleted
		sp.OutTokens, sp.SysTokens = outTokens, sysTokens
		b.ttftKeys, b.latKeys, b.order = ttft, lat, done

		pct := &pcts[k]
		sp.pct = pct
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

		// TPOT in completion order.
		tpot := b.tpot[:0]
		if outTokens > 0 {
			for _, i := range b.sortBySeq(done, s.CompleteSeq, lo, hi) {
				if tok := at(s.OutTokens, i, -1); tok > 0 && at(s.HasFirstToken, i, false) {
					delta := float64(at(s.CompleteNs, i, 0) - at(s.FirstTokenNs, i, 0))
					tpot = append(tpot, delta/float64(tok))
				}
			}
		}
		b.tpot = tpot
		if len(tpot) > 0 {
			sp.TPOT = b.arena.take(len(tpot))
			copy(sp.TPOT, tpot)
			sorted := b.arena.take(len(tpot))
			b.sorter.SortCopy(sorted, tpot)
			pct.set(SourceTPOT, sorted)
		}
		pct.tpotMean = tpotMean(sp)
	}
}
