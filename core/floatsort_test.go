package core

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
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
	var fs floatSorter
	for trial := range 20 {
		for name, xs := range floatShapes(rng) {
			want := slices.Clone(xs)
			slices.Sort(want)
			got := slices.Clone(xs)
			fs.sort(got)
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
		var fs floatSorter
		fs.sort(xs)
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
				var fs floatSorter
				for b.Loop() {
					copy(buf, xs)
					fs.sort(buf)
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

// TestSeqOrderIsStableSort checks rollupOf's sample order against a stable
// sort by seq of the selected samples: ties, negative and huge seqs (the
// packed keys' fallback), missing columns, exclusions, presorted input.
func TestSeqOrderIsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	var b rollupBuffers
	for trial := range 400 {
		n := 1 + rng.IntN(1500)
		lo := rng.IntN(n)
		hi := lo + 1 + rng.IntN(n-lo)
		has := make([]bool, max(n-rng.IntN(3), 0)) // sometimes short: a missing tail
		seq := make([]int64, max(n-rng.IntN(3), 0))
		var exclude []bool
		if trial%3 == 0 {
			exclude = make([]bool, n)
		}
		for i := range has {
			has[i] = rng.IntN(8) > 0
		}
		for i := range seq {
			switch trial % 5 {
			case 0:
				seq[i] = int64(rng.IntN(20)) // ties
			case 1:
				seq[i] = int64(i) // presorted
			case 2:
				seq[i] = int64(rng.Uint64()) // span too wide to pack
			default:
				seq[i] = int64(i + rng.IntN(40) - 20)
			}
		}
		for i := range exclude {
			exclude[i] = rng.IntN(10) == 0
		}
		var want []int
		for i := lo; i < hi; i++ {
			if at(has, i, false) && !at(exclude, i, false) {
				want = append(want, i)
			}
		}
		slices.SortStableFunc(want, func(x, y int) int {
			return cmp.Compare(at(seq, x, int64(x)), at(seq, y, int64(y)))
		})
		got := b.seqOrder(lo, hi, has, seq, exclude)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d [%d, %d): seqOrder = %v, want %v", trial, lo, hi, got, want)
		}
	}
}
