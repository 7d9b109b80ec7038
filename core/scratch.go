package core

import "github.com/steadysweep/steadysweep/core/stats"

// scratch holds the buffers an analysis reuses from one computation to
// the next — a sorter's keys and buckets, a pooled list — so that its
// window statistics allocate only what they keep. Nothing in them
// outlives the call that filled them, and the buffers are released when
// the analysis ends (kept, they would raise the collector's heap goal for
// as long as the Run lives).
type scratch struct {
	fs        stats.FloatSorter
	pool, aux []float64
	lists     [][]float64 // poolOrder's sorted lists
	starts    []int       // listsOrderStats' segment offsets (listUnion.walkBins)
	// A window's summaries' (listSummaryOf, durationStatsOf): a
	// trajectory or list of spans, the super-passes' sorted lists, and
	// the lists' segment offsets and selection values (summarizeLists,
	// percentileLists). One window's summaries allocated a dozen small
	// slices of as many sizes, each size its own fresh page.
	winFloats, winVals []float64
	winLists           [][]float64
	winStarts          []int
}

// sortedLists is sortedLists(pct, get) in the window scratch (valid until
// the next call); a nil sc allocates.
func (sc *scratch) sortedLists(pct []*spPercentiles, get func(*spPercentiles) []float64) [][]float64 {
	if sc == nil {
		return sortedLists(pct, get)
	}
	sc.winLists = appendSortedLists(sc.winLists[:0], pct, get)
	return sc.winLists
}

// floats returns the window scratch's float buffer emptied, with room for
// n values; a nil sc allocates.
func (sc *scratch) floats(n int) []float64 {
	if sc == nil {
		return make([]float64, 0, n)
	}
	sc.winFloats = growFloats(sc.winFloats, n)
	return sc.winFloats
}

// vals and starts are summarizeLists' scratch in the window scratch (nil
// for a nil sc: summarizeLists allocates).
func (sc *scratch) vals() *[]float64 {
	if sc == nil {
		return nil
	}
	return &sc.winVals
}

func (sc *scratch) startsBuf() *[]int {
	if sc == nil {
		return nil
	}
	return &sc.winStarts
}

// pooled is pooled(sps, get) in the scratch pool (valid until the next
// call).
func (sc *scratch) pooled(sps []SuperPass, get func(*SuperPass) []float64) []float64 {
	sc.pool = pooledInto(sc.pool, sps, get)
	return sc.pool
}

// release drops the buffers.
func (sc *scratch) release() { *sc = scratch{} }

// releaseScratch ends an analysis's use of the run's scratch: between
// analyses its buffers are garbage, unless they were lent (scratchTo) by
// the earliest-stop search, which hands them to its next prefix.
func (run *Run) releaseScratch() {
	if run.scratchTo != nil {
		*run.scratchTo, run.scratchTo = run.scratch, nil
	}
	run.scratch.release()
}

// growFloats returns buf emptied, with room for n values.
func growFloats(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, 0, n)
	}
	return buf[:0]
}
