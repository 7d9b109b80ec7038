package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ratStdev is an independent exact computation for the tests: the variance
// Σ(x − x̄)²/(n − ddof) as a big.Rat, its square root at 300 bits, rounded
// once to float64 (the correctly rounded value of detector §5.2).
func ratStdev(xs []float64, ddof int) float64 {
	n := len(xs)
	var mean, ss, d, x big.Rat
	for _, v := range xs {
		x.SetFloat64(v)
		mean.Add(&mean, &x)
	}
	mean.Quo(&mean, new(big.Rat).SetInt64(int64(n)))
	for _, v := range xs {
		x.SetFloat64(v)
		d.Sub(&x, &mean)
		d.Mul(&d, &d)
		ss.Add(&ss, &d)
	}
	ss.Quo(&ss, new(big.Rat).SetInt64(int64(n-ddof)))
	f := new(big.Float).SetPrec(300).SetRat(&ss)
	f.Sqrt(f)
	r, _ := f.Float64()
	return r
}

func TestPStdevExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	gens := map[string]func() float64{
		"tpot-ns":  func() float64 { return 4e7 * (1 + 0.1*rng.NormFloat64()) },
		"unit":     func() float64 { return rng.Float64() },
		"mixed":    func() float64 { return math.Ldexp(rng.Float64()-0.5, rng.IntN(80)-40) },
		"integers": func() float64 { return float64(rng.IntN(1000)) },
		"tiny":     func() float64 { return math.Ldexp(rng.Float64(), -1060) },
	}
	for name, gen := range gens {
		for trial := 0; trial < 300; trial++ {
			n := 1 + rng.IntN(70)
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = gen()
			}
			if got, want := PStdev(xs), ratStdev(xs, 0); got != want {
				t.Fatalf("%s: PStdev(%v) = %v, want %v", name, xs, got, want)
			}
			if n >= 2 {
				if got, want := Stdev(xs), ratStdev(xs, 1); got != want {
					t.Fatalf("%s: Stdev(%v) = %v, want %v", name, xs, got, want)
				}
			}
		}
	}
}

func TestPStdevSpecial(t *testing.T) {
	// Python statistics.pstdev: sqrt(1.25) for 1..4 (vectors inc4 std_ddof0
	// 1.118033988749895).
	if got := PStdev([]float64{1, 2, 3, 4}); got != 1.118033988749895 {
		t.Errorf("PStdev(1..4) = %v", got)
	}
	if got := PStdev([]float64{3}); got != 0 {
		t.Errorf("PStdev of one value = %v", got)
	}
	if got := PStdev([]float64{0, 0}); got != 0 {
		t.Errorf("PStdev of zeros = %v", got)
	}
	for _, xs := range [][]float64{nil, {1, math.NaN()}, {1, math.Inf(1)}} {
		if got := PStdev(xs); !math.IsNaN(got) {
			t.Errorf("PStdev(%v) = %v, want NaN", xs, got)
		}
	}
	if got := Stdev([]float64{1}); !math.IsNaN(got) {
		t.Errorf("Stdev of one value = %v, want NaN", got)
	}
	// Huge and tiny magnitudes together stay exact.
	xs := []float64{1e300, -1e300, 5e-324, 1}
	if got, want := PStdev(xs), ratStdev(xs, 0); got != want {
		t.Errorf("PStdev(%v) = %v, want %v", xs, got, want)
	}
}

// TestPStdevPaths checks that the fixed-width fast path and the big-integer
// path agree with the independent rational computation, including values
// near rounding boundaries (perfect squares and their neighbours).
func TestPStdevPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	fast := 0
	for trial := 0; trial < 20000; trial++ {
		n := 2 + rng.IntN(40)
		xs := make([]float64, n)
		switch trial % 4 {
		case 0: // small integers: many exact square roots and ties
			for i := range xs {
				xs[i] = float64(rng.IntN(7))
			}
		case 1: // latency-like
			for i := range xs {
				xs[i] = 3e7 + float64(rng.IntN(1e6))/7
			}
		case 2: // two distinct values: the stdev is |a−b|·√(k(n−k))/n
			a, b := rng.Float64(), rng.Float64()
			for i := range xs {
				xs[i] = a
				if rng.IntN(2) == 0 {
					xs[i] = b
				}
			}
		default: // wide exponent range: big path
			for i := range xs {
				xs[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-20)
			}
		}
		emin := math.MaxInt
		for _, x := range xs {
			if x != 0 {
				_, e := math.Frexp(x)
				emin = min(emin, e-53)
			}
		}
		want := ratStdev(xs, 0)
		if got := PStdev(xs); got != want {
			t.Fatalf("PStdev(%v) = %v, want %v", xs, got, want)
		}
		if emin != math.MaxInt {
			if acc, ok := fixedSums(xs, emin); ok {
				if y, ok := acc.fastStdev(n, 0, emin); ok {
					fast++
					if y != want {
						t.Fatalf("fast path on %v = %v, want %v", xs, y, want)
					}
				}
			}
		}
	}
	if fast < 10000 {
		t.Errorf("fast path taken only %d times", fast)
	}
	t.Logf("fast path decided %d of 20000", fast)
}

// TestPStdevListsMatchesConcatenation: PStdevLists of a list cut in
// random pieces (empty ones included) is the exact rational √ of the
// whole list's variance (ratStdev) and PStdev's bits, on the fixed-width
// and the big-integer paths (values spanning more than 2^10), and NaN
// with a non-finite value or no value.
func TestPStdevListsMatchesConcatenation(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	shapes := map[string][]float64{
		"tpot":   make([]float64, 2000),
		"wide":   make([]float64, 500),
		"zeros":  {0, 0, 0},
		"single": {3.5},
	}
	for i := range shapes["tpot"] {
		shapes["tpot"][i] = float64(rng.Int64N(9e9)) / float64(1+rng.IntN(900))
	}
	for i := range shapes["wide"] {
		shapes["wide"][i] = math.Ldexp(rng.Float64(), rng.IntN(60)-30)
	}
	for name, xs := range shapes {
		want := ratStdev(xs, 0)
		for trial := range 10 {
			var lists [][]float64
			for rest := xs; len(rest) > 0; {
				k := rng.IntN(len(rest) + 1)
				lists = append(lists, rest[:k])
				rest = rest[k:]
				if trial%3 == 0 {
					lists = append(lists, nil)
				}
			}
			if got := PStdevLists(lists); got != want || got != PStdev(xs) {
				t.Fatalf("%s (trial %d, %d pieces): %v, want %v", name, trial, len(lists), got, want)
			}
		}
	}
	if !math.IsNaN(PStdevLists(nil)) || !math.IsNaN(PStdevLists([][]float64{{1}, {math.Inf(1)}})) {
		t.Error("no values or an infinity: want NaN")
	}
}
