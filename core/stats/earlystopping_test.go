package stats

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// earlyStoppingVectors returns the LoadGen vectors: the shared file when
// present, else the verbatim copy in testdata.
func earlyStoppingVectors(t *testing.T) map[string]any {
	t.Helper()
	path := filepath.Join("testdata", "early_stopping.json")
	if dir := sharedDir(t); dir != "" {
		path = filepath.Join(dir, "vectors", "early_stopping.json")
	}
	return loadJSON(t, path)
}

// TestEarlyStoppingHMinTable checks h_min(t, p) for t = 0…5 and the eight p of
// vectors/early_stopping.json (LoadGen early_stopping.cc @ b66003e), exactly,
// and that the odds straddle 1 − c at h_min as stored.
func TestEarlyStoppingHMinTable(t *testing.T) {
	doc := earlyStoppingVectors(t)
	c := &checker{t: t}
	c.int("anchor_h_min_t0_p99", EarlyStoppingHMin(0, 0.99, 0.99, 0), int(mustNum(t, doc, "anchor_h_min_t0_p99")))
	rows := doc["table"].([]any)
	if len(rows) != 48 {
		t.Fatalf("table has %d rows, want 48", len(rows))
	}
	for _, r := range rows {
		m := r.(map[string]any)
		tt := int(mustNum(t, m, "t"))
		p, conf, d := mustNum(t, m, "p"), mustNum(t, m, "c"), mustNum(t, m, "d")
		c.prefix = "t=" + strconv.Itoa(tt) + " p=" + strconv.FormatFloat(p, 'g', -1, 64) + ": "
		h := EarlyStoppingHMin(tt, p, conf, d)
		c.int("h_min", h, int(mustNum(t, m, "h_min")))
		c.int("loadgen_numerics_h_min", h, int(mustNum(t, m, "loadgen_numerics_h_min")))
		c.int("min_total_queries", h+tt, int(mustNum(t, m, "min_total_queries")))
		c.float("odds_at_h_min", earlyStoppingOdds(h, tt, p, d), mustNum(t, m, "odds_at_h_min"), 1e-9, 0)
		c.float("odds_at_h_min_minus_1", earlyStoppingOdds(h-1, tt, p, d), mustNum(t, m, "odds_at_h_min_minus_1"), 1e-9, 0)
	}
	t.Logf("%d checks", c.n)
}

// TestEarlyStoppingFloors checks the minimum-query floors against the seed's
// table (seeds/early-stopping.md "Cheat sheet") and early_stopping.json.
func TestEarlyStoppingFloors(t *testing.T) {
	seed := []struct {
		p    float64
		want int
	}{ // seeds/early-stopping.md: minimum samples per percentile
		{0.50, 11}, {0.75, 24}, {0.80, 31}, {0.90, 64}, {0.95, 130},
		{0.97, 219}, {0.99, 662}, {0.999, 6636}, {0.9999, 66381},
	}
	for _, s := range seed {
		if got := EarlyStoppingMinQueries(s.p, EarlyStoppingConfidence, EarlyStoppingTolerance); got != s.want {
			t.Errorf("EarlyStoppingMinQueries(%v) = %d, want %d (seed table)", s.p, got, s.want)
		}
	}
	doc := earlyStoppingVectors(t)
	for key, v := range obj(doc, "floors_min_queries") {
		m := v.(map[string]any)
		p, _ := strconv.ParseFloat(key, 64)
		if got, want := EarlyStoppingHMin(1, p, 0.99, 0), int(mustNum(t, m, "h_min_t1")); got != want {
			t.Errorf("h_min(1, %v) = %d, want %d", p, got, want)
		}
		if got, want := EarlyStoppingMinQueries(p, 0.99, 0), int(mustNum(t, m, "min_queries")); got != want {
			t.Errorf("EarlyStoppingMinQueries(%v) = %d, want %d", p, got, want)
		}
	}
}

// TestEarlyStoppingSingleStream checks LoadGen's SingleStream examples of
// early_stopping.json (t, estimate index) and the seed's worked example
// (n = 10 000, p99 → t = 77, the 77th-highest sample).
func TestEarlyStoppingSingleStream(t *testing.T) {
	doc := earlyStoppingVectors(t)
	c := &checker{t: t}
	for _, e := range doc["single_stream_examples"].([]any) {
		m := e.(map[string]any)
		p := mustNum(t, m, "p")
		n := int(mustNum(t, m, "queries"))
		c.prefix = "p=" + strconv.FormatFloat(p, 'g', -1, 64) + " n=" + strconv.Itoa(n) + ": "
		sorted := make([]int64, n)
		for i := range sorted {
			sorted[i] = int64(i) // value = index
		}
		tt, ok := EarlyStoppingOverLatencyBudget(n, p, 0.99, 0)
		v, ok2 := EarlyStoppingPercentile(sorted, p, 0.99, 0)
		enough := m["enough_queries"].(bool)
		c.bool("enough_queries", ok, enough)
		c.bool("enough_queries (estimate)", ok2, enough)
		if !enough {
			continue
		}
		c.int("t", tt, int(mustNum(t, m, "t")))
		c.int("discarded_highest", tt-1, int(mustNum(t, m, "discarded_highest")))
		c.int("estimate_index_sorted_ascending_0based", int(v), int(mustNum(t, m, "estimate_index_sorted_ascending_0based")))
	}
	// seeds/early-stopping.md worked example.
	xs := make([]float64, 10000)
	for i := range xs {
		xs[i] = float64(i) * 0.5
	}
	tt, _ := EarlyStoppingOverLatencyBudget(10000, 0.99, 0.99, 0)
	c.int("seed worked example t", tt, 77)
	v, ok := EarlyStoppingPercentile(xs, 0.99, 0.99, 0)
	c.bool("seed worked example ok", ok, true)
	c.exact("seed worked example value", v, xs[10000-77])
	t.Logf("%d checks", c.n)
}

// TestEarlyStoppingServer checks LoadGen's Server examples of
// early_stopping.json: pass iff n ≥ h_min(t) + t.
func TestEarlyStoppingServer(t *testing.T) {
	doc := earlyStoppingVectors(t)
	for _, e := range doc["server_examples"].([]any) {
		m := e.(map[string]any)
		p := mustNum(t, m, "p")
		over := int(mustNum(t, m, "overlatency_t"))
		need := int(mustNum(t, m, "pass_iff_queries_at_least"))
		if got, want := EarlyStoppingHMin(over, p, 0.99, 0), int(mustNum(t, m, "h_min")); got != want {
			t.Errorf("p=%v t=%d: h_min = %d, want %d", p, over, got, want)
		}
		if !EarlyStoppingServerPass(need, over, p, 0.99, 0) || EarlyStoppingServerPass(need-1, over, p, 0.99, 0) {
			t.Errorf("p=%v t=%d: pass threshold is not %d queries", p, over, need)
		}
	}
}

// TestEarlyStoppingProperty checks on random sorted arrays that the estimate
// equals the formula of early_stopping.json's "single_stream" definition,
// sorted[n − t] with t = max{i : n ≥ h_min(i) + i}, found by a linear scan as
// LoadGen's results.cc loop does (i = 2, 3, … until n < h_min(i) + i).
func TestEarlyStoppingProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	ps := []float64{0.5, 0.9, 0.99}
	for trial := 0; trial < 60; trial++ {
		p := ps[trial%len(ps)]
		n := 1 + rng.IntN(3000)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = rng.ExpFloat64()
		}
		slices.Sort(xs)
		got, ok := EarlyStoppingPercentile(xs, p, 0.99, 0)
		floor := EarlyStoppingHMin(1, p, 0.99, 0) + 1
		if n < floor {
			if ok {
				t.Errorf("n=%d p=%v: estimate below the floor %d", n, p, floor)
			}
			continue
		}
		i := 2
		for n >= EarlyStoppingHMin(i, p, 0.99, 0)+i {
			i++
		}
		want := xs[n-(i-1)]
		if !ok || got != want {
			t.Errorf("n=%d p=%v: estimate %v (ok %v), want sorted[n-%d] = %v", n, p, got, ok, i-1, want)
		}
		if got < PercentileLower(xs, p) {
			t.Errorf("n=%d p=%v: estimate %v below the empirical percentile", n, p, got)
		}
	}
}

// TestEarlyStoppingInvalid documents the results for invalid arguments.
func TestEarlyStoppingInvalid(t *testing.T) {
	for _, a := range []struct{ p, c, d float64 }{{0, 0.99, 0}, {1, 0.99, 0}, {0.9, 1, 0}, {0.9, 0.99, 0.95}} {
		if h := EarlyStoppingHMin(1, a.p, a.c, a.d); h != -1 {
			t.Errorf("EarlyStoppingHMin(1, %v) = %d, want -1", a, h)
		}
		if _, ok := EarlyStoppingPercentile(make([]float64, 100000), a.p, a.c, a.d); ok {
			t.Errorf("EarlyStoppingPercentile(%v) ok for invalid arguments", a)
		}
	}
	if _, ok := EarlyStoppingPercentile([]float64(nil), 0.5, 0.99, 0); ok {
		t.Error("estimate of an empty slice")
	}
}

// budgetByHMin is EarlyStoppingOverLatencyBudget by its definition: the
// largest t with n ≥ h_min(t) + t, each h_min searched for (the code
// before the one-evaluation test).
func budgetByHMin(n int, p float64) (int, bool) {
	fits := func(t int) bool {
		h := EarlyStoppingHMin(t, p, 0.99, 0)
		return h >= 0 && n >= h+t
	}
	if !fits(1) {
		return 0, false
	}
	lo, hi := 1, 2
	for fits(hi) {
		lo = hi
		hi *= 2
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true
}

// TestEarlyStoppingBudgetMatchesHMin checks the budget against its
// definition through h_min on every n up to 1200 and on random n up to
// 2·10⁶ (60 of them), for the report grid's percentiles, and that the odds are
// monotone in h around every h_min it meets (what the one-evaluation
// test relies on).
func TestEarlyStoppingBudgetMatchesHMin(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	ns := make([]int, 0, 1260)
	for n := 1; n <= 1200; n++ {
		ns = append(ns, n)
	}
	for range 60 {
		ns = append(ns, 1200+rng.IntN(2_000_000))
	}
	if testing.Short() {
		ns = ns[1100:]
	}
	for _, p := range []float64{0.999, 0.99, 0.97, 0.95, 0.9, 0.8, 0.75, 0.5} {
		for _, n := range ns {
			got, ok := EarlyStoppingOverLatencyBudget(n, p, 0.99, 0)
			want, wantOK := budgetByHMin(n, p)
			if got != want || ok != wantOK {
				t.Fatalf("n=%d p=%v: budget %d (ok %v), want %d (ok %v)", n, p, got, ok, want, wantOK)
			}
			if !ok || n%97 != 0 {
				continue
			}
			h := EarlyStoppingHMin(got, p, 0.99, 0)
			prev := 1.0
			for hh := max(1, h-40); hh <= h+40; hh++ {
				odds := earlyStoppingOdds(hh, got, p, 0)
				if odds > prev {
					t.Fatalf("t=%d p=%v: odds rise from h=%d to %d (%v → %v)", got, p, hh-1, hh, prev, odds)
				}
				prev = odds
			}
		}
	}
}
