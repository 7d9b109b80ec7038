package core

import (
	"math"
	"math/bits"
)

// The step tests of a plateau growing from one start (stepInPrefix and
// noiseStepInPrefix on the window [start, start+n) as n grows) try every
// split k of the window: O(n) per window, O(P²) over a plateau as long as
// a 10,000-super-pass run. On a plateau nearly every split fails both
// conditions a step needs — the level difference d = m₂ − m₁ of the two
// parts beyond band·m₁, and beyond sds times the two-level fit's residual
// SD — and both can be bounded over a block of splits at once:
//
//   - m₁(k) = s1[k]/k is fixed once k is in the window: its range over a
//     block comes from an append-only sparse table;
//   - m₂(k) = (S_n − S_k)/(n − k) is the mean of the block's remaining
//     values and of the tail after the block, which weighs at least
//     1 − w, w = |block|/(n − ka): it lies within w·(the block's value
//     range about the tail's mean) of the tail's mean;
//   - the residual SSE of the split is SST − k(n−k)/n·d² (an identity of
//     the prefix sums), at least SST − max k(n−k)/n · max d².
//
// Blocks shrink towards both ends of the window (a split near either end
// has a short, noisy part), splits within stepExact of the end are tried
// one by one, and every bound is widened by the rounding of the floats
// the per-split test computes (|error| ≤ a few u times the magnitudes,
// taken with ample room). A block the bounds cannot rule out is tried
// split by split with the very test stepInPrefix runs, so the verdict is
// the same boolean (the segmentation oracle compares the plateaus with
// the quadratic scan's).

// stepExact is how many of the last splits are always tried one by one,
// and stepScanMin the window length below which every split is.
const (
	stepExact   = 8
	stepScanMin = 64
)

// stepBlockDiv sets a block's size to 1/stepBlockDiv of its distance from
// the nearer end of the window: the tail mean then weighs at least
// 1 − 1/(stepBlockDiv+1) in every split of the block.
const stepBlockDiv = 4

// stepIndex is the range-query state of one growing window: the head
// means m₁(k) and the values, in append-only sparse tables.
type stepIndex struct {
	ready  bool
	lo, n  int // the window's start and how many values are indexed
	m1, xs sparseMinMax
	maxAbs float64 // max |x| of the window
}

// sync brings the index to w, the window starting at lo (rebuilt when
// the window restarted; capHint bounds the window's length, for the
// tables' first allocation).
func (si *stepIndex) sync(w *growingSeries, lo, capHint int) {
	if !si.ready || lo != si.lo || len(w.vals) < si.n {
		si.ready, si.lo, si.n, si.maxAbs = true, lo, 0, 0
		si.m1.reset(capHint)
		si.xs.reset(capHint)
		si.m1.push(0) // m₁(0) is undefined; splits start at 2
	}
	for ; si.n < len(w.vals); si.n++ {
		x := w.vals[si.n]
		si.xs.push(x)
		si.maxAbs = max(si.maxAbs, math.Abs(x))
		k := si.n + 1
		si.m1.push(w.s1[k] / float64(k)) // stepInPrefix's m1, the same float
	}
}

// anySplit reports whether at(k) holds for some split k in [kLo, kHi]
// of the n-value window w (starting at lo, at most capHint long), trying
// only the splits whose block the bounds cannot rule out for a test
// needing |d|/m₁ > band and |d| > sds·σ_k. A window shorter than
// stepScanMin is tried split by split without touching the index (a
// sweep's short runs pay nothing for it).
func (si *stepIndex) anySplit(w *growingSeries, lo, capHint, kLo, kHi int, band, sds float64, at func(k int) bool) bool {
	n := len(w.s1) - 1
	exact := func(a, b int) bool {
		for k := a; k < b; k++ {
			if at(k) {
				return true
			}
		}
		return false
	}
	if n < stepScanMin || w.nonFinite || !(sds > 0) {
		return exact(kLo, kHi+1)
	}
	si.sync(w, lo, capHint)
	if math.IsNaN(si.maxAbs) || si.n != n {
		return exact(kLo, kHi+1)
	}
	top := min(kHi+1, n-stepExact)
	if exact(max(top, kLo), kHi+1) {
		return true
	}
	const u = 0x1p-53
	fn := float64(n)
	m := si.maxAbs * (1 + 4*fn*u)
	tolX := 2 * u * fn * m               // the prefix sums' values against the values
	tolD := 16*u*m + tolX                // a computed d against its bound
	tolSSE := 32 * u * fn * m * m * 1.25 // the computed residual SSE
	sst := w.s2[n] - w.s1[n]*w.s1[n]/fn  // the exact SST within tolSST
	tolSST := 8 * u * (math.Abs(w.s2[n]) + w.s1[n]*w.s1[n]/fn)
	sstLo := sst - tolSST - tolSSE
	for kb := top; kb > kLo; {
		size := max(1, min(n-kb, kb-kLo)/stepBlockDiv)
		ka := max(kLo, kb-size)
		if !si.ruledOut(w, n, ka, kb, band, sds, tolX, tolD, sstLo, m) && exact(ka, kb) {
			return true
		}
		kb = ka
	}
	return false
}

// ruledOut reports whether no split k in [ka, kb) of the n-value window
// can pass both conditions (see the file comment; kb ≤ n − stepExact).
func (si *stepIndex) ruledOut(w *growingSeries, n, ka, kb int, band, sds, tolX, tolD, sstLo, m float64) bool {
	const u = 0x1p-53
	m1lo, m1hi := si.m1.query(ka, kb)
	if !(m1lo > 0) {
		return false // a head mean ≤ 0 skips its split; leave those to the test
	}
	c := (w.s1[n] - w.s1[kb]) / float64(n-kb) // the tail's mean
	vlo, vhi := si.xs.query(ka, kb)
	vlo, vhi = vlo-tolX, vhi+tolX
	wt := float64(kb-ka) / float64(n-ka)
	tolC := 4 * u * m
	m2lo := c - wt*max(0, c-vlo) - tolC
	m2hi := c + wt*max(0, vhi-c) + tolC
	maxD := max(m2hi-m1lo, m1hi-m2lo)
	dComp := (maxD + tolD) * (1 + 1e-12)
	if dComp*(1+16*u) < band*m1lo*(1-16*u) {
		return true // |d|/m₁ ≤ band for every split of the block
	}
	// k(n−k)/n is largest at the block's split nearest n/2.
	kMid := min(max(n/2, ka), kb-1)
	kMax := float64(kMid) * float64(n-kMid) / float64(n)
	dReal := maxD + 2*u*m
	minSSE := sstLo - kMax*dReal*dReal*(1+1e-12)
	if !(minSSE > 0) {
		return false
	}
	rhs := sds * math.Sqrt(minSSE/float64(n-2)) * (1 - 1e-12)
	return dComp < rhs // |d| ≤ sds·σ_k for every split of the block
}

// sparseMinMax is an append-only sparse table of minima and maxima:
// level j holds the extremes of the 2^j values from each index.
type sparseMinMax struct{ lo, hi [][]float64 }

// reset empties the table; the first one allocates room for capHint
// values (a level of 2^j values from each index holds capHint − 2^j + 1).
func (t *sparseMinMax) reset(capHint int) {
	if t.lo == nil {
		for j := 0; 1<<j <= capHint; j++ {
			t.lo = append(t.lo, make([]float64, 0, capHint-1<<j+1))
			t.hi = append(t.hi, make([]float64, 0, capHint-1<<j+1))
		}
	}
	for j := range t.lo {
		t.lo[j], t.hi[j] = t.lo[j][:0], t.hi[j][:0]
	}
}

func (t *sparseMinMax) push(v float64) {
	if len(t.lo) == 0 {
		t.lo, t.hi = [][]float64{nil}, [][]float64{nil}
	}
	t.lo[0], t.hi[0] = append(t.lo[0], v), append(t.hi[0], v)
	p := len(t.lo[0]) - 1
	for j := 1; 1<<j <= p+1; j++ {
		if j == len(t.lo) {
			t.lo, t.hi = append(t.lo, nil), append(t.hi, nil)
		}
		i, h := p-(1<<j)+1, 1<<(j-1)
		t.lo[j] = append(t.lo[j], min(t.lo[j-1][i], t.lo[j-1][i+h]))
		t.hi[j] = append(t.hi[j], max(t.hi[j-1][i], t.hi[j-1][i+h]))
	}
}

// query returns the least and greatest value of indices [a, b), a < b.
func (t *sparseMinMax) query(a, b int) (float64, float64) {
	j := bits.Len(uint(b-a)) - 1
	e := b - 1<<j
	return min(t.lo[j][a], t.lo[j][e]), max(t.hi[j][a], t.hi[j][e])
}
