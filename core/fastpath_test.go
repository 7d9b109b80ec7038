package core

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/steadysweep/steadysweep/core/stats"
)

// TestFastPathsMatchStats checks that every fast path returns exactly what
// the core/stats function it stands for returns, on random series of the
// shapes the detector sees (levels, drifts, steps, ties, constants, zeros)
// and on CoVs placed exactly at the bound.
func TestFastPathsMatchStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var series [][]float64
	for range 3000 {
		n := 1 + rng.IntN(40)
		xs := make([]float64, n)
		base := math.Exp(rng.Float64()*20 - 5)
		slope := (rng.Float64() - 0.5) * 0.1 * base
		noise := rng.Float64() * 0.2
		for i := range xs {
			xs[i] = base + slope*float64(i) + base*noise*(rng.Float64()-0.5)
			if rng.IntN(10) == 0 && i > 0 {
				xs[i] = xs[i-1] // ties
			}
		}
		series = append(series, xs)
	}
	series = append(series, []float64{5, 5, 5, 5}, []float64{0, 0, 0, 0, 0}, []float64{-1, 1, -1, 1},
		[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, []float64{3, 3.2, 2.9, 3.15})
	tmp := make([]float64, 0, 64)
	for _, xs := range series {
		if got, want := relDrift(xs, tmp), stats.RelDrift(xs); math.Float64bits(got) != math.Float64bits(want) &&
			!(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("relDrift(%v) = %v, stats %v", xs, got, want)
		}
		if len(xs) > 0 {
			if got, want := olsSlope(xs, tmp), stats.OLS(xs).Slope; math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("olsSlope(%v) = %v, stats %v", xs, got, want)
			}
		}
		c := stats.CoV(xs)
		for _, b := range []float64{0.03, 0.05, 0.08, c, math.Nextafter(c, 0), math.Nextafter(c, 1)} {
			if got, want := covExceeds(xs, b), c > b; got != want {
				t.Fatalf("covExceeds(%v, %v) = %v, CoV %v", xs, b, got, c)
			}
			if got, want := covAtMost(xs, b), c <= b; got != want {
				t.Fatalf("covAtMost(%v, %v) = %v, CoV %v", xs, b, got, c)
			}
		}
		for _, a := range stats.TrendAlgos {
			if got, want := verdict(TrendGate(a), xs, 4, 0.05, tmp), trendVerdict(TrendGate(a), xs, 4, 0.05); got != want {
				t.Fatalf("verdict(%s, %v) = %s, stats %s", a, xs, got, want)
			}
		}
	}
}

func TestMergeSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for k := 1; k <= 9; k++ {
		var lists [][]float64
		var all []float64
		for range k {
			l := make([]float64, rng.IntN(6))
			for i := range l {
				l[i] = float64(rng.IntN(20))
			}
			slices.Sort(l)
			lists = append(lists, l)
			all = append(all, l...)
		}
		slices.Sort(all)
		if got := mergeSorted(lists); !slices.Equal(got, all) && !(len(got) == 0 && len(all) == 0) {
			t.Errorf("k=%d: merge %v, want %v", k, got, all)
		}
	}
}

// TestSummarizeListsMatchesStats checks summarizeLists against
// stats.Summarize of the pooled values, field by field and bit for bit,
// for integral values (no merge) and fractional values (merge).
func TestSummarizeListsMatchesStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var vals []float64 // scratch reused from trial to trial
	var starts []int
	for trial := range 400 {
		k := 1 + rng.IntN(12)
		var lists [][]float64
		var all []float64
		scale := math.Exp(rng.Float64() * 25)
		for range k {
			l := make([]float64, rng.IntN(30))
			for i := range l {
				v := scale * (0.5 + rng.Float64())
				switch trial % 4 {
				case 0, 1:
					v = math.Round(v)
				case 2:
					v = float64(rng.IntN(3)) // heavy ties, zeros
				}
				l[i] = v
			}
			slices.Sort(l)
			if len(l) > 0 {
				lists = append(lists, l)
			}
			all = append(all, l...)
		}
		if len(all) == 0 {
			continue
		}
		want := stats.Summarize(all)
		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		// Fresh, and with scratch left by the trials before.
		for _, got := range []stats.Summary{summarizeLists(lists, nil, nil), summarizeLists(lists, &vals, &starts)} {
			if got.Count != want.Count || !same(got.Mean, want.Mean) || !same(got.Min, want.Min) ||
				!same(got.Max, want.Max) || !same(got.P50, want.P50) || !same(got.P90, want.P90) ||
				!same(got.P99, want.P99) || !slices.Equal(got.Histogram, want.Histogram) {
				t.Fatalf("trial %d: summarizeLists\n%+v\nstats.Summarize\n%+v", trial, got, want)
			}
		}
		for _, buf := range []*[]int{nil, &starts} {
			if p90 := percentileLists(lists, 0.90, buf); !same(p90, want.P90) {
				t.Fatalf("trial %d: percentileLists p90 %v, want %v", trial, p90, want.P90)
			}
		}
	}
}

// TestListUnionKthBySearch checks kth on segments large enough to be
// bisected (kthSearchMin) against indexing the sorted union, bit for bit:
// windows whose bulk is one bin (a narrow band, and a few values 1000
// times larger), with ties, with zeros (their segment falls back to the
// gathered selection) and with infinities.
func TestListUnionKthBySearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 2))
	for trial := range 8 {
		var lists [][]float64
		for range 40 + trial {
			l := make([]float64, 200+rng.IntN(800))
			for i := range l {
				v := 1000 + 100*rng.Float64()
				if rng.IntN(100) == 0 {
					v *= 1000 * rng.Float64()
				}
				switch trial % 4 {
				case 1:
					v = math.Round(v/200) - 5 // ties, most of them zeros
				case 2:
					v = math.Round(v) * 1e6
				case 3:
					if rng.IntN(500) == 0 {
						v = math.Inf(1)
					}
				}
				l[i] = v
			}
			slices.Sort(l)
			lists = append(lists, l)
		}
		all := sortedUnion(lists)
		u := newListUnion(lists)
		u.walkBins(nil)
		if slices.Max(u.counts) < kthSearchMin {
			t.Fatalf("trial %d: largest segment %d, not bisected (%v, %d values)", trial, slices.Max(u.counts), u.counts, len(all))
		}
		for _, k := range []int{0, len(all) / 2, int(0.9 * float64(len(all)-1)), int(0.99 * float64(len(all)-1)), len(all) - 1, rng.IntN(len(all))} {
			if got := u.kth(k); math.Float64bits(got) != math.Float64bits(all[k]) {
				t.Errorf("trial %d: kth(%d) = %v, want %v", trial, k, got, all[k])
			}
		}
	}
}

func TestSortedUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 4))
	for trial := range 300 {
		var lists [][]float64
		var all []float64
		for range 1 + rng.IntN(8) {
			l := make([]float64, rng.IntN(50))
			for i := range l {
				l[i] = (rng.Float64() - 0.3) * math.Exp(rng.Float64()*40-20)
				if trial%5 == 0 {
					l[i] = float64(rng.IntN(5) - 2)
				}
			}
			slices.Sort(l)
			lists = append(lists, l)
			all = append(all, l...)
		}
		slices.Sort(all)
		got := sortedUnion(lists)
		if len(got) != len(all) {
			t.Fatalf("length %d, want %d", len(got), len(all))
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(all[i]) {
				t.Fatalf("trial %d: %v, want %v", trial, got, all)
			}
		}
	}
}

func TestSelectKth(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for range 500 {
		n := 1 + rng.IntN(300)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(rng.IntN(1 + n/3))
		}
		sorted := slices.Sorted(slices.Values(xs))
		k := rng.IntN(n)
		if got := stats.SelectKth(slices.Clone(xs), k); got != sorted[k] {
			t.Fatalf("SelectKth(%v, %d) = %v, want %v", xs, k, got, sorted[k])
		}
	}
}

// TestSegmentPlateausMatchesDefinition checks the incremental
// segmentation against the definition of §10.2 applied with
// windowAdmissible, on random series with steps, drifts, noise and
// super-passes lacking TPOT, under every gate.
func TestSegmentPlateausMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 6))
	naive := func(pct []*spPercentiles, g gateConfig) []Plateau {
		var out []Plateau
		for start := 0; start <= len(pct)-g.minN; {
			best := -1
			for end := start + g.minN; end <= len(pct); end++ {
				if !windowAdmissible(pct, start, end, g, nil, nil) {
					break
				}
				best = end
			}
			if best < 0 {
				start++
				continue
			}
			out = append(out, Plateau{start, best})
			start = best
		}
		return out
	}
	for trial := range 400 {
		n := 4 + rng.IntN(40)
		level, noise := 100.0, 0.01+0.08*rng.Float64()
		pct := make([]*spPercentiles, n)
		for i := range pct {
			if rng.IntN(15) == 0 {
				level *= 1 + (rng.Float64()-0.3)*0.5 // step
			}
			level *= 1 + 0.01*float64(trial%3) // drift
			d := &spPercentiles{}
			d.v[mTPOTP50] = level * (1 + noise*(rng.Float64()-0.5))
			d.v[mTPOTP90] = d.v[mTPOTP50] * 1.1
			d.ok[mTPOTP50] = rng.IntN(30) != 0
			d.ok[mTPOTP90] = d.ok[mTPOTP50]
			pct[i] = d
		}
		g := refGate()
		g.gate = TrendGate(stats.TrendAlgos[trial%5])
		if got, want := segmentPlateaus(pct, g, nil, nil), naive(pct, g); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%s): plateaus %v, definition %v", trial, g.gate, got, want)
		}
	}
}

// TestWindowTPSCached checks the cached TPS against the plain one.
func TestWindowTPSCached(t *testing.T) {
	sps := Rollup(syntheticSamples(12, 40), 40)
	pct := percentileTable(sps)
	var sc scratch // reused from window to window
	for lo := 0; lo < len(sps); lo += 3 {
		for hi := lo + 1; hi <= len(sps); hi += 2 {
			want := windowTPS(sps[lo:hi])
			if got := windowTPSCached(sps[lo:hi], pct[lo:hi], nil); got != want {
				t.Fatalf("[%d,%d): cached %+v, plain %+v", lo, hi, got, want)
			}
			if got := windowTPSCached(sps[lo:hi], pct[lo:hi], &sc); got != want {
				t.Fatalf("[%d,%d): cached with scratch %+v, plain %+v", lo, hi, got, want)
			}
		}
	}
}

// TestPooledOrderMatchesSorted checks pooledOrderOf's quantiles and
// early-stopping estimates against PercentileLower and earlyStopEstimate
// of the sorted pool, on pools below and above OrderStats' selection
// threshold (integral latencies, fractional TPOTs, heavy tails, ties).
func TestPooledOrderMatchesSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 6))
	run := NewRun(nil, RunInfo{})
	var fs stats.FloatSorter
	for trial := range 60 {
		n := []int{0, 1, 10, 700, 5000, 9000, 60000}[trial%7] + rng.IntN(50)
		xs := make([]float64, n)
		for i := range xs {
			switch trial % 3 {
			case 0:
				xs[i] = math.Round(math.Exp(18 + 0.6*rng.NormFloat64()))
			case 1:
				xs[i] = float64(rng.Int64N(9e9)) / float64(1+rng.IntN(900))
			default:
				xs[i] = float64(rng.IntN(5)) * 1e6
			}
		}
		orig := slices.Clone(xs)
		got := run.pooledOrderOf(xs, &fs)
		sorted := slices.Sorted(slices.Values(orig))
		want := run.earlyStopEstimate(sorted)
		q := Quantiles{stats.PercentileLower(sorted, 0.5), stats.PercentileLower(sorted, 0.9), stats.PercentileLower(sorted, 0.99)}
		same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
		if !same(got.q.P50, q.P50) || !same(got.q.P90, q.P90) || !same(got.q.P99, q.P99) {
			t.Fatalf("n=%d: quantiles %+v, want %+v", n, got.q, q)
		}
		if got.n != n || got.es.N != want.N || !slices.Equal(got.es.OK, want.OK) || !slices.Equal(got.es.Values, want.Values) {
			t.Fatalf("n=%d: early stopping %+v, want %+v", n, got.es, want)
		}
		if !slices.Equal(xs, orig) {
			t.Fatalf("n=%d: the pool was modified", n)
		}
	}
}

// TestPoolOrderFromSortedListsMatchesPool: a Run rollup's pooled order
// statistics, selected from the super-passes' sorted lists without a
// pool, are pooledOrderOf of the pool (quantiles, early-stopping
// estimates, count) on spans of every length, with ties, a constant
// metric and zeros (those take the pool itself); TPOT's sum is the
// pool's, in file order.
func TestPoolOrderFromSortedListsMatchesPool(t *testing.T) {
	for _, shape := range []string{"jitter", "ties", "constant", "zeros"} {
		s := syntheticSamples(12, 700)
		for i := range s.TTFTNs {
			switch shape {
			case "ties":
				s.TTFTNs[i] = int64(1+i%5) * 1e6
			case "constant":
				s.TTFTNs[i] = 7e6
			case "zeros":
				s.TTFTNs[i] = int64(i % 3) // zeros: not positive
			}
			s.CompleteSeq[i] = int64((i * 31) % len(s.CompleteSeq)) // file order ≠ issue order
		}
		run := NewRun(s, RunInfo{})
		sps := run.rollup(700).sps
		for _, span := range [][2]int{{0, 12}, {3, 9}, {5, 6}, {11, 12}} {
			w := sps[span[0]:span[1]]
			for _, src := range []MetricSource{SourceTTFT, SourceTPOT, SourceLatency} {
				var fs stats.FloatSorter
				want := run.pooledOrderOf(pooled(w, src.list), &fs)
				got := run.poolOrder(w, src)
				if got.n != want.n || got.q != want.q || !slices.Equal(got.es.OK, want.es.OK) ||
					!slices.Equal(got.es.Values, want.es.Values) {
					t.Fatalf("%s %v source %d: %+v, want %+v", shape, span, src, got, want)
				}
				if src == SourceTPOT && got.orderSum != want.orderSum {
					t.Fatalf("%s %v: tpot sum %v, want %v", shape, span, got.orderSum, want.orderSum)
				}
			}
		}
	}
}

// TestTailStatsFromListsMatchesPool: the tail-cut statistics taken from a
// rollup's sorted TPOT lists (no pool) are the pooled computation's —
// σ/μ, skew, tail size and the kept summary, bits included — for windows
// of several spans, cut-offs leaving a short tail, a long one or only
// tail, with and without excluded samples, and odd and even TPOT counts.
func TestTailStatsFromListsMatchesPool(t *testing.T) {
	s := syntheticSamples(10, 301) // 301: odd and even counts across spans
	var lastIssue int64
	for _, x := range s.IssueNs {
		lastIssue = max(lastIssue, x)
	}
	exclude := make([]bool, s.Len())
	for i := range exclude {
		exclude[i] = i%17 == 3
	}
	for _, ex := range [][]bool{nil, exclude} {
		sps := rollupOf(s, 301, rollupOptions{exclude: ex, sortedTimes: true})
		for _, span := range [][2]int{{0, 10}, {2, 9}, {7, 10}, {9, 10}} {
			w := sps[span[0]:span[1]]
			for _, cut := range []int64{lastIssue, s.CompleteNs[s.Len()*2/3], s.IssueNs[0]} {
				var sc scratch
				sorted, n := sortedListsOf(w, SourceTPOT, nil)
				if sorted == nil || !positiveLists(sorted) {
					t.Fatal("the rollup's lists do not take the list path")
				}
				got, ok := tailStatsFromLists(w, sorted, n, s, 301, span[0], cut, ex, &sc)
				want := tailStatsPooled(w, s, 301, span[0], cut, ex, &scratch{})
				if !ok || !reflect.DeepEqual(got, want) {
					t.Fatalf("exclude %v span %v cut %d: %+v (ok %v), want %+v", ex != nil, span, cut, got, ok, want)
				}
				if cut == lastIssue && span[1] == 10 && (want.nTail == 0 || want.kept == nil) {
					t.Fatalf("span %v: no tail to cut (%+v); the test shows nothing", span, want)
				}
			}
		}
	}
}
