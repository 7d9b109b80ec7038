package core

import "github.com/steadysweep/steadysweep/core/stats"

// scratch holds the buffers a Run's computations reuse from one to the
// next — a sorter's keys and buckets, a pooled list — so that a window's
// statistics allocate only what they keep. Nothing in them outlives the
// call that filled them.
type scratch struct {
	fs        stats.FloatSorter
	pool, aux []float64
}

// pooled is pooled(sps, get) in the scratch pool (valid until the next
// call).
func (sc *scratch) pooled(sps []SuperPass, get func(*SuperPass) []float64) []float64 {
	n := 0
	for i := range sps {
		n += len(get(&sps[i]))
	}
	out := growFloats(sc.pool, n)
	for i := range sps {
		out = append(out, get(&sps[i])...)
	}
	sc.pool = out
	return out
}

// growFloats returns buf emptied, with room for n values; a new buffer has
// a quarter to spare, as the next list is often a little longer.
func growFloats(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, 0, n+n/4)
	}
	return buf[:0]
}
