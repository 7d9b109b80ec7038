package stats

import (
	"cmp"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Exact selection of the k-th smallest pairwise slope in O(n log n)
// expected time and O(n) memory (plus O(n) for the final candidates),
// returning one of the very floats the all-pairs computation makes.
//
// The computed slope of a pair i < j is s̃ = fl(fl(x_j − x_i)/(j − i)); its
// exact slope s = (x_j − x_i)/(j − i) is within 2.1u·|s| of it (u = 2⁻⁵³).
// Exact slopes can be counted without forming them: s < θ ⇔
// x_j − θj < x_i − θi, so the pairs with s < θ are the inversions of the
// indices ordered by y_t = x_t − θt (ties by index), found by a merge sort
// — provided y is compared exactly, which cmpY does with error-free
// transformations (TwoSum, FMA). And the pairs with α ≤ s < β are those
// ordered differently by y^α and y^β: a merge sort enumerates them in
// O(n log n + K).
//
// selectSlope narrows a bracket [lo, hi] of computed slopes around rank k
// by sampling, turns it into exact thresholds with a safety margin
// (α = lo − 2⁻⁴⁸|lo|, β = hi + 2⁻⁴⁸|hi|: a pair with s < α has s̃ < lo, one
// with s ≥ β has s̃ > hi), counts the pairs below α, enumerates the K pairs
// in [α, β) and computes their s̃. For a candidate w in [lo, hi] the global
// rank is then exact: countBelow(α) + #{enumerated s̃ < w}. A bracket that
// misses k is widened; the answer never depends on the sampling.
//
// The arithmetic is exact only in a domain checked first (selectDomain):
// finite values, |x| ≤ 2⁹⁶⁰, every non-zero |x| ≥ 2⁻⁸⁰⁰ — so no difference
// or product overflows, no slope or error term underflows, and a computed
// slope is 0 exactly when x_i = x_j, with the sign of x_j − x_i otherwise.
// The sign classes are then exact too: #{s̃ < 0} = #{s < 0} and the zeros
// are the pairs of equal values.

const (
	selectMaxAbs = 0x1p960
	selectMinAbs = 0x1p-800
	// tinyPositive separates the zero slopes from the positive ones: in the
	// domain every non-zero |slope| is at least 2⁻⁸⁸³.
	tinyPositive = 0x1p-1000
	// marginScale is the relative safety margin between computed and exact
	// slopes (2⁻⁴⁸ = 32u, against an error of at most 2.1u).
	marginScale = 0x1p-48
)

// selectDomain reports whether xs is in the domain of exact selection.
func selectDomain(xs []float64) bool {
	for _, x := range xs {
		if x == 0 {
			continue
		}
		a := math.Abs(x)
		if !(a <= selectMaxAbs && a >= selectMinAbs) { // also NaN and ±Inf
			return false
		}
	}
	return true
}

// slopeSelector holds the scratch space of one selection.
type slopeSelector struct {
	xs    []float64
	n     int
	pairs int64 // n(n−1)/2
	rng   *rand.Rand

	order, buf    []int32 // an ordering by y^θ and merge scratch
	rank          []int32 // position of each index in an ordering
	seqV, seqI    []int32 // enumeration: ranks and indices
	bufV, bufI    []int32
	below0, zeros int64  // #{s < 0}, #{x_i = x_j}
	keys          []yKey // orderBy's computed keys
	// maxBand is the largest band finished by enumeration; above it the
	// bracket is narrowed by sampling (tests lower it to exercise that).
	maxBand int64
}

func newSlopeSelector(xs []float64) *slopeSelector {
	n := len(xs)
	s := newSlopeCounter(xs)
	s.rng = rand.New(rand.NewPCG(uint64(n), 0x7e11_5e75))
	s.maxBand = max(int64(8*n), 1<<16)
	s.below0 = s.countBelow(0, false)
	s.zeros = countEqualPairs(xs)
	return s
}

// newSlopeCounter is a selector that only counts (countBelow, enumerate).
func newSlopeCounter(xs []float64) *slopeSelector {
	n := len(xs)
	s := &slopeSelector{xs: xs, n: n, pairs: int64(n) * int64(n-1) / 2}
	s.order, s.buf = make([]int32, n), make([]int32, n)
	return s
}

// countEqualPairs returns the number of pairs i < j with x_i = x_j.
func countEqualPairs(xs []float64) int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	var total, run int64
	for i := range s {
		if i > 0 && s[i] == s[i-1] {
			run++
			total += run
		} else {
			run = 0
		}
	}
	return total
}

// slope is the computed slope of i < j, the expression of the all-pairs
// computation.
func (s *slopeSelector) slope(i, j int) float64 {
	return (s.xs[j] - s.xs[i]) / float64(j-i)
}

// kth returns the k-th smallest computed slope (0-based).
func (s *slopeSelector) kth(k int64) float64 {
	v, _ := s.kth2(k, k)
	return v
}

// kth2 returns the k1-th and k2-th smallest computed slopes, k1 ≤ k2, in
// one selection when they are of one sign class (the median's two middle
// ranks nearly always are).
func (s *slopeSelector) kth2(k1, k2 int64) (float64, float64) {
	class := func(k int64) int {
		switch {
		case k < s.below0:
			return -1
		case k < s.below0+s.zeros:
			return 0
		}
		return 1
	}
	c1, c2 := class(k1), class(k2)
	if c1 != c2 {
		a, _ := s.kth2(k1, k1)
		b, _ := s.kth2(k2, k2)
		return a, b
	}
	switch c1 {
	case -1:
		return s.selectIn(k1, k2, bracket{math.Inf(-1), -math.SmallestNonzeroFloat64, math.Inf(-1), 0, math.NaN()})
	case 0:
		return 0, 0
	}
	return s.selectIn(k1, k2, bracket{math.SmallestNonzeroFloat64, math.Inf(1), tinyPositive, math.Inf(1), math.NaN()})
}

// A bracket is an interval [lo, hi] of computed slopes and the interval
// [alpha, beta) of exact slopes that holds every pair computing into it;
// center is the sampled value nearest the target (NaN: none).
type bracket struct{ lo, hi, alpha, beta, center float64 }

// selectRounds bounds the narrowing rounds (each divides the band by
// about √m/6 ≥ 10, or meets a cluster and stops).
const selectRounds = 12

// selectIn finds ranks k1 ≤ k2 among the computed slopes of one sign
// class, whose bracket is class.
func (s *slopeSelector) selectIn(k1, k2 int64, class bracket) (float64, float64) {
	b := class
	cLo, cHi := s.countBelow(b.alpha, false), s.countBelow(b.beta, false)
	maxBand := s.maxBand
	m := min(max(4*s.n, 4096), 1<<20)
	for round := 0; ; round++ {
		band := cHi - cLo
		if band <= maxBand || round >= selectRounds {
			if v1, v2, ok := s.finish(k1, k2, b, cLo, band, band > maxBand); ok {
				return v1, v2
			}
			// Not reached: every bracket is checked to hold the ranks. Stay
			// exact regardless.
			v1, v2, _ := s.finish(k1, k2, class, s.countBelow(class.alpha, false), s.pairs, true)
			return v1, v2
		}
		sample := s.sample(m, b, band)
		if len(sample) == 0 {
			round = selectRounds - 1
			continue
		}
		slices.Sort(sample)
		// The target's place in the sample, from its rank in the band.
		pos1 := float64(k1-cLo) / float64(band) * float64(len(sample))
		pos2 := float64(k2-cLo) / float64(band) * float64(len(sample))
		d := 3 * math.Sqrt(float64(len(sample)))
		nb := b
		nb.center = sample[min(max(int(pos1), 0), len(sample)-1)]
		// Sample values a ≤ z bound the ranks when #{s < a} ≤ k1 and
		// k2 < #{s ≤ z} (exact counts); widened by 2⁻⁴⁷ they bound them
		// among the computed slopes too: s̃ < a − 2⁻⁴⁷|a| ⇒ s < a, and
		// s ≤ z ⇒ s̃ ≤ z + 2⁻⁴⁷|z|. A value that fails the check gives way to
		// the next distinct one outwards (a cluster holds few).
		if a, ok := s.boundBelow(sample, int(math.Floor(pos1-d)), k1); ok {
			nb.lo = a - math.Abs(a)*0x1p-47
			nb.alpha = math.Max(nb.lo-math.Abs(nb.lo)*marginScale, class.alpha)
		}
		if z, ok := s.boundAbove(sample, int(math.Ceil(pos2+d)), k2); ok {
			nb.hi = z + math.Abs(z)*0x1p-47
			nb.beta = math.Min(nb.hi+math.Abs(nb.hi)*marginScale, class.beta)
		}
		nLo, nHi := cLo, cHi
		if nb.alpha != b.alpha {
			nLo = s.countBelow(nb.alpha, false)
		}
		if nb.beta != b.beta {
			nHi = s.countBelow(nb.beta, false)
		}
		if nHi-nLo > band*3/4 {
			round = selectRounds - 1 // a cluster of near-equal slopes: no sample splits it
		}
		b, cLo, cHi = nb, nLo, nHi
	}
}

// boundBelow returns a sample value a at or below sample[i] with
// #{exact slopes < a} ≤ k, trying up to 4 distinct values downwards.
func (s *slopeSelector) boundBelow(sample []float64, i int, k int64) (float64, bool) {
	for tries := 0; tries < 4 && i > 0; tries++ {
		a := sample[i]
		if s.countBelow(a, false) <= k {
			return a, true
		}
		for i > 0 && sample[i] == a {
			i--
		}
		i -= len(sample) / 64 // and a little further each time
	}
	return 0, false
}

// boundAbove returns a sample value z at or above sample[j] with
// #{exact slopes ≤ z} > k, trying up to 4 distinct values upwards.
func (s *slopeSelector) boundAbove(sample []float64, j int, k int64) (float64, bool) {
	for tries := 0; tries < 4 && j < len(sample)-1; tries++ {
		z := sample[j]
		if s.countBelow(z, true) > k {
			return z, true
		}
		for j < len(sample)-1 && sample[j] == z {
			j++
		}
		j += len(sample) / 64
	}
	return 0, false
}

// sample draws about m computed slopes in [lo, hi] uniformly: by rejection
// from all pairs when the band is a large share of them, else by a
// reservoir over the band's enumeration.
func (s *slopeSelector) sample(m int, b bracket, band int64) []float64 {
	lo, hi := b.lo, b.hi
	out := make([]float64, 0, m)
	if float64(m)*float64(s.pairs)/float64(band) < float64(band) {
		for tries := 0; len(out) < m && tries < 1<<28; tries++ {
			i, j := s.rng.IntN(s.n), s.rng.IntN(s.n-1)
			if j >= i {
				j++
			} else {
				i, j = j, i
			}
			if v := s.slope(i, j); v >= lo && v <= hi {
				out = append(out, v)
			}
		}
		return out
	}
	seen := 0
	s.enumerate(b.alpha, false, b.beta, false, func(i, j int) {
		v := s.slope(i, j)
		if v < lo || v > hi {
			return
		}
		seen++
		if len(out) < m {
			out = append(out, v)
		} else if r := s.rng.IntN(seen); r < m {
			out[r] = v
		}
	})
	return out
}

// finish computes the slopes of the pairs with exact slope in b's
// [alpha, beta) and returns ranks k1 ≤ k2 if they fall among those in
// [lo, hi]; cLo pairs lie below alpha, band in it. A band too large to
// hold (asCounts) is a cluster of nearly equal slopes (collinear points),
// kept as counts of its few distinct values and found in one of three
// ways: an exact tie at a value whose products with every distance are
// exact is counted in O(n log n) (x = 2t: every slope is exactly 2), a
// band of most pairs by a plain loop over all pairs (O(n²) time, O(1)
// memory), else by enumeration.
func (s *slopeSelector) finish(k1, k2 int64, b bracket, cLo, band int64, asCounts bool) (float64, float64, bool) {
	lo, hi := b.lo, b.hi
	var below int64
	var vals []float64
	var counts *valueCounts
	if asCounts {
		counts = newValueCounts(lo, hi)
	} else {
		vals = make([]float64, 0, band) // at most the band (≤ maxBand), in one allocation
	}
	visit := func(v float64) {
		switch {
		case v < lo:
			below++
		case v > hi:
		case asCounts:
			counts.add(v)
		default:
			vals = append(vals, v)
		}
	}
	pair := func(i, j int) { visit(s.slope(i, j)) }
	start := cLo // pairs below lo outside the band
	switch v := b.center; {
	case asCounts && s.exactProducts(v) && s.exactTies(v) > band/2:
		// Every pair of exact slope v computes v (x_j − x_i = v·(j−i) is a
		// float): count them, enumerate the rest of the band on each side.
		counts.addN(v, s.exactTies(v))
		s.enumerate(b.alpha, false, v, false, pair)
		s.enumerate(v, true, b.beta, false, pair)
	case asCounts && band > s.pairs/8:
		start = 0
		xs := s.xs
		for i := 0; i < s.n-1; i++ {
			xi := xs[i]
			for j := i + 1; j < s.n; j++ {
				visit((xs[j] - xi) / float64(j-i))
			}
		}
	default:
		s.enumerate(b.alpha, false, b.beta, false, pair)
	}
	r1, r2 := k1-(start+below), k2-(start+below)
	if r1 < 0 {
		return 0, 0, false
	}
	if !asCounts {
		if r2 >= int64(len(vals)) {
			return 0, 0, false
		}
		v2 := SelectKth(vals, int(r2))
		v1 := v2
		if r1 < r2 { // SelectKth left the smaller values below r2
			v1 = SelectKth(vals[:r2], int(r1))
		}
		return v1, v2, true
	}
	return counts.rank(r1, r2)
}

// exactProducts reports whether v·d is a float for every distance d < n:
// v's significand, without trailing zeros, times n−1 fits in 53 bits.
func (s *slopeSelector) exactProducts(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return false
	}
	frac, _ := math.Frexp(math.Abs(v))
	m := uint64(frac * (1 << 53))
	m >>= bits.TrailingZeros64(m)
	return m < (1<<53)/uint64(s.n)
}

// exactTies returns the number of pairs whose exact slope is v.
func (s *slopeSelector) exactTies(v float64) int64 {
	return s.countBelow(v, true) - s.countBelow(v, false)
}

// valueCounts counts occurrences of float values in [lo, hi]: by their
// offset in units in the last place from lo when the interval spans few
// (a cluster of near-equal slopes spans a few hundred), else in a map.
type valueCounts struct {
	base  uint64
	neg   bool
	dense []int64
	more  map[float64]int64
}

func newValueCounts(lo, hi float64) *valueCounts {
	c := &valueCounts{}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.Signbit(lo) != math.Signbit(hi) {
		c.more = map[float64]int64{}
		return c
	}
	a, b := math.Float64bits(lo), math.Float64bits(hi)
	c.neg = math.Signbit(lo)
	if c.neg {
		a, b = b, a // negative floats: larger magnitude, larger bits
	}
	if b-a >= 1<<16 {
		c.more = map[float64]int64{}
		return c
	}
	c.base, c.dense = a, make([]int64, b-a+1)
	return c
}

func (c *valueCounts) add(v float64) { c.addN(v, 1) }

func (c *valueCounts) addN(v float64, n int64) {
	if c.dense != nil {
		c.dense[math.Float64bits(v)-c.base] += n
		return
	}
	c.more[v] += n
}

// rank returns the values at 0-based ranks r1 ≤ r2 of the counted values.
func (c *valueCounts) rank(r1, r2 int64) (float64, float64, bool) {
	var vals []float64
	var ns []int64
	if c.dense != nil {
		for i, n := range c.dense {
			if n > 0 {
				vals = append(vals, math.Float64frombits(c.base+uint64(i)))
				ns = append(ns, n)
			}
		}
		if c.neg {
			slices.Reverse(vals)
			slices.Reverse(ns)
		}
	} else {
		for v := range c.more {
			vals = append(vals, v)
		}
		slices.Sort(vals)
		for _, v := range vals {
			ns = append(ns, c.more[v])
		}
	}
	var v1 float64
	found1 := false
	var seen int64
	for i, v := range vals {
		seen += ns[i]
		if !found1 && r1 < seen {
			v1, found1 = v, true
		}
		if r2 < seen {
			return v1, v, found1
		}
	}
	return 0, 0, false
}

// countBelow returns #{i < j: (x_j − x_i)/(j − i) < θ} (≤ θ when
// inclusive) exactly, for exact slopes: the inversions of the indices
// ordered by y^θ, equal y by index (by descending index when inclusive, so
// that a pair of slope exactly θ counts).
func (s *slopeSelector) countBelow(theta float64, inclusive bool) int64 {
	switch {
	case math.IsInf(theta, -1):
		return 0
	case math.IsInf(theta, 1):
		return s.pairs
	}
	s.orderBy(theta, inclusive, s.order)
	copy(s.buf, s.order)
	return countInversions(s.buf, make([]int32, s.n))
}

// orderBy fills order with the indices sorted by y_t = x_t − θt, compared
// exactly, ties by index (descending when tiesDown); θ = ∓Inf give index
// order and its reverse (the limits).
//
// The indices are sorted by the computed ỹ_t = fl(x_t − fl(θt)) first,
// then every cluster of consecutive ỹ less than gap apart is sorted again
// exactly (cmpY): |ỹ_t − y_t| ≤ u(|x_t| + 2|θt|) < gap/2, so two indices
// whose ỹ lie further apart than gap are in their exact order already,
// and so is every index of a cluster against every other cluster. The
// exact order is a total order, so the result is the one a sort by cmpY
// alone gives (it was: each comparison then cost an exact sign).
func (s *slopeSelector) orderBy(theta float64, tiesDown bool, order []int32) {
	for i := range order {
		order[i] = int32(i)
	}
	switch {
	case math.IsInf(theta, -1):
		return
	case math.IsInf(theta, 1):
		slices.Reverse(order)
		return
	}
	if s.keys == nil {
		s.keys = make([]yKey, s.n)
	}
	keys := s.keys
	bound := 0.0
	for t, x := range s.xs {
		p := theta * float64(t)
		keys[t] = yKey{y: x - p, i: int32(t)}
		bound = math.Max(bound, math.Abs(x)+math.Abs(p))
	}
	slices.SortFunc(keys, func(a, b yKey) int {
		switch {
		case a.y < b.y:
			return -1
		case a.y > b.y:
			return 1
		}
		return int(a.i - b.i)
	})
	// 2⁻⁵⁰·bound is twice the error of two ỹ, 2⁻¹⁰⁶⁰ the absolute error
	// of a difference in the subnormal range.
	gap := 0x1p-50*bound + 0x1p-1060
	exact := func(a, b yKey) int {
		if c := cmpY(s.xs, theta, int(a.i), int(b.i)); c != 0 {
			return c
		}
		if tiesDown {
			return int(b.i - a.i)
		}
		return int(a.i - b.i)
	}
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].y-keys[j-1].y <= gap {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], exact)
		}
		i = j
	}
	for t, k := range keys {
		order[t] = k.i
	}
}

// yKey is an index and its computed y_t = x_t − θt.
type yKey struct {
	y float64
	i int32
}

// enumerate calls fn(i, j), i < j, for every pair with exact slope in
// [alpha, beta): the pairs ordered one way by y^alpha and the other by
// y^beta. With alphaDown the interval is open at alpha, with betaDown
// closed at beta (ties ordered by descending index count as below).
func (s *slopeSelector) enumerate(alpha float64, alphaDown bool, beta float64, betaDown bool, fn func(i, j int)) {
	n := s.n
	if s.rank == nil {
		s.rank = make([]int32, n)
		s.seqV, s.seqI = make([]int32, n), make([]int32, n)
		s.bufV, s.bufI = make([]int32, n), make([]int32, n)
	}
	s.orderBy(beta, betaDown, s.order)
	for pos, idx := range s.order {
		s.rank[idx] = int32(pos)
	}
	s.orderBy(alpha, alphaDown, s.order)
	for t, idx := range s.order {
		s.seqV[t], s.seqI[t] = s.rank[idx], idx
	}
	// Bottom-up merge sort of seqV; an element taken from the right half
	// ahead of the rest of the left half is out of order with each of them.
	v, ix, bv, bi := s.seqV, s.seqI, s.bufV, s.bufI
	for width := 1; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, o := lo, mid, lo
			for i < mid && j < hi {
				if v[j] < v[i] {
					for t := i; t < mid; t++ {
						fn(int(ix[t]), int(ix[j]))
					}
					bv[o], bi[o] = v[j], ix[j]
					j++
				} else {
					bv[o], bi[o] = v[i], ix[i]
					i++
				}
				o++
			}
			for ; i < mid; i, o = i+1, o+1 {
				bv[o], bi[o] = v[i], ix[i]
			}
			for ; j < hi; j, o = j+1, o+1 {
				bv[o], bi[o] = v[j], ix[j]
			}
		}
		v, ix, bv, bi = bv, bi, v, ix
	}
}

// countInversions returns #{t1 < t2: a[t1] > a[t2]} by a bottom-up merge
// sort, sorting a (buf is scratch of the same length; a holds no NaN).
func countInversions[T cmp.Ordered](a, buf []T) int64 {
	var inv int64
	n := len(a)
	src, dst := a, buf
	for width := 1; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, o := lo, mid, lo
			for i < mid && j < hi {
				if src[j] < src[i] {
					inv += int64(mid - i)
					dst[o] = src[j]
					j++
				} else {
					dst[o] = src[i]
					i++
				}
				o++
			}
			o += copy(dst[o:], src[i:mid])
			copy(dst[o:], src[j:hi])
		}
		src, dst = dst, src
	}
	return inv
}

// cmpY returns the sign of y_a − y_b = (x_a − x_b) − θ·(a − b), computed
// exactly: x_a − x_b = s + e (TwoSum), θ·(a − b) = p + q (FMA), and the
// sign of s + e − p − q from an exact expansion when the rounded s − p
// cannot decide it.
func cmpY(xs []float64, theta float64, a, b int) int {
	d := float64(a - b)
	p := theta * d
	s := xs[a] - xs[b]
	t := s - p
	// |(s + e − p − q) − t| ≤ u(|t| + |s| + |p|); decide on t when it is
	// clearly larger (the bound computed with room for its own rounding).
	if math.Abs(t) > 0x1p-51*(math.Abs(t)+math.Abs(s)+math.Abs(p)) {
		return sign(t)
	}
	q := math.FMA(theta, d, -p)
	e := twoSumErr(xs[a], -xs[b], s)
	return expansionSign(s, e, -p, -q)
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// twoSumErr returns the rounding error of s = fl(a + b): a + b = s + err
// exactly (Knuth's TwoSum).
func twoSumErr(a, b, s float64) float64 {
	bv := s - a
	av := s - bv
	return (a - av) + (b - bv)
}

// expansionSign returns the sign of the exact sum of four floats: grown
// into a non-overlapping expansion (Shewchuk's Grow-Expansion), whose
// largest non-zero component has the sign of the sum.
func expansionSign(terms ...float64) int {
	var h [4]float64
	m := 0
	for _, b := range terms {
		q := b
		for i := 0; i < m; i++ {
			sum := q + h[i]
			h[i] = twoSumErr(q, h[i], sum)
			q = sum
		}
		h[m] = q
		m++
	}
	for i := m - 1; i >= 0; i-- {
		if h[i] != 0 {
			return sign(h[i])
		}
	}
	return 0
}
