package core

import (
	"math"
	"math/bits"
	"slices"
)

// floatSorter sorts float64 lists ascending with a least-significant-digit
// radix sort of their order-preserving bit patterns (floatKey), O(n) and
// several times faster than slices.Sort's pdqsort from a few hundred
// values up. The result is the one slices.Sort gives: values that compare
// equal are bit-identical, and so indistinguishable in any order, except
// NaN (unordered) and zeros of both signs, and with either of those in the
// list it calls slices.Sort itself. Its two key buffers are reused from
// one list to the next.
type floatSorter struct {
	keys, tmp []uint64
	count     [][]uint32 // per recursion depth of sortKeys
	floats    []float64  // a caller's scratch list
}

// radixMinLen is the length below which slices.Sort is the faster one
// (BenchmarkSortFloats: about even at 128 values, radix 2× at 1000).
const radixMinLen = 192

// floatKey maps x to a uint64 whose unsigned order is x's numeric order
// (−0 just below +0; NaN at either end by its sign): a negative value's
// bits are all flipped (larger magnitudes sort first), a positive value's
// sign bit set.
func floatKey(x float64) uint64 {
	b := math.Float64bits(x)
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// keyFloat inverts floatKey.
func keyFloat(k uint64) float64 {
	return math.Float64frombits(k ^ ((k>>63 - 1) | 1<<63))
}

// sort sorts xs in place.
func (fs *floatSorter) sort(xs []float64) {
	n := len(xs)
	if n < radixMinLen || n > math.MaxInt32 {
		slices.Sort(xs)
		return
	}
	keys := fs.keys[:0]
	posZero, negZero := false, false
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for _, x := range xs {
		if x != x {
			slices.Sort(xs)
			return
		}
		k := floatKey(x)
		switch k {
		case 1 << 63:
			posZero = true
		case 1<<63 - 1:
			negZero = true
		}
		keys = append(keys, k)
		lo, hi = min(lo, k), max(hi, k)
	}
	fs.keys = keys
	if posZero && negZero {
		slices.Sort(xs)
		return
	}
	fs.sortKeys(keys, fs.scratch(n), lo, hi, 0)
	for i, k := range keys {
		xs[i] = keyFloat(k)
	}
}

// sortUint64 sorts ks ascending (ks must not be the sorter's own keys).
func (fs *floatSorter) sortUint64(ks []uint64) {
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

// scratch returns the sorter's second key buffer, at least n long.
func (fs *floatSorter) scratch(n int) []uint64 {
	if cap(fs.tmp) < n {
		fs.tmp = make([]uint64, n)
	}
	return fs.tmp[:n]
}

// maxBucketDepth bounds sortKeys' recursion; deeper buckets are left to
// slices.Sort.
const maxBucketDepth = 4

// sortKeys sorts ks, whose keys lie in [lo, hi], with tmp (as long) as
// scratch: it scatters them into about len(ks) buckets by the top bits of
// k − lo, then sorts each bucket, a large one (keys packed closer than
// the bucket width can part) by recursing.
func (fs *floatSorter) sortKeys(ks, tmp []uint64, lo, hi uint64, depth int) {
	n := len(ks)
	if lo == hi {
		return // all equal
	}
	shift := max(bits.Len64(hi-lo)-bits.Len(uint(n)), 0)
	nb := int((hi-lo)>>shift) + 1
	if len(fs.count) <= depth {
		fs.count = append(fs.count, nil)
	}
	if cap(fs.count[depth]) < nb+1 {
		fs.count[depth] = make([]uint32, nb+1)
	}
	count := fs.count[depth][:nb+1]
	clear(count)
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
		case m <= 16:
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
