package stats

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"
)

// floatShapes are lists of the shapes the detector sorts (integral
// nanosecond TTFTs and latencies, fractional TPOTs) and the edge cases of
// floatKey's order (negatives, zeros of either sign, infinities,
// subnormals, NaN), each long enough for the radix path.
func floatShapes(rng *rand.Rand) map[string][]float64 {
	gen := func(n int, f func(i int) float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = f(i)
		}
		return xs
	}
	edge := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 1, -1}
	return map[string][]float64{
		"ttft-ns":    gen(1000, func(int) float64 { return float64(5e7 + rng.Int64N(4e8)) }),
		"tpot-ns":    gen(1000, func(int) float64 { return float64(rng.Int64N(9e9)) / float64(1+rng.IntN(900)) }),
		"ties":       gen(700, func(int) float64 { return float64(rng.IntN(7)) }),
		"constant":   gen(300, func(int) float64 { return 42 }),
		"signed":     gen(900, func(int) float64 { return (rng.Float64() - 0.5) * math.Exp(rng.Float64()*80-40) }),
		"pos-zeros":  gen(400, func(i int) float64 { return float64(i%3) * rng.Float64() }),
		"neg-zeros":  gen(400, func(i int) float64 { return -float64(i%3) * rng.Float64() }),
		"both-zeros": gen(400, func(i int) float64 { return math.Copysign(0, float64(i%2*2-1)) }),
		"edge":       gen(500, func(int) float64 { return edge[rng.IntN(len(edge)-2)] }), // no zero of both signs... mostly
		"edge+nan":   gen(500, func(i int) float64 { return append(edge, math.NaN())[rng.IntN(len(edge)+1)] }),
		"short":      gen(radixMinLen-1, func(int) float64 { return rng.NormFloat64() }),
		"at-min":     gen(radixMinLen, func(int) float64 { return rng.NormFloat64() }),
	}
}

// TestFloatSorterMatchesSlicesSort checks the radix sort against
// slices.Sort, bit for bit, on every shape (the zero-sign and NaN cases
// take slices.Sort's own path, so the comparison is exact there too), with
// the sorter's buffers reused from list to list.
func TestFloatSorterMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	var fs FloatSorter
	for trial := range 20 {
		for name, xs := range floatShapes(rng) {
			want := slices.Clone(xs)
			slices.Sort(want)
			got := slices.Clone(xs)
			fs.Sort(got)
			assertSameBits(t, name, trial, got, want)
		}
	}
}

func assertSameBits(t *testing.T, name string, trial int, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s trial %d: length %d, want %d", name, trial, len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("%s trial %d: [%d] = %v, want %v", name, trial, i, got[i], want[i])
		}
	}
}

// TestFloatKeyOrder checks floatKey's order on the edge values and that
// keyFloat inverts it.
func TestFloatKeyOrder(t *testing.T) {
	asc := []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, math.Copysign(0, -1), 0,
		math.SmallestNonzeroFloat64, 1, math.MaxFloat64, math.Inf(1)}
	for i, x := range asc {
		if back := keyFloat(floatKey(x)); math.Float64bits(back) != math.Float64bits(x) {
			t.Errorf("keyFloat(floatKey(%v)) = %v", x, back)
		}
		if i > 0 && floatKey(asc[i-1]) >= floatKey(x) {
			t.Errorf("floatKey(%v) = %#x ≥ floatKey(%v) = %#x", asc[i-1], floatKey(asc[i-1]), x, floatKey(x))
		}
	}
}

// FuzzFloatSorter sorts arbitrary bit patterns (8 bytes a value, repeated
// to reach the radix path) and compares with slices.Sort.
func FuzzFloatSorter(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0x80, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f})
	f.Fuzz(func(t *testing.T, data []byte) {
		var xs []float64
		for len(data) >= 8 {
			xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		if len(xs) == 0 {
			return
		}
		for len(xs) < radixMinLen {
			xs = append(xs, xs[len(xs)%7%len(xs)]*float64(len(xs)%5))
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		var fs FloatSorter
		fs.Sort(xs)
		assertSameBits(t, "fuzz", 0, xs, want)
	})
}

// BenchmarkSortFloats compares the radix sort with slices.Sort on the
// detector's list shapes and lengths (a super-pass: 1000; a pooled
// window: 60000).
func BenchmarkSortFloats(b *testing.B) {
	rng := rand.New(rand.NewPCG(16, 2))
	for _, n := range []int{128, 256, 1000, 60000} {
		for _, shape := range []string{"ttft-ns", "tpot-ns"} {
			xs := make([]float64, n)
			for i := range xs {
				if shape == "ttft-ns" {
					xs[i] = float64(5e7 + rng.Int64N(4e8))
				} else {
					xs[i] = float64(rng.Int64N(9e9)) / float64(1+rng.IntN(900))
				}
			}
			buf := make([]float64, n)
			b.Run(shape+"/n="+strconv.Itoa(n)+"/radix", func(b *testing.B) {
				var fs FloatSorter
				for b.Loop() {
					copy(buf, xs)
					fs.Sort(buf)
				}
			})
			b.Run(shape+"/n="+strconv.Itoa(n)+"/pdqsort", func(b *testing.B) {
				for b.Loop() {
					copy(buf, xs)
					slices.Sort(buf)
				}
			})
		}
	}
}

// TestOrderStatsMatchSort checks OrderStats against indexing a sorted
// copy, on every shape (long enough for the bucket selection, and short),
// with ranks at both ends, repeated ranks and ranks sharing a bucket.
func TestOrderStatsMatchSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 5))
	var fs FloatSorter
	for trial := range 6 {
		for name, short := range floatShapes(rng) {
			for _, xs := range [][]float64{short, repeatTo(short, 9000+rng.IntN(70000), rng)} {
				n := len(xs)
				want := slices.Clone(xs)
				slices.Sort(want)
				ranks := []int{0, n - 1, n / 2, n / 2, int(0.9 * float64(n-1)), int(0.99 * float64(n-1)), n - 1 - n/1000}
				for range 8 {
					ranks = append(ranks, rng.IntN(n))
				}
				got := make([]float64, len(ranks))
				orig := slices.Clone(xs)
				fs.OrderStats(xs, ranks, got)
				assertSameBits(t, name+" (input kept)", trial, xs, orig)
				wantAt := make([]float64, len(ranks))
				for i, r := range ranks {
					wantAt[i] = want[r]
				}
				assertSameBits(t, name, trial, got, wantAt)
			}
		}
	}
}

// repeatTo extends xs to n values by drawing from it with small
// perturbations (so long lists keep the shape's edge values).
func repeatTo(xs []float64, n int, rng *rand.Rand) []float64 {
	out := make([]float64, n)
	for i := range out {
		x := xs[rng.IntN(len(xs))]
		if rng.IntN(2) == 0 && x == x && !math.IsInf(x, 0) && x != 0 {
			x = math.Nextafter(x, math.Inf(1))
		}
		out[i] = x
	}
	return out
}

// TestFloatSorterMedian checks FloatSorter.Median against Median on every
// shape, short and long, odd and even.
func TestFloatSorterMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 7))
	var fs FloatSorter
	for trial := range 4 {
		for name, short := range floatShapes(rng) {
			for _, xs := range [][]float64{short, short[:len(short)-1], repeatTo(short, 9000+rng.IntN(70000), rng)} {
				got, want := fs.Median(xs), Median(xs)
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("%s trial %d n=%d: Median %v, want %v", name, trial, len(xs), got, want)
				}
			}
		}
	}
	if m := fs.Median(nil); !math.IsNaN(m) {
		t.Fatalf("Median(nil) = %v", m)
	}
}

// TestFloatKeyConstants checks the named keys against floatKey.
func TestFloatKeyConstants(t *testing.T) {
	for _, c := range []struct {
		x   float64
		key uint64
	}{{math.Inf(-1), negInfKey}, {math.Copysign(0, -1), negZeroKey}, {0, posZeroKey}, {math.Inf(1), posInfKey}} {
		if got := floatKey(c.x); got != c.key {
			t.Errorf("floatKey(%v) = %#x, want %#x", c.x, got, c.key)
		}
	}
}

// TestSortCopyAndKeysMatchSortFloat64s pits SortCopy, Sort and SortKeysTo
// against sort.Float64s on random, duplicate-heavy, NaN/±Inf and −0/+0
// lists, short and long (both paths), with the sorter's buffers reused:
// the same values in the same order, bit for bit, except that the zeros
// of a list holding both signs may come in either sign order (as between
// sort.Float64s and slices.Sort, neither stable); SortCopy leaves its
// source as it was. SortKeysTo takes the lists its contract allows (no
// NaN, not both zeros) and the keys of integers, as the rollups give it.
func TestSortCopyAndKeysMatchSortFloat64s(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 2))
	var fs FloatSorter
	shapes := func() map[string][]float64 {
		m := floatShapes(rng)
		m["dups"] = make([]float64, 3000)
		for i := range m["dups"] {
			m["dups"][i] = float64(rng.IntN(40)) * 1e6
		}
		m["ints"] = make([]float64, 1000)
		for i := range m["ints"] {
			m["ints"][i] = float64(rng.Int64N(1 << 40))
		}
		m["inf"] = make([]float64, 800)
		for i := range m["inf"] {
			m["inf"][i] = []float64{math.Inf(1), math.Inf(-1), rng.NormFloat64(), 7}[rng.IntN(4)]
		}
		return m
	}
	for trial := range 10 {
		for name, xs := range shapes() {
			want := slices.Clone(xs)
			sort.Float64s(want)
			src := slices.Clone(xs)
			got := make([]float64, len(xs))
			fs.SortCopy(got, src)
			assertSameBits(t, name+" (SortCopy source kept)", trial, src, xs)
			assertSortedLike(t, name+" SortCopy", trial, got, want)
			fs.Sort(src)
			assertSortedLike(t, name+" Sort", trial, src, want)
			neg, pos, nan := false, false, false
			keys := make([]uint64, len(xs))
			for i, x := range xs {
				neg, pos, nan = neg || x == 0 && math.Signbit(x), pos || x == 0 && !math.Signbit(x), nan || x != x
				keys[i] = FloatKey(x)
			}
			if nan || neg && pos {
				continue
			}
			clear(got)
			fs.SortKeysTo(got, keys)
			assertSameBits(t, name+" SortKeysTo", trial, got, want)
		}
	}
}

// assertSortedLike is assertSameBits, except that zeros of either sign
// match each other (their order among equal values is unspecified; their
// numbers must agree).
func assertSortedLike(t *testing.T, name string, trial int, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s trial %d: length %d, want %d", name, trial, len(got), len(want))
	}
	negZeros := func(xs []float64) int {
		c := 0
		for _, x := range xs {
			if x == 0 && math.Signbit(x) {
				c++
			}
		}
		return c
	}
	if g, w := negZeros(got), negZeros(want); g != w {
		t.Fatalf("%s trial %d: %d negative zeros, want %d", name, trial, g, w)
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) && !(g == 0 && w == 0) {
			t.Fatalf("%s trial %d: [%d] = %v, want %v", name, trial, i, g, w)
		}
	}
}
