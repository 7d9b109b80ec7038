package core_test

import (
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestEarliestStopMemoMatchesFresh: the earliest stop of one core.Run
// searched under several parameter sets in turn (its prefix runs kept
// between them, issue 32) is, field for field, the earliest stop a fresh
// core.Run computes under each (the definition: every prefix analysed
// as a new run), on the planted clean run of TestEarliestStopClean, for
// alphas and effect-size floors that move the stop.
func TestEarliestStopMemoMatchesFresh(t *testing.T) {
	s, info, _ := suiteRunNamed(t, 1, "013_clean_above")
	shared := core.NewRun(s, info)
	target := core.DefaultStopTarget()
	found := 0
	for _, c := range []struct{ alpha, drift float64 }{{0.05, 0.05}, {0.01, 0.05}, {0.2, 0.02}, {0.05, 0.05}, {0.1, 0.1}} {
		p := core.DefaultParams()
		p.Alpha, p.TrendRelDriftMin = c.alpha, c.drift
		_, got := analyzeAndStop(t, shared, p, target)
		_, want := analyzeAndStop(t, core.NewRun(s, info), p, target)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("alpha %v floor %v: memoised %+v\nfresh %+v", c.alpha, c.drift, got, want)
		}
		if got.Found {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no parameter set found a stop: the comparison shows little")
	}
}
