package core

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/steadysweep/steadysweep/core/stats"
)

// spSeries is n super-passes of S samples, each issued over spanS seconds
// back to back.
func spSeries(n, S int, spanS float64) []SuperPass {
	sps := make([]SuperPass, n)
	for i := range sps {
		first := int64(float64(i) * spanS * 1e9)
		sps[i] = SuperPass{Index: i, NIssued: S, FirstIssueNs: first, LastIssueNs: first + int64(spanS*1e9) - 1,
			LastEventNs: first + int64(spanS*1e9)}
	}
	return sps
}

// blockFor builds the submission block of a window [lo, hi) with the given
// gating states over 10 full super-passes of 100 samples, 200 s each.
func blockFor(lo, hi int, state MetricState, conc int, anomaly bool) Submission {
	as := &Assessment{Window: SPRange{SPIndex(lo), SPIndex(hi)}, NFull: 10}
	as.Selection.States[mTPOTP50], as.Selection.States[mTPOTP90] = state, state
	an := Anomaly{ChangePointSP: -1}
	if anomaly {
		an = Anomaly{Detected: true, ChangePointSP: 7, DeltaPct: 21.5, Plateaus: []Plateau{{lo, hi}, {7, 10}}}
	}
	return submissionOf(spSeries(10, 100, 200), as, an, 0, 100, 100*(hi-lo),
		SubmissionMinDuration(DefaultParams().SubmissionMinDurationS, conc), StatusPartialDataset)
}

// TestSubmissionStatusRules checks the checker's rules on hand-built
// windows of 200-s super-passes: span = end − start + 1 super-passes,
// duration = issue span; windowable needs ≥ 4 super-passes, all Plateau
// and ≥ 600 s (1200 s above concurrency 32).
func TestSubmissionStatusRules(t *testing.T) {
	for _, c := range []struct {
		name         string
		lo, hi, conc int
		state        MetricState
		anomaly      bool
		status       Status
		verdit       Verdict
	}{
		{"3-sp window", 2, 5, 8, StatePlateau, false, StatusInsufficientPasses, VerdictNotFound},
		{"4 sp, 800 s", 2, 6, 8, StatePlateau, false, StatusWindowable, VerdictSteadyState},
		{"4 sp, 800 s at C=64", 2, 6, 64, StatePlateau, false, StatusInsufficientDuration, VerdictNotFound},
		{"7 sp, 1400 s at C=64", 2, 9, 64, StatePlateau, false, StatusWindowable, VerdictSteadyState},
		{"drifting 6 sp", 2, 8, 8, StateDriftingUp, false, StatusInsufficientPasses, VerdictDriftingUp},
		{"drifting down 8 sp", 1, 9, 8, StateDriftingDown, false, StatusInsufficientPasses, VerdictDriftingDown},
		{"drifting 3 sp", 2, 5, 8, StateDriftingUp, false, StatusInsufficientPasses, VerdictDriftingUp},
		{"staircase", 1, 7, 8, StatePlateau, true, StatusWindowable, VerdictAnomaly},
	} {
		sub := blockFor(c.lo, c.hi, c.state, c.conc, c.anomaly)
		if sub.Status != c.status || sub.Verdict != c.verdit {
			t.Errorf("%s: %s / %s, want %s / %s", c.name, sub.Status, sub.Verdict, c.status, c.verdit)
		}
		if c.state != StatePlateau && c.hi-c.lo >= 4 {
			// A drifting window of ≥ 4 super-passes fits no window status:
			// the block drops the window and keeps the states.
			if sub.HasWindow || sub.StateTPOTP50 != c.state || sub.StateTPOTP90 != c.state {
				t.Errorf("%s: block %+v, want no window and state %s", c.name, sub, c.state)
			}
			continue
		}
		w := sub.Window
		if w.SuperPassEnd-w.SuperPassStart+1 != c.hi-c.lo || w.SuperPassStart != c.lo {
			t.Errorf("%s: window %d..%d for [%d, %d)", c.name, w.SuperPassStart, w.SuperPassEnd, c.lo, c.hi)
		}
		if want := float64(c.hi-c.lo)*200 - 1e-9; math.Abs(w.DurationS-want) > 1e-6 {
			t.Errorf("%s: duration %v, want %v", c.name, w.DurationS, want)
		}
	}
}

// TestEarlyStopVectors checks earlyStopEstimate against the shared LoadGen
// vectors (single_stream_examples: queries, enough_queries and the 0-based
// ascending index of the estimate) on the array 0, 1, …, n−1, for the
// percentiles in the report grid.
func TestEarlyStopVectors(t *testing.T) {
	root, _ := os.Getwd()
	for !fileExistsCore(filepath.Join(root, "go.mod")) && filepath.Dir(root) != root {
		root = filepath.Dir(root)
	}
	b, err := os.ReadFile(filepath.Join(root, "..", "shared", "vectors", "early_stopping.json"))
	if err != nil {
		t.Skipf("shared vectors not found: %v", err)
	}
	var v struct {
		Examples []struct {
			P       float64 `json:"p"`
			Queries int     `json:"queries"`
			Enough  bool    `json:"enough_queries"`
			Index   *int    `json:"estimate_index_sorted_ascending_0based"`
		} `json:"single_stream_examples"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, ex := range v.Examples {
		gi := slices.Index(EarlyStopGrid(), math.Round(ex.P*1000)/10)
		if gi < 0 {
			continue
		}
		xs := make([]float64, ex.Queries)
		for i := range xs {
			xs[i] = float64(i)
		}
		e := NewRun(nil, RunInfo{}).earlyStopEstimate(xs) // ascending already
		if e.OK[gi] != ex.Enough {
			t.Errorf("p=%v n=%d: ok %v, vectors %v", ex.P, ex.Queries, e.OK[gi], ex.Enough)
		}
		if ex.Index != nil && e.Values[gi] != float64(*ex.Index) {
			t.Errorf("p=%v n=%d: estimate index %v, vectors %d", ex.P, ex.Queries, e.Values[gi], *ex.Index)
		}
		checked++
	}
	if checked < 6 {
		t.Fatalf("only %d vector examples checked", checked)
	}
}

func fileExistsCore(p string) bool { _, err := os.Stat(p); return err == nil }

// TestEarlyStopProperty: on random sorted arrays every present estimate is
// an element at or above the empirical percentile (an upper confidence
// bound), estimates do not decrease with the percentile, and presence is
// exactly n ≥ EarlyStoppingMinQueries.
func TestEarlyStopProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for range 200 {
		n := 1 + rng.IntN(3000)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = rng.ExpFloat64() * 1e8
		}
		slices.Sort(xs)
		e := NewRun(nil, RunInfo{}).earlyStopEstimate(xs)
		prev := math.Inf(1)
		for i, p := range EarlyStopGrid() { // descending percentiles
			floor := stats.EarlyStoppingMinQueries(p/100, 0.99, 0)
			if e.OK[i] != (n >= floor) {
				t.Fatalf("n=%d p%v: ok %v, floor %d", n, p, e.OK[i], floor)
			}
			if !e.OK[i] {
				continue
			}
			if emp := stats.PercentileLower(xs, p/100); e.Values[i] < emp {
				t.Fatalf("n=%d p%v: estimate %v < empirical %v", n, p, e.Values[i], emp)
			}
			if _, found := slices.BinarySearch(xs, e.Values[i]); !found {
				t.Fatalf("n=%d p%v: estimate is not a sample", n, p)
			}
			if e.Values[i] > prev {
				t.Fatalf("n=%d: estimate of p%v above the higher percentile's", n, p)
			}
			prev = e.Values[i]
		}
	}
}
