package stats

import (
	"math"
	"math/bits"
	"slices"
)

// FloatSorter sorts float64 lists ascending, and selects order statistics
// from them, by bucketing their order-preserving bit patterns (floatKey):
// O(n) on the detector's lists and several times faster than
// slices.Sort's pdqsort from a few hundred values up. Its results are the
// ones slices.Sort gives: values that compare equal are bit-identical,
// and so indistinguishable in any order, except NaN (unordered) and zeros
// of both signs; with either in the list it calls slices.Sort itself. The
// zero value is ready; its buffers are reused from one call to the next
// (a FloatSorter is not safe for concurrent use).
type FloatSorter struct {
	keys, tmp, sel []uint64
	count          [][]uint32 // per recursion depth of sortKeys
	starts, want   []uint32   // OrderStats' buckets
	floats         []float64
}

// radixMinLen is the length below which slices.Sort is the faster one
// (BenchmarkSortFloats: about even at 128 values, 2–3× slower at 1000).
const radixMinLen = 192

// floatKey maps x to a uint64 whose unsigned order is x's numeric order
// (−0 just below +0; NaN at either end by its sign): a negative value's
// bits are all flipped (larger magnitudes sort first), a positive value's
// sign bit set.
func floatKey(x float64) uint64 {
	b := math.Float64bits(x)
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// FloatKey is x's order-preserving bit pattern (floatKey): the unsigned
// order of the keys is x's numeric order, −0 just below +0 and NaN at
// either end by its sign. A caller that builds the values builds their
// keys with it for SortKeysTo.
func FloatKey(x float64) uint64 { return floatKey(x) }

// The keys of the infinities and the zeros.
const (
	negInfKey  = 0x000f_ffff_ffff_ffff
	negZeroKey = 1<<63 - 1
	posZeroKey = 1 << 63
	posInfKey  = 0xfff0_0000_0000_0000
)

// keyFloat inverts floatKey.
func keyFloat(k uint64) float64 {
	return math.Float64frombits(k ^ ((k>>63 - 1) | 1<<63))
}

// SearchFloats returns the first float64 x from lo to hi, in numeric
// order with −0 just below +0, for which f(x) is true, f being false and
// then true along that order (hi when only f(hi) is true): a bisection of
// the values' bit patterns, at most 64 calls of f, and x is one of the
// values f turns at (the k-th of a set of values when f counts the values
// ≤ x against k).
func SearchFloats(lo, hi float64, f func(float64) bool) float64 {
	return keyFloat(searchKey(floatKey(lo), floatKey(hi), func(k uint64) bool { return f(keyFloat(k)) }))
}

// keysOf fills fs.keys with the keys of xs and returns them with their
// range; ok is false when xs holds a NaN or zeros of both signs. A NaN's
// key lies outside the infinities' and a zero's inside any range holding
// both signs, so the range alone clears most lists (all positive, say)
// without a test per value.
func (fs *FloatSorter) keysOf(xs []float64) (keys []uint64, lo, hi uint64, ok bool) {
	n := len(xs)
	if cap(fs.keys) < n {
		fs.keys = make([]uint64, n, n+n/4) // room for the next, slightly longer lists
	}
	keys = fs.keys[:n]
	lo, hi = math.MaxUint64, 0
	for i, x := range xs {
		k := floatKey(x)
		keys[i] = k
		lo, hi = min(lo, k), max(hi, k)
	}
	if n == 0 {
		return keys, lo, hi, true
	}
	if lo < negInfKey || hi > posInfKey {
		return nil, 0, 0, false // a NaN
	}
	if lo <= negZeroKey && hi >= posZeroKey {
		posZero, negZero := false, false
		for _, k := range keys {
			posZero = posZero || k == posZeroKey
			negZero = negZero || k == negZeroKey
		}
		if posZero && negZero {
			return nil, 0, 0, false
		}
	}
	return keys, lo, hi, true
}

// Sort sorts xs in place, in slices.Sort's order.
func (fs *FloatSorter) Sort(xs []float64) { fs.SortCopy(xs, xs) }

// SortCopy sets dst to the values of src ascending, in slices.Sort's
// order: Sort of a copy, without the copy. dst is as long as src, and
// either is src or does not overlap it; src is not modified (unless it is
// dst).
func (fs *FloatSorter) SortCopy(dst, src []float64) {
	n := len(src)
	if n < radixMinLen || n > math.MaxInt32 {
		copy(dst, src)
		slices.Sort(dst[:n])
		return
	}
	keys, lo, hi, ok := fs.keysOf(src)
	if !ok {
		copy(dst, src)
		slices.Sort(dst[:n])
		return
	}
	fs.sortKeysInto(dst[:n], keys, lo, hi)
}

// SortKeysTo sets dst (as long as keys) to the values whose FloatKeys
// are keys, ascending: Sort of those values, for a caller that has their
// keys already and knows they hold no NaN and not zeros of both signs
// (integers converted to float64, say; then values that compare equal are
// identical and the order is slices.Sort's). keys is left in an arbitrary
// order (it is the sort's scratch).
func (fs *FloatSorter) SortKeysTo(dst []float64, keys []uint64) {
	n := len(keys)
	if n == 0 {
		return
	}
	lo, hi := keys[0], keys[0]
	for _, k := range keys {
		lo, hi = min(lo, k), max(hi, k)
	}
	if n < radixMinLen || n > math.MaxInt32 {
		slices.Sort(keys)
		for i, k := range keys {
			dst[i] = keyFloat(k)
		}
		return
	}
	fs.sortKeysInto(dst[:n], keys, lo, hi)
}

// sortKeysInto writes the values of ks (floatKeys in [lo, hi], at least
// two) ascending into dst, consuming ks. It scatters the keys into about
// len(ks) buckets by the top bits of k − lo (sortKeys' first level), sorts
// the few buckets of more than insertionMax keys by sortKeys, and then
// finishes with one insertion sort of the whole list while it converts
// the keys back: every key is already in its bucket, so it moves only
// within it, and the pass is also the copy out. It is sortKeys without
// its copy back, its loop over the buckets and the conversion pass after
// it.
func (fs *FloatSorter) sortKeysInto(dst []float64, ks []uint64, lo, hi uint64) {
	n := len(ks)
	if lo == hi {
		x := keyFloat(lo)
		for i := range dst {
			dst[i] = x
		}
		return
	}
	// Two to four buckets a key: the insertion pass after the scatter
	// is what costs (a mispredicted branch per key it moves), and the
	// fewer keys share a bucket the fewer it moves.
	shift := max(bits.Len64(hi-lo)-bits.Len(uint(n))-1, 0)
	nb := int((hi-lo)>>shift) + 1
	count := fs.bucketCounts(0, nb)
	for _, k := range ks {
		count[(k-lo)>>shift+1]++
	}
	big := uint32(0) // the largest bucket
	for b := 1; b <= nb; b++ {
		big = max(big, count[b])
		count[b] += count[b-1]
	}
	tmp := fs.scratch(n)
	for _, k := range ks {
		b := (k - lo) >> shift
		tmp[count[b]] = k
		count[b]++
	}
	if big > insertionMax {
		// count[b] is now the end of bucket b; ks is free as scratch.
		start := uint32(0)
		for _, end := range count[:nb] {
			if end-start > insertionMax {
				bk := tmp[start:end]
				blo, bhi := bk[0], bk[0]
				for _, k := range bk {
					blo, bhi = min(blo, k), max(bhi, k)
				}
				fs.sortKeys(bk, ks[start:end], blo, bhi, 1)
			}
			start = end
		}
	}
	dst[0] = keyFloat(tmp[0])
	for i := 1; i < n; i++ {
		// Floats compare as their keys do here: no NaN, no zeros of
		// both signs (keysOf).
		x, j := keyFloat(tmp[i]), i
		for ; j > 0 && dst[j-1] > x; j-- {
			dst[j] = dst[j-1]
		}
		dst[j] = x
	}
}

// insertionMax is the largest bucket sortKeys and sortKeysInto leave to
// an insertion sort.
const insertionMax = 16

// SortUint64 sorts ks ascending.
func (fs *FloatSorter) SortUint64(ks []uint64) {
	n := len(ks)
	if n < radixMinLen || n > math.MaxInt32 {
		slices.Sort(ks)
		return
	}
	lo, hi := ks[0], ks[0]
	for _, k := range ks {
		lo, hi = min(lo, k), max(hi, k)
	}
	fs.sortKeys(ks, fs.scratch(n), lo, hi, 0)
}

// scratch returns the sorter's scratch key buffer, at least n long.
func (fs *FloatSorter) scratch(n int) []uint64 {
	if cap(fs.tmp) < n {
		fs.tmp = make([]uint64, n, n+n/4) // room for the next, slightly longer lists
	}
	return fs.tmp[:n]
}

// maxBucketDepth bounds sortKeys' recursion; deeper buckets are left to
// slices.Sort.
const maxBucketDepth = 4

// bucketCounts returns a cleared count buffer of nb+1 entries for
// recursion depth depth.
func (fs *FloatSorter) bucketCounts(depth, nb int) []uint32 {
	for len(fs.count) <= depth {
		fs.count = append(fs.count, nil)
	}
	return growCleared(&fs.count[depth], nb+1)
}

// Counts returns n cleared counters, the sorter's own first-level bucket
// counts, for a caller's counting sort between two of its sorts: one
// buffer instead of two beside each other (each grown to its own sizes,
// fresh memory and a page fault per 4 KiB). They are valid until the
// sorter's next call.
func (fs *FloatSorter) Counts(n int) []uint32 {
	if len(fs.count) == 0 {
		fs.count = append(fs.count, nil)
	}
	if buf := &fs.count[0]; cap(*buf) < n {
		// A quarter more room (not growCleared's twice): the caller's
		// counts vary less than the buckets', and they are the larger.
		*buf = make([]uint32, n, n+n/4)
	}
	return growCleared(&fs.count[0], n)
}

// growCleared returns (*buf)[:n] cleared, growing *buf first if need be.
func growCleared(buf *[]uint32, n int) []uint32 {
	if cap(*buf) < n {
		// Twice the room: the bucket counts vary up to twofold from one
		// list to the next, and a buffer grown to each fresh size is
		// fresh memory each time, a page fault per 4 KiB (the room
		// beyond what is used is never touched).
		*buf = make([]uint32, n, 2*n)
	}
	c := (*buf)[:n]
	clear(c)
	return c
}

// sortKeys sorts ks, whose keys lie in [lo, hi], with tmp (as long) as
// scratch: it scatters them into about len(ks) buckets by the top bits of
// k − lo, then sorts each bucket, a large one (keys packed closer than
// the bucket width can part) by recursing.
func (fs *FloatSorter) sortKeys(ks, tmp []uint64, lo, hi uint64, depth int) {
	n := len(ks)
	if lo == hi {
		return // all equal
	}
	shift := max(bits.Len64(hi-lo)-bits.Len(uint(n)), 0)
	nb := int((hi-lo)>>shift) + 1
	count := fs.bucketCounts(depth, nb)
	for _, k := range ks {
		count[(k-lo)>>shift+1]++
	}
	for b := 1; b <= nb; b++ {
		count[b] += count[b-1]
	}
	for _, k := range ks {
		b := (k - lo) >> shift
		tmp[count[b]] = k
		count[b]++
	}
	copy(ks, tmp[:n])
	// count[b] is now the end of bucket b.
	start := uint32(0)
	for _, end := range count[:nb] {
		switch m := end - start; {
		case m <= 1:
		case m <= insertionMax:
			insertionSortKeys(ks[start:end])
		case depth+1 < maxBucketDepth:
			bk := ks[start:end]
			blo, bhi := bk[0], bk[0]
			for _, k := range bk {
				blo, bhi = min(blo, k), max(bhi, k)
			}
			fs.sortKeys(bk, tmp[start:end], blo, bhi, depth+1)
		default:
			slices.Sort(ks[start:end])
		}
		start = end
	}
}

func insertionSortKeys(ks []uint64) {
	for i := 1; i < len(ks); i++ {
		k, j := ks[i], i
		for ; j > 0 && ks[j-1] > k; j-- {
			ks[j] = ks[j-1]
		}
		ks[j] = k
	}
}

// selectBuckets is the number of buckets OrderStats spreads the keys
// over: few enough that the counts stay in the first-level cache.
const selectBuckets = 1 << 11

// OrderStats sets out[i] to the ranks[i]-th smallest value of xs
// (0-based; sorted(xs)[ranks[i]] for slices.Sort's order), every rank in
// [0, len(xs)), without sorting xs: one pass counts the values' buckets,
// a second gathers the few buckets that hold a wanted rank, and only
// those are sorted. xs is not modified; out is as long as ranks.
func (fs *FloatSorter) OrderStats(xs []float64, ranks []int, out []float64) {
	n := len(xs)
	keys, lo, hi, ok := []uint64(nil), uint64(0), uint64(0), false
	if n >= 4*selectBuckets && n <= math.MaxInt32 {
		keys, lo, hi, ok = fs.keysOf(xs)
	}
	if !ok {
		s := append(fs.floats[:0], xs...)
		fs.Sort(s)
		for i, r := range ranks {
			out[i] = s[r]
		}
		fs.floats = s
		return
	}
	shift := max(bits.Len64(hi-lo)-bits.Len(selectBuckets-1), 0)
	nb := int((hi-lo)>>shift) + 1
	count, want := growCleared(&fs.starts, nb+1), growCleared(&fs.want, nb)
	for _, k := range keys {
		count[(k-lo)>>shift+1]++
	}
	for b := 1; b <= nb; b++ {
		count[b] += count[b-1] // count[b] is the start of bucket b
	}
	// want[b] is 1 + the offset in sel of each wanted bucket (0: unwanted).
	m := uint32(0)
	for _, r := range ranks {
		b := bucketOf(count, uint32(r))
		if want[b] == 0 {
			want[b] = m + 1
			m += count[b+1] - count[b]
		}
	}
	if cap(fs.sel) < int(m) {
		fs.sel = make([]uint64, m)
	}
	sel := fs.sel[:m]
	for _, k := range keys {
		b := (k - lo) >> shift
		if w := want[b]; w != 0 {
			sel[w-1] = k
			want[b]++
		}
	}
	// want[b] − 1 is now the end of bucket b in sel; sort each once.
	for b, w := range want {
		if w != 0 {
			size := count[b+1] - count[b]
			fs.SortUint64(sel[w-1-size : w-1])
		}
	}
	for i, r := range ranks {
		b := bucketOf(count, uint32(r))
		end := want[b] - 1
		size := count[b+1] - count[b]
		out[i] = keyFloat(sel[end-size+uint32(r)-count[b]])
	}
}

// bucketOf returns the bucket b with starts[b] ≤ r < starts[b+1].
func bucketOf(starts []uint32, r uint32) int {
	b, _ := slices.BinarySearch(starts, r+1) // first start > r
	return b - 1
}

// Median is Median(xs) by OrderStats: the middle order statistic, or the
// mean of the two middle ones for even n. A median of zero or NaN is
// Median's own (the zero's sign depends on the order of equal values).
func (fs *FloatSorter) Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	var mid [2]float64
	m := 0.0
	if n%2 == 1 {
		fs.OrderStats(xs, []int{n / 2}, mid[:1])
		m = mid[0]
	} else {
		fs.OrderStats(xs, []int{n/2 - 1, n / 2}, mid[:])
		m = (mid[0] + mid[1]) / 2
	}
	if m == 0 || m != m {
		return Median(xs)
	}
	return m
}
