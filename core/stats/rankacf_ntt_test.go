package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestGoldilocksArithmetic: the transform's modular add, subtract and
// multiply against math/big on the edge residues and random ones.
func TestGoldilocksArithmetic(t *testing.T) {
	p := new(big.Int).SetUint64(goldilocks)
	rng := rand.New(rand.NewPCG(3, 9))
	vals := []uint64{0, 1, 2, goldEpsilon, goldEpsilon + 1, 1 << 32, 1 << 63, goldilocks - 1, goldilocks - 2,
		goldilocks / 2, goldilocks/2 + 1}
	for range 200 {
		vals = append(vals, rng.Uint64()%goldilocks)
	}
	ref := func(op func(z, x, y *big.Int) *big.Int, a, b uint64) uint64 {
		z := op(new(big.Int), new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
		return z.Mod(z, p).Uint64()
	}
	for _, a := range vals {
		for _, b := range vals {
			if got, want := gAdd(a, b), ref((*big.Int).Add, a, b); got != want {
				t.Fatalf("gAdd(%d, %d) = %d, want %d", a, b, got, want)
			}
			if got, want := gSub(a, b), ref((*big.Int).Sub, a, b); got != want {
				t.Fatalf("gSub(%d, %d) = %d, want %d", a, b, got, want)
			}
			if got, want := gMul(a, b), ref((*big.Int).Mul, a, b); got != want {
				t.Fatalf("gMul(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
	// 7 generates the group: 7^((p−1)/2) = −1, so the 2^k-th roots are primitive.
	if got := gPow(goldGenerator, (goldilocks-1)/2); got != goldilocks-1 {
		t.Errorf("7^((p-1)/2) = %d, want p-1", got)
	}
}

// TestRankACFTransformMatchesLoop: the transform's autocorrelations are the
// direct loop's floats bit for bit (the loop kept as the oracle), and so
// are Hamed–Rao's S, variance and correction, on series of every shape
// from 512 to 5000 points (10,000 without -short), including ties (the
// ordinal ranks break them), ramps (autocorrelations near 1 at every
// lag) and constant series.
func TestRankACFTransformMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	sizes := []int{512, 513, 640, 1023, 1024, 1500, 2048, 5000}
	if !testing.Short() {
		sizes = append(sizes, 10000)
	}
	checked := 0
	for _, n := range sizes {
		for name, xs := range randomSeries(rng, n) {
			r := OrdinalRanks(xs)
			dev := make([]float64, n)
			den := 0.0
			for i, x := range r {
				dev[i] = x - Sum(r)/float64(n)
				den += dev[i] * dev[i]
			}
			if !transformable(dev, n-1) {
				t.Fatalf("%s n=%d: ordinal ranks not transformable", name, n)
			}
			want, got := make([]float64, n-1), make([]float64, n-1)
			rankACFLoop(dev, den, want, nil)
			if !rankACFTransform(dev, den, got, nil) {
				t.Fatalf("%s n=%d: transform stopped without a stop", name, n)
			}
			for k := range want {
				if !sameFloat(got[k], want[k]) {
					t.Fatalf("%s n=%d: rho_%d = %v by the transform, %v by the loop", name, n, k+1, got[k], want[k])
				}
			}
			hr := HamedRao(xs)
			acf := make([]float64, n-1)
			rankACFLoop(dev, den, acf, nil)
			if c := loopCorrection(acf, n); !sameFloat(hr.Correction, c) {
				t.Fatalf("%s n=%d: Hamed–Rao correction %v, %v from the loop's autocorrelations", name, n, hr.Correction, c)
			}
			checked++
		}
	}
	t.Logf("%d series compared lag by lag", checked)
}

// loopCorrection is Hamed–Rao's correction C from the autocorrelations
// acf (hamedRaoFrom's arithmetic, written out again for the oracle).
func loopCorrection(acf []float64, n int) float64 {
	bound := ciZ95 / math.Sqrt(float64(n))
	f := 0.0
	for k := 1; k < n; k++ {
		if r := acf[k-1]; math.Abs(r) > bound {
			f += float64(float64(int64(n-k)*int64(n-k-1)*int64(n-k-2)) * r)
		}
	}
	c := 1.0 + float64((2.0/float64(int64(n)*int64(n-1)*int64(n-2)))*f)
	if c <= 0 {
		c = 1.0
	}
	return c
}

// TestRankACFTransformStops: a stop that fires ends the transform with
// ok = false, and Hamed–Rao reports it.
func TestRankACFTransformStops(t *testing.T) {
	xs := seq(4096)
	calls := 0
	stop := func() bool { calls++; return calls > 3 }
	if _, ok := HamedRaoStop(xs, stop); ok {
		t.Fatal("HamedRaoStop: ok after the stop fired")
	}
	if calls != 4 {
		t.Errorf("stop polled %d times before ending, want 4 (one per stage once the transform runs)", calls)
	}
}
