package core

import (
	"math"
	"slices"
	"sort"

	"github.com/steadysweep/steadysweep/core/stats"
)

// summarizeLists is stats.Summarize of the union of ascending lists (at
// least one value in all), computed without merging them when that is
// exact.
//
// The mean is the compensated sum of the sorted union divided by n, taken
// from orderFreeSum when that can prove it (almost always), else from the
// sorted union (sortedUnion). Percentiles and the histogram come from a
// walk of the lists over the histogram's bins (listUnion); vals and
// starts, when not nil, are the scratch of the bins' selections and of
// the lists' segment offsets, grown there and left for the next call.
func summarizeLists(lists [][]float64, vals *[]float64, starts *[]int) stats.Summary {
	u := newListUnion(lists)
	if vals != nil {
		u.vals = (*vals)[:0]
		defer func() { *vals = u.vals[:0] }()
	}
	if u.n == 0 {
		return stats.Summarize(nil)
	}
	sum := stats.Summary{Count: u.n, Min: u.lo, Max: u.hi}
	if total, ok := orderFreeSum(lists); ok {
		sum.Mean = total / float64(u.n)
	} else {
		sorted := sortedUnion(lists)
		sum.Mean = stats.Sum(sorted) / float64(u.n)
		u.lists = [][]float64{sorted}
	}
	if u.lo == u.hi || math.IsNaN(u.lo) || math.IsNaN(u.hi) {
		if len(u.lists) != 1 {
			u.lists = [][]float64{sortedUnion(lists)}
		}
		s := u.lists[0]
		sum.P50 = stats.PercentileLower(s, 0.50)
		sum.P90 = stats.PercentileLower(s, 0.90)
		sum.P99 = stats.PercentileLower(s, 0.99)
		sum.Histogram = stats.Histogram(s, stats.SummaryBins)
		return sum
	}
	u.walkBins(starts)
	sum.Histogram = u.histogram()
	sum.P50 = u.kth(int(0.50 * float64(u.n-1)))
	sum.P90 = u.kth(int(0.90 * float64(u.n-1)))
	sum.P99 = u.kth(int(0.99 * float64(u.n-1)))
	return sum
}

// percentileLists is stats.PercentileLower(sorted union of lists, p); NaN
// for no values.
//
// One value of the union is wanted, so it is bisected for over the whole
// lists (kthBySearch on one segment holding every list whole), which
// reads ~50 × lists × log₂(list) values and copies none: walking the
// bins and gathering the one holding it made fresh scratch each time (a
// plateau's 90th latency percentile of the streamed log: ~3000 values,
// six page faults). A zero is left to the gathered selection, as in kth.
// starts, when not nil, is the scratch of the lists' offsets (grown there
// and left for the next call).
func percentileLists(lists [][]float64, p float64, starts *[]int) float64 {
	u := newListUnion(lists)
	if u.n == 0 {
		return math.NaN()
	}
	k := int(p * float64(u.n-1))
	if len(lists) == 1 {
		return lists[0][k]
	}
	if u.lo == u.hi || math.IsNaN(u.lo) || math.IsNaN(u.hi) {
		return stats.PercentileLower(sortedUnion(lists), p)
	}
	one := [1]int{u.n}
	u.counts = one[:]
	if starts == nil {
		u.starts = make([]int, 2*len(lists))
	} else {
		*starts = slices.Grow((*starts)[:0], 2*len(lists))
		u.starts = (*starts)[:2*len(lists)]
	}
	for li, l := range lists {
		u.starts[2*li], u.starts[2*li+1] = 0, len(l)
	}
	if x, ok := u.kthBySearch(0, k); ok {
		return x
	}
	u.walkBins(starts)
	return u.kth(k)
}

// orderFreeSum returns stats.Sum of the values of lists in sorted order
// without sorting them, when that value provably does not depend on the
// order; ok is false otherwise (then sort and sum).
//
// Python's compensated sum (Neumaier) returns fl(f + c), where f is the
// plain running sum and c the running sum of the exact rounding errors of
// f; the errors add up exactly to S − f for the exact sum S, so
// f + c = S + δ with |δ| ≤ n²·ε²·Σ|x| (only c's own roundings are lost).
// Hence the result is fl(S), the same in every order, unless S lies within
// |δ| of a rounding midpoint. orderFreeSum computes S in double-double
// (error ≤ n·ε²·Σ|x|) and returns fl(S) when S is farther than a generous
// bound on both errors from the two midpoints around it. For values that
// are integers with Σ|x| < 2^53 (TTFT, latency) every sum is exact and the
// test always passes.
func orderFreeSum(lists [][]float64) (sum float64, ok bool) {
	hi, lo, abs, n := 0.0, 0.0, 0.0, 0
	for _, l := range lists {
		for _, x := range l {
			s := hi + x // TwoSum
			bp := s - hi
			lo += (hi - (s - bp)) + (x - bp)
			hi = s
			abs += math.Abs(x)
			n++
		}
	}
	if n == 0 || math.IsNaN(abs) || math.IsInf(abs, 0) || math.IsNaN(lo) || math.IsInf(lo, 0) {
		return 0, false
	}
	if abs == 0 {
		return 0, true // all zeros: Python's sum is +0
	}
	r := hi + lo // round(S)
	rest := lo - (r - hi)
	const eps = 0x1p-53
	nf := float64(n)
	margin := 8*(nf*nf+nf)*eps*eps*abs + 0x1p-1000
	halfUp := (math.Nextafter(r, math.Inf(1)) - r) / 2
	halfDown := (r - math.Nextafter(r, math.Inf(-1))) / 2
	if r == 0 || math.IsInf(r, 0) || !(halfUp-rest > margin && rest+halfDown > margin) {
		return 0, false
	}
	return r, true
}

// listUnion is the union of ascending lists, located by the bins of
// stats.Histogram over [lo, hi]: in each list the values of one bin form a
// contiguous run (sorted values take non-decreasing bins), so one walk
// counts the bins and the k-th value is found by sorting the one bin that
// holds it.
type listUnion struct {
	lists  [][]float64
	n      int
	lo, hi float64
	bins   []stats.Bin
	// Segments in value order: 0…nb−1 the bins ("first b with x < Hi_b"),
	// nb the values in no bin (x < hi but ≥ the last edge, possible by
	// rounding), nb+1 the values ≥ hi (counted in the last bin). starts
	// holds nb+3 offsets per list.
	counts []int
	starts []int
	vals   []float64 // kth's scratch
}

func newListUnion(lists [][]float64) listUnion {
	u := listUnion{lists: lists, lo: math.Inf(1), hi: math.Inf(-1)}
	for _, l := range lists {
		if len(l) == 0 {
			continue
		}
		u.n += len(l)
		if l[0] < u.lo || l[0] != l[0] {
			u.lo = l[0]
		}
		if l[len(l)-1] > u.hi || l[len(l)-1] != l[len(l)-1] {
			u.hi = l[len(l)-1]
		}
	}
	return u
}

// walkBins computes the segments of every list (lo < hi required). The
// offsets go into *buf when buf is not nil (grown there, and left for the
// next call: they are the bulk of the walk's allocation, one row of
// SummaryBins + 3 per list).
func (u *listUnion) walkBins(buf *[]int) {
	u.bins = stats.Histogram([]float64{u.lo, u.hi}, stats.SummaryBins) // edges depend only on lo, hi
	nb := len(u.bins)
	nseg := nb + 2
	u.counts = make([]int, nseg)
	if need := len(u.lists) * (nseg + 1); buf == nil {
		u.starts = make([]int, need)
	} else {
		*buf = slices.Grow((*buf)[:0], need) // amortised: the next prefix's lists are one more
		u.starts = (*buf)[:need]
	}
	for li, l := range u.lists {
		off := u.starts[li*(nseg+1) : (li+1)*(nseg+1)]
		i := 0
		for seg := range nseg {
			off[seg] = i
			switch {
			case seg < nb:
				for e := u.bins[seg].Hi; i < len(l) && l[i] < u.hi && l[i] < e; {
					i++
				}
			case seg == nb:
				for i < len(l) && l[i] < u.hi {
					i++
				}
			default:
				i = len(l)
			}
			u.counts[seg] += i - off[seg]
		}
		off[nseg] = i
	}
}

// histogram returns the bins with their counts (after walkBins).
func (u *listUnion) histogram() []stats.Bin {
	nb := len(u.bins)
	for b := range u.bins {
		u.bins[b].Count = u.counts[b]
	}
	u.bins[nb-1].Count += u.counts[nb+1]
	return u.bins
}

// kth returns the k-th smallest value (0-based, after walkBins).
func (u *listUnion) kth(k int) float64 {
	if len(u.lists) == 1 {
		return u.lists[0][k]
	}
	nseg := len(u.counts)
	seg := 0
	for ; seg < nseg-1 && k >= u.counts[seg]; seg++ {
		k -= u.counts[seg]
	}
	if c := u.counts[seg]; c >= kthSearchMin || c >= kthSearchPerList*len(u.lists) {
		if x, ok := u.kthBySearch(seg, k); ok {
			return x
		}
	}
	vals := u.vals[:0]
	vals = slices.Grow(vals, u.counts[seg]) // amortised when reused (listsOrderStats)
	for li, l := range u.lists {
		off := u.starts[li*(nseg+1) : (li+1)*(nseg+1)]
		vals = append(vals, l[off[seg]:off[seg+1]]...)
	}
	u.vals = vals
	return stats.SelectKth(vals, k)
}

// kthSearchMin is the largest segment kth gathers: above, it bisects
// (kthBySearch), which reads ~50 × lists × log₂(segment) values instead
// of copying the segment (on a skewed run's window one of the 20 bins can
// hold half of 50,000 values: ~400 KB of fresh scratch, a page fault per
// 4 KiB).
const kthSearchMin = 4096

// kthSearchPerList is the fewest values per list, on average, of a
// segment kth bisects whatever its size: a binary search per list and
// step then costs about what copying and selecting the segment does (the
// streamed log's window of 20 super-passes: ~3000 values in the bin of
// its TTFT p50, equal CPU either way), and gathering them is fresh
// memory (24 kB there, six page faults on a one-shot analyze).
const kthSearchPerList = 32

// kthBySearch returns the k-th smallest value (0-based) of segment seg of
// the union, without copying it: it bisects the values' order-preserving
// keys for the smallest key whose value has at least k+1 values ≤ it in
// the segment, counted by a binary search in each list's run of the
// segment. That value is one of the lists' own. ok is false when it is a
// zero (the gathered selection then decides, as for any segment, which
// sign a mix of zeros yields).
func (u *listUnion) kthBySearch(seg, k int) (x float64, ok bool) {
	nseg := len(u.counts)
	lo, hi := math.Inf(1), math.Inf(-1)
	for li, l := range u.lists {
		off := u.starts[li*(nseg+1) : (li+1)*(nseg+1)]
		if a, b := off[seg], off[seg+1]; a < b {
			lo, hi = min(lo, l[a]), max(hi, l[b-1])
		}
	}
	x = stats.SearchFloats(lo, hi, func(v float64) bool {
		c := 0 // the values ≤ v
		for li, l := range u.lists {
			off := u.starts[li*(nseg+1) : (li+1)*(nseg+1)]
			run := l[off[seg]:off[seg+1]]
			c += sort.Search(len(run), func(i int) bool { return run[i] > v })
		}
		return c > k
	})
	return x, x != 0
}

// sortedUnion returns the ascending union of ascending lists, in the order
// a stable sort of their concatenation gives. It radix-sorts the values'
// order-preserving bit patterns, which is several times faster than a
// comparison merge; with a NaN or zeros of both signs (distinct bit
// patterns that compare equal) it merges instead.
func sortedUnion(lists [][]float64) []float64 {
	n := 0
	negZero, posZero := false, false
	for _, l := range lists {
		n += len(l)
		for _, x := range l {
			switch {
			case x != x:
				return mergeSorted(lists)
			case x == 0 && math.Signbit(x):
				negZero = true
			case x == 0:
				posZero = true
			}
		}
	}
	if negZero && posZero {
		return mergeSorted(lists)
	}
	keys := make([]uint64, 0, n)
	for _, l := range lists {
		for _, x := range l {
			b := math.Float64bits(x)
			if b>>63 != 0 {
				b = ^b // negative: reverse the order of the magnitudes
			} else {
				b |= 1 << 63
			}
			keys = append(keys, b)
		}
	}
	radixSort(keys)
	out := make([]float64, n)
	for i, b := range keys {
		if b>>63 != 0 {
			b &^= 1 << 63
		} else {
			b = ^b
		}
		out[i] = math.Float64frombits(b)
	}
	return out
}

// radixSort sorts keys ascending: least-significant-digit first, 11-bit
// digits, skipping digits all keys share.
func radixSort(keys []uint64) {
	n := len(keys)
	if n < 2 {
		return
	}
	src, dst := keys, make([]uint64, n)
	var count [1 << 11]int
	for shift := uint(0); shift < 64; shift += 11 {
		clear(count[:])
		for _, v := range src {
			count[(v>>shift)&(1<<11-1)]++
		}
		if count[(src[0]>>shift)&(1<<11-1)] == n {
			continue
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, v := range src {
			d := (v >> shift) & (1<<11 - 1)
			dst[count[d]] = v
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
