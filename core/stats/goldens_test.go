package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Goldens quoted in spec/detector.md (the Python reference at 40b78bfe run
// under Python 3.12; §16.1 lists them). Values that pass through libm are
// compared with the §15 tolerances; the rest must be bit-identical.

func ramp12() []float64 { return seq(12) } // [0..11], the upstream ramp fixture

// saw12 is the upstream saw fixture [0,20,2,22,…,10,30] (detector §7.2).
func saw12() []float64 {
	var xs []float64
	for i := 0; i < 6; i++ {
		xs = append(xs, float64(2*i), float64(20+2*i))
	}
	return xs
}

func TestGoldenSum(t *testing.T) {
	// Neumaier sum as Python 3.12's sum (detector §5.1): the compensation
	// recovers what plain left-to-right summation loses.
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"tenths", slices.Repeat([]float64{0.1}, 10), 1.0},  // 3.11: 0.9999999999999999
		{"cancel", []float64{1e100, 1.0, -1e100, 1.0}, 2.0}, // plain: 1.0
		{"empty", nil, 0},
		{"negative zero", []float64{math.Copysign(0, -1)}, 0},
		// Non-finite compensation is dropped (§5.1 "if c is finite").
		{"overflow", []float64{1e308, 1e308}, math.Inf(1)},
		{"inf", []float64{math.Inf(1), 1}, math.Inf(1)},
	}
	for _, tt := range tests {
		got := Sum(tt.xs)
		if got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
			t.Errorf("%s: Sum = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := Mean(nil); !math.IsNaN(got) {
		t.Errorf("Mean(nil) = %v, want NaN", got)
	}
}

func TestGoldenCoV(t *testing.T) {
	// detector §5.2 golden.
	if got, want := CoV([]float64{3, 3.2, 2.9, 3.15}), 0.03893629393538556; got != want {
		t.Errorf("CoV = %v, want %v", got, want)
	}
	// detector §5.2 special cases.
	for _, xs := range [][]float64{nil, {5}, {-1, 1}, {0, 0, 0}} {
		if got := CoV(xs); got != 0 {
			t.Errorf("CoV(%v) = %v, want 0", xs, got)
		}
	}
	if got := CoV([]float64{1, math.NaN()}); !math.IsNaN(got) {
		t.Errorf("CoV with NaN = %v, want NaN", got)
	}
}

func TestGoldenPercentileLower(t *testing.T) {
	// detector §5.4 examples: p90 of 10 → index 8; p99 of 4 → 2; p50 of 4 → 1;
	// p99 of 100 → 98.
	tests := []struct {
		n    int
		p    float64
		want int
	}{{10, 0.90, 8}, {4, 0.99, 2}, {4, 0.50, 1}, {100, 0.99, 98}}
	for _, tt := range tests {
		if got := PercentileLower(seq(tt.n), tt.p); got != float64(tt.want) {
			t.Errorf("PercentileLower(n=%d, %v) = %v, want index %d", tt.n, tt.p, got, tt.want)
		}
	}
	for _, p := range []float64{-0.1, 1.1, math.NaN()} {
		if got := PercentileLower(seq(4), p); !math.IsNaN(got) {
			t.Errorf("PercentileLower(p=%v) = %v, want NaN", p, got)
		}
	}
	if got := PercentileLower(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("PercentileLower(nil) = %v, want NaN", got)
	}
}

func TestGoldenMedian(t *testing.T) {
	// detector §5.3: odd → middle, even → (a+b)/2.
	if got := Median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("odd median = %v", got)
	}
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("even median = %v", got)
	}
	if got := Median(nil); !math.IsNaN(got) {
		t.Errorf("Median(nil) = %v", got)
	}
}

func TestGoldenRanks(t *testing.T) {
	// detector §5.5: ordinal ranks break ties by input order; average ranks
	// give a tied block at sorted positions i..j the rank (i+1+j+1)/2.
	xs := []float64{3, 1, 3, 2, 3}
	if got, want := OrdinalRanks(xs), []float64{3, 1, 4, 2, 5}; !slices.Equal(got, want) {
		t.Errorf("OrdinalRanks = %v, want %v", got, want)
	}
	if got, want := AverageRanks(xs), []float64{4, 1, 4, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("AverageRanks = %v, want %v", got, want)
	}
}

func TestGoldenTCritical95(t *testing.T) {
	// detector §5.8 table.
	tests := map[int]float64{1: 12.706, 2: 4.303, 10: 2.228, 29: 2.045, 30: 2.042, 31: 1.96, 0: 1.96, -3: 1.96}
	for df, want := range tests {
		if got := TCritical95(df); got != want {
			t.Errorf("TCritical95(%d) = %v, want %v", df, got, want)
		}
	}
}

func TestGoldenBatchMeansCI(t *testing.T) {
	// detector §5.9 goldens.
	tests := []struct {
		in     []float64
		lo, hi float64
	}{
		{[]float64{8, 10, 12, 10}, 7.401907879487975, 12.598092120512025},
		{[]float64{1, 2}, -4.853, 7.853},
		{nil, 0, 0},
		{[]float64{7}, 7, 7},
	}
	for _, tt := range tests {
		lo, hi := BatchMeansCI(tt.in)
		// Squares via GlibcPow as the reference's ** 2: bit-exact.
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("BatchMeansCI(%v) = (%v, %v), want (%v, %v)", tt.in, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestGoldenHistogram(t *testing.T) {
	// detector §5.10 golden (log mode): [1,2,2,3,5,8,13] in 4 bins. The edges
	// pass through glibc pow; GlibcPow makes them bit-exact (math.Pow gives
	// 6.846325042023045 for the fourth).
	h := Histogram([]float64{1, 2, 2, 3, 5, 8, 13}, 4)
	edges := []float64{1.0, 1.8988289221159418, 3.605551275463989, 6.846325042023046, 13.0}
	counts := []int{1, 3, 1, 2}
	if len(h) != 4 {
		t.Fatalf("got %d bins, want 4", len(h))
	}
	for b, bin := range h {
		if bin.Lo != edges[b] || bin.Hi != edges[b+1] || bin.Count != counts[b] {
			t.Errorf("bin %d = %+v, want {%v %v %d}", b, bin, edges[b], edges[b+1], counts[b])
		}
	}
	if h[0].Lo != 1.0 {
		t.Errorf("edge 0 = %v, want lo exactly", h[0].Lo)
	}
	// Linear mode (lo ≤ 0) and the single-bin case, by the §5.10 rules.
	lin := Histogram([]float64{-1, 0, 1}, 4)
	wantLin := []Bin{{-1, -0.5, 1}, {-0.5, 0, 0}, {0, 0.5, 1}, {0.5, 1, 1}}
	if !slices.Equal(lin, wantLin) {
		t.Errorf("linear histogram = %v, want %v", lin, wantLin)
	}
	if got, want := Histogram([]float64{4, 4, 4}, 20), []Bin{{4, 4, 3}}; !slices.Equal(got, want) {
		t.Errorf("constant histogram = %v, want %v", got, want)
	}
	if Histogram(nil, 20) != nil || Histogram([]float64{1}, 0) != nil {
		t.Error("empty input or no bins should give nil")
	}
}

func TestGoldenSummarize(t *testing.T) {
	// detector §5.11: sorted-order mean, min, max, percentile_lower p50/p90/p99
	// and a 20-bin histogram of the sorted list.
	xs := []float64{13, 1, 8, 2, 5, 3, 2}
	s := Summarize(xs)
	if s.Count != 7 || s.Min != 1 || s.Max != 13 || s.P50 != 3 || s.P90 != 8 || s.P99 != 8 {
		t.Errorf("Summarize = %+v", s)
	}
	if s.Mean != 34.0/7 {
		t.Errorf("mean = %v, want %v", s.Mean, 34.0/7)
	}
	if len(s.Histogram) != SummaryBins {
		t.Errorf("histogram has %d bins", len(s.Histogram))
	}
	if xs[0] != 13 {
		t.Error("Summarize modified its input")
	}
	if e := Summarize(nil); e.Count != 0 || !math.IsNaN(e.Mean) || e.Histogram != nil {
		t.Errorf("Summarize(nil) = %+v", e)
	}
}

func TestGoldenMannKendall(t *testing.T) {
	// detector §7.1: [0..11] → S 66, Var 212.66666666666666,
	// p 8.303107353668793e-06, up.
	r := MannKendall(ramp12())
	if r.S != 66 || r.VarS != 212.66666666666666 {
		t.Errorf("MK ramp: S %d Var %v", r.S, r.VarS)
	}
	// ⟦tol⟧ via erf: the reference's own p expression, 1 ulp allowed.
	if p := normalTwoSidedPRef(r.Z); !near(p, 8.303107353668793e-06, 1e-14, 0) {
		t.Errorf("MK ramp p = %v", p)
	}
	if v := r.Verdict(Alpha); v != VerdictUp {
		t.Errorf("MK ramp verdict %v", v)
	}
	// detector §7.2: plain MK on the saw gives p 0.016393316888809073 → up.
	s := MannKendall(saw12())
	if p := normalTwoSidedPRef(s.Z); !near(p, 0.016393316888809073, 1e-14, 0) || s.Verdict(Alpha) != VerdictUp {
		t.Errorf("MK saw p = %v verdict %v", p, s.Verdict(Alpha))
	}
	// detector §7.1: a 4-point window is never significant (best p ≈ 0.089).
	if v := MannKendall(seq(4)).Verdict(Alpha); v != VerdictSteady {
		t.Errorf("MK n=4 verdict %v", v)
	}
	// Var ≤ 0 → direction(S): a constant series is steady.
	if v := MannKendall([]float64{5, 5, 5, 5, 5}).Verdict(Alpha); v != VerdictSteady {
		t.Errorf("MK constant verdict %v", v)
	}
}

func TestGoldenMKSmallN(t *testing.T) {
	// detector §7.1: without ties, p < 0.05 needs |S| ≥ 12 at n = 6, 15 at 7,
	// 17 at 8, 20 at 9, 23 at 10, 27 at 11, 30 at 12; at n = 5 only |S| = 10.
	need := map[int]int{5: 10, 6: 12, 7: 15, 8: 17, 9: 20, 10: 23, 11: 27, 12: 30}
	for n, s := range need {
		v := float64(n*(n-1)*(2*n+5)) / 18
		sig := func(s int) bool {
			return mkResult(n, s, v, 1).Verdict(Alpha) == VerdictUp
		}
		if !sig(s) || (s > 1 && sig(s-2)) { // S has the parity of n(n−1)/2
			t.Errorf("n=%d: significance threshold is not |S| = %d", n, s)
		}
	}
}

func TestGoldenHamedRao(t *testing.T) {
	// detector §7.2: [0..11] → Var 451.91666666666663 (C ≈ 2.125),
	// p 0.0022309879809891964, up.
	r := HamedRao(ramp12())
	if r.VarS != 451.91666666666663 || !near(r.Correction, 2.125, 1e-12, 0) {
		t.Errorf("HR ramp: Var %v C %v", r.VarS, r.Correction)
	}
	if p := normalTwoSidedPRef(r.Z); !near(p, 0.0022309879809891964, 1e-14, 0) || r.Verdict(Alpha) != VerdictUp {
		t.Errorf("HR ramp p %v verdict %v", p, r.Verdict(Alpha))
	}
	// The saw: only lag 2 exceeds β, Var 387.072261072261,
	// p 0.07524240022937168 → steady.
	s := HamedRao(saw12())
	if s.VarS != 387.072261072261 {
		t.Errorf("HR saw Var %v", s.VarS)
	}
	rho, _ := rankACF(OrdinalRanks(saw12()), 11, nil)
	beta := ciZ95 / math.Sqrt(12)
	for k, r := range rho {
		if (math.Abs(r) > beta) != (k+1 == 2) {
			t.Errorf("saw lag %d: ρ = %v, β = %v", k+1, r, beta)
		}
	}
	if p := normalTwoSidedPRef(s.Z); !near(p, 0.07524240022937168, 1e-14, 0) || s.Verdict(Alpha) != VerdictSteady {
		t.Errorf("HR saw p %v verdict %v", p, s.Verdict(Alpha))
	}
	// n = 4: |ρ₁| ≤ 0.75 < β = 0.98, so C = 1 and HR equals plain MK.
	if c := HamedRao(seq(4)).Correction; c != 1 {
		t.Errorf("HR n=4 correction %v", c)
	}
	// §18.7 / §16.1: a noise-free 6+6 staircase is steady under HR (global
	// trend steady on the _mk_series fixture's TPOT 50 → 60).
	stair := append(slices.Repeat([]float64{50}, 6), slices.Repeat([]float64{60}, 6)...)
	if v := TrendVerdict(TrendMKHamedRao, stair, Alpha); v != VerdictSteady {
		t.Errorf("HR staircase verdict %v", v)
	}
}

func TestGoldenRampOthers(t *testing.T) {
	// detector §7.5: Newey–West on [0..11] has zero residuals → se 0 → up.
	nw := NeweyWest(ramp12(), -1)
	if nw.SE != 0 || nw.Slope != 1 || nw.Lags != 2 || nw.Verdict(Alpha) != VerdictUp {
		t.Errorf("NW ramp = %+v", nw)
	}
	// §7.3: Theil–Sen rel = 1·11/5.5 = 2 → up.
	if r := TheilSenRelDrift(ramp12()); r != 2 || TrendVerdict(TrendTheilSen, ramp12(), Alpha) != VerdictUp {
		t.Errorf("Theil–Sen ramp rel %v", r)
	}
	// §7.6: slope vs scatter rel 2.0, snr 1.1e10, up.
	s := SlopeVsScatter(ramp12())
	if s.RelDrift != 2.0 || s.SNR != 1.1e10 || s.Verdict() != VerdictUp {
		t.Errorf("SvS ramp = %+v", s)
	}
	// §7.0: every algorithm is insufficient below 4 points.
	for _, a := range TrendAlgos {
		if v := TrendVerdict(a, seq(3), Alpha); v != VerdictInsufficient {
			t.Errorf("%s on 3 points: %v", a, v)
		}
		if !a.Valid() {
			t.Errorf("%s not valid", a)
		}
	}
	if v := TrendVerdict("bogus", seq(10), Alpha); v != VerdictInsufficient {
		t.Errorf("unknown algo: %v", v)
	}
	want := []TrendAlgo{"mk_hamed_rao", "mann_kendall", "newey_west", "theil_sen", "slope_vs_scatter"}
	if !slices.Equal(TrendAlgos, want) {
		t.Errorf("TrendAlgos = %v, want the registry order %v", TrendAlgos, want)
	}
}

func TestGoldenNeweyWestLags(t *testing.T) {
	// detector §7.5 bandwidth table (glibc), first n of each L; 16 starts at
	// 51 201 with glibc pow (Go's math.Pow would give 16 at 51 200).
	firsts := []struct{ n, l int }{
		{4, 1}, {5, 2}, {27, 2}, {28, 3}, {99, 3}, {100, 4}, {272, 4}, {273, 5}, {620, 5},
		{621, 6}, {1240, 6}, {1241, 7}, {2262, 7}, {2263, 8}, {3844, 8}, {3845, 9},
		{6176, 9}, {6177, 10}, {9484, 10}, {9485, 11}, {14030, 12}, {20113, 13},
		{28075, 14}, {38295, 15}, {51200, 15}, {51201, 16}, {67259, 17}, {86988, 18},
	}
	for _, f := range firsts {
		if got := NeweyWestLags(f.n); got != f.l {
			t.Errorf("NeweyWestLags(%d) = %d, want %d", f.n, got, f.l)
		}
	}
	for _, f := range firsts[1:] {
		if f.l > NeweyWestLags(f.n-1)+1 {
			t.Errorf("bandwidth jumps at %d", f.n)
		}
	}
}

func TestGoldenRelDrift(t *testing.T) {
	// detector §7.7 goldens: TPOT 100, 100.6, …, 103.0 → 0.029556650246305462
	// (HR says up, the window holds); 100, 103, …, 115 → 0.13953488372093023.
	slow := []float64{100, 100.6, 101.2, 101.8, 102.4, 103.0}
	if got := RelDrift(slow); got != 0.029556650246305462 {
		t.Errorf("RelDrift(slow) = %v", got)
	}
	if v := TrendVerdict(TrendMKHamedRao, slow, Alpha); v != VerdictUp {
		t.Errorf("HR on the slow drift = %v, want up", v)
	}
	if got := RelDrift([]float64{100, 103, 106, 109, 112, 115}); got != 0.13953488372093023 {
		t.Errorf("RelDrift(fast) = %v", got)
	}
	if got := RelDrift([]float64{7}); got != 0 {
		t.Errorf("RelDrift of one value = %v, want 0", got)
	}
	// A zero median is floored at 1e-9: (1·2)/1e-9 in doubles (Python: 2.0/1e-9).
	if got := RelDrift([]float64{-1, 0, 1}); got != 1999999999.9999998 {
		t.Errorf("RelDrift with zero median = %v", got)
	}
}

func TestGoldenPettitt(t *testing.T) {
	// detector §10.5: [0]×8 + [10]×8 → change point 8, K 64.0,
	// p 0.007055755283170262 (bit-exact through GlibcExp).
	xs := append(make([]float64, 8), slices.Repeat([]float64{10}, 8)...)
	r := Pettitt(xs, Alpha)
	if r.ChangePoint != 8 || r.K != 64 || r.P != 0.007055755283170262 || !r.Significant {
		t.Errorf("Pettitt = %+v", r)
	}
	// §16.1: the 6+6 staircase → change point 6, K 36, p 0.03140780113025614.
	stair := append(slices.Repeat([]float64{50}, 6), slices.Repeat([]float64{60}, 6)...)
	r = Pettitt(stair, Alpha)
	if r.ChangePoint != 6 || r.K != 36 || r.P != 0.03140780113025614 || !r.Significant {
		t.Errorf("Pettitt staircase = %+v", r)
	}
	// n < 4 → {0, 0, 1, false}; constant → K 0, change point 0, p 1.
	want := PettittResult{P: 1}
	if got := Pettitt([]float64{1, 2, 3}, Alpha); got != want {
		t.Errorf("Pettitt n=3 = %+v", got)
	}
	if got := Pettitt([]float64{4, 4, 4, 4, 4}, Alpha); got != want {
		t.Errorf("Pettitt constant = %+v", got)
	}
}

func TestMedianSignedZero(t *testing.T) {
	// Python's stable sorted keeps −0 and +0 in input order, so the median
	// of [−0, +0, 1] is the −0 that came first (detector §5.3, §5.5).
	nz := math.Copysign(0, -1)
	if got := Median([]float64{nz, 0, -1}); !math.Signbit(got) {
		t.Errorf("Median(-0, 0, -1) = %v, want -0", got)
	}
	if got := Median([]float64{0, nz, -1}); math.Signbit(got) {
		t.Errorf("Median(0, -0, -1) = %v, want +0", got)
	}
}

func TestMedianMatchesSort(t *testing.T) {
	// Median by selection equals the middle of the sorted list (§5.3) for
	// many sizes and heavy ties.
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(300)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(rng.IntN(1 + trial%50))
		}
		s := slices.Clone(xs)
		slices.Sort(s)
		want := s[n/2]
		if n%2 == 0 {
			want = (s[n/2-1] + s[n/2]) / 2
		}
		if got := Median(xs); got != want {
			t.Fatalf("Median(%v) = %v, want %v", xs, got, want)
		}
	}
}

func TestGoldenPettittP(t *testing.T) {
	// detector §16.2: 30 super-passes, warmup 3 (n = 27 post), K 152.0 →
	// p 0.002247016247206176; §16.1 staircase n = 12, K 36 →
	// 0.03140780113025614; K = 0 → min(1, 2) = 1.
	tests := []struct {
		k    float64
		n    int
		want float64
	}{{152, 27, 0.002247016247206176}, {36, 12, 0.03140780113025614}, {64, 16, 0.007055755283170262}, {0, 50, 1}}
	for _, tt := range tests {
		if got := pettittP(tt.k, tt.n); got != tt.want {
			t.Errorf("pettittP(%v, %d) = %v, want %v", tt.k, tt.n, got, tt.want)
		}
	}
	// Beyond int64-safe n the denominator is formed exactly with big.Int:
	// n³ + n² = 2^63 + 2^42 for n = 2^21, already a double.
	if got, want := pettittP(1e12, 1<<21), math.Min(1, 2*GlibcExp(-6e24/(0x1p63+0x1p42))); got != want {
		t.Errorf("pettittP at n = 2^21 = %v, want %v", got, want)
	}
}

func TestSortedCopyStable(t *testing.T) {
	// Python's sorted is stable: −0 and +0 keep their input order (§5.5),
	// which shows in Summarize's min/max and percentiles.
	nz := math.Copysign(0, -1)
	s := Summarize([]float64{0, 3, nz, -2})
	if s.P50 != 0 || math.Signbit(s.P50) {
		t.Errorf("P50 = %v, want +0 (the first zero in input order)", s.P50)
	}
	s = Summarize([]float64{nz, 3, 0, 1})
	if !math.Signbit(s.Min) {
		t.Errorf("Min = %v, want -0", s.Min)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 500; trial++ {
		xs := make([]float64, rng.IntN(50))
		for i := range xs {
			xs[i] = float64(rng.IntN(5) - 2)
			if xs[i] == 0 && rng.IntN(2) == 0 {
				xs[i] = nz
			}
		}
		got := sortedCopy(xs)
		want := slices.Clone(xs)
		slices.SortStableFunc(want, cmpFloat)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("sortedCopy(%v) = %v, want %v", xs, got, want)
			}
		}
	}
}

func TestCoVOverflowingMean(t *testing.T) {
	// Python: sum overflows to inf, pstdev is exact (0.0) → 0.0/inf = 0.0.
	if got := CoV([]float64{1e308, 1e308}); got != 0 {
		t.Errorf("CoV(1e308, 1e308) = %v, want 0", got)
	}
	if got := CoV([]float64{1, math.Inf(1)}); !math.IsNaN(got) {
		t.Errorf("CoV with Inf = %v, want NaN (Python raises)", got)
	}
}
