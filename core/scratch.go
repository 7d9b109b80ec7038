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
