package core_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// longSoak is synth clean_ramp stretched into a soak test of passes
// super-passes of S samples (bench/cmd/benchall's longRunSpec: at most S
// in flight, at least 4; the ramp ten times as long).
func longSoak(t *testing.T, S int, passes float64) (*core.Samples, core.RunInfo) {
	s, info, _ := genRun(t, "clean_ramp", 1, func(sp *synth.Spec) {
		sp.DatasetSize, sp.Passes = S, passes
		sp.Concurrency = min(sp.Concurrency, max(S, 4))
		sp.RampSuperPasses *= 10
	})
	return s, info
}

// probesTo lists the geometric grid's probes from first up to and
// including k (the grid of longrunstop.go, written out again).
func probesTo(first, step, last, k int) []int {
	var out []int
	for p := first; ; p = min(last, max(p+step, int(math.Ceil(1.25*float64(p))))) {
		out = append(out, p)
		if p >= k || p >= last {
			return out
		}
	}
}

// TestEarliestStopLongRun: a steady soak test of 1500 super-passes of 20
// samples (planted: one level after a 200-super-pass ramp) is searched on
// the geometric grid (D39): the stop is a probe of the grid, certified
// with the two prefixes one and two steps before it; it lies within the
// grid's resolution of the linear search's stop (at most 25 % and a step
// later, at most a step earlier); the prefixes analysed are the probes up
// to it and at most two confirmations each (a bounded number, where the
// linear search analyses up to 200); and it agrees with the full run. A
// Stop hook that fails ends the search with its error (SIGTERM during the
// search), and a rule the full run misses is not searched.
func TestEarliestStopLongRun(t *testing.T) {
	s, info := longSoak(t, 20, 1500)
	run := core.NewRun(s, info)
	p, target := core.DefaultParams(), core.DefaultStopTarget()
	full, err := run.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	if full.NSuperPasses <= 512 {
		t.Fatalf("%d super-passes: not a long run", full.NSuperPasses)
	}
	es, err := run.EarliestStopOf(p, full, target)
	if err != nil {
		t.Fatal(err)
	}
	if !es.Geometric || !es.Found {
		t.Fatalf("geometric %v, found %v: %s", es.Geometric, es.Found, es.Reason)
	}
	lin, err := core.NewRun(s, info).LinearEarliestStop(p, full, target)
	if err != nil {
		t.Fatal(err)
	}
	if !lin.Found {
		t.Fatalf("the linear search finds no stop: %s", lin.Reason)
	}
	k, kl, step := es.Stop.NSuperPasses, lin.Stop.NSuperPasses, es.Step
	if step != lin.Step {
		t.Errorf("step %d, the linear search's %d", step, lin.Step)
	}
	if k < kl-step || float64(k) > math.Ceil(1.25*float64(kl))+float64(step) {
		t.Errorf("stop after %d super-passes, the linear search's after %d (step %d)", k, kl, step)
	}
	first := lin.Stop.NSuperPasses - (lin.Evaluated-1)*step
	probes := probesTo(first, step, full.NSuperPasses, k)
	if probes[len(probes)-1] != k {
		t.Errorf("stop after %d super-passes: not a probe of the grid %v", k, probes)
	}
	if es.Evaluated > 3*len(probes) || es.Evaluated < len(probes)+2 {
		t.Errorf("%d prefixes analysed for %d probes (want between probes + 2 and 3× probes)", es.Evaluated, len(probes))
	}
	for _, j := range []int{1, 2} {
		c, err := run.CheckPrefix(p, full.SuperpassSize, k-j*step, target)
		if err != nil {
			t.Fatal(err)
		}
		if !c.Certified {
			t.Errorf("confirmation %d steps before the stop does not certify: %s", j, c.Reason)
		}
	}
	if !es.Agrees || es.Withdrawn {
		t.Errorf("agrees %v, withdrawn %v", es.Agrees, es.Withdrawn)
	}
	t.Logf("stop after %d of %d super-passes (linear: %d), %d prefixes analysed (linear: %d), step %d",
		k, full.NSuperPasses, kl, es.Evaluated, lin.Evaluated, step)

	// The search polls the run's Stop hook through every prefix analysis:
	// failing at its 50th poll ends it with the hook's error.
	stopped := core.NewRun(s, info)
	polls := 0
	errStop := errors.New("interrupted")
	stopped.Stop = func() error {
		if polls++; polls >= 50 {
			return errStop
		}
		return nil
	}
	if _, err := stopped.EarliestStopOf(p, full, target); !errors.Is(err, errStop) || polls != 50 {
		t.Errorf("stop at the 50th poll: err %v after %d polls", err, polls)
	}

	// A rule the full run misses (±0.001 %) is not searched on a long run,
	// unless exhaustive: then every probe is analysed and none certifies.
	strict := target
	strict.MaxRelHalfWidth = 1e-5
	es, err = run.EarliestStopOf(p, full, strict)
	if err != nil {
		t.Fatal(err)
	}
	if es.Found || es.Evaluated != 0 || !strings.Contains(es.Reason, "searched only when it does") {
		t.Errorf("strict rule: found %v, %d analysed, reason %q", es.Found, es.Evaluated, es.Reason)
	}
	strict.Exhaustive = true
	es, err = run.EarliestStopOf(p, full, strict)
	if err != nil {
		t.Fatal(err)
	}
	all := probesTo(first, step, full.NSuperPasses, full.NSuperPasses)
	if es.Found || es.Evaluated != len(all) || !strings.Contains(es.Reason, "half-width") {
		t.Errorf("strict exhaustive rule: found %v, %d analysed (want the %d probes), reason %q", es.Found, es.Evaluated, len(all), es.Reason)
	}
}
