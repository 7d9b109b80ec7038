package compare

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// plantedRun writes the clean_ramp preset at seed with its service rate
// scaled by rateMult, analyses it with the default parameters and returns
// the side and the planted TPOT base level (ms).
func plantedRun(t *testing.T, seed uint64, rateMult float64) (Side, float64) {
	t.Helper()
	spec, err := synth.PresetSpec("clean_ramp", seed)
	if err != nil {
		t.Fatal(err)
	}
	spec.OutputTokS *= rateMult
	dir := filepath.Join(t.TempDir(), "run")
	truth, err := synth.Generate(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sinkstest.LoadRun(t, dir).Analyze(core.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	return FromResult(dir, res), truth.Planted.TPOTBaseMs
}

func metric(t *testing.T, c Comparison, key string) MetricDiff {
	t.Helper()
	for _, d := range c.Metrics {
		if d.Metric.Key == key {
			return d
		}
	}
	t.Fatalf("no metric %s", key)
	return MetricDiff{}
}

// TestCompareKnownTPOTShift: B's server is planted 10 % faster (service
// rate ×1.1), so its TPOT level is 1/1.1 of A's. The TPOT p50 difference
// is significant, its interval holds the planted difference, and every
// throughput is better beyond noise.
func TestCompareKnownTPOTShift(t *testing.T) {
	a, levelA := plantedRun(t, 1, 1)
	b, levelB := plantedRun(t, 1, 1.1)
	planted := levelB - levelA // ms; −6.61 ms for clean_ramp's 72.7 ms
	c := Compare(a, b)
	d := metric(t, c, "tpot_p50")
	got, lo, hi := d.Diff*1e-6, d.CILo*1e-6, d.CIHi*1e-6
	if !d.Comparable || !d.Significant || !d.Better || lo > planted || hi < planted {
		t.Fatalf("tpot_p50: diff %.4f ms [%.4f, %.4f], significant %v better %v; planted %.4f ms (%s)",
			got, lo, hi, d.Significant, d.Better, planted, d.Reason)
	}
	if math.Abs(got-planted) > 0.01*math.Abs(planted) {
		t.Errorf("tpot_p50 diff %.4f ms, planted %.4f ms: off by more than 1 %%", got, planted)
	}
	for _, k := range []string{"tpot_p90", "tps_per_user", "tps_system"} {
		if d := metric(t, c, k); !d.Significant || !d.Better {
			t.Errorf("%s: %+v, want better beyond noise", k, d)
		}
	}
	if o := c.Outcome(); o != Faster {
		t.Errorf("outcome %s, want %s", o, Faster)
	}
	t.Logf("planted %.4f ms; measured tpot_p50 %.4f ms, 95 %% CI [%.4f, %.4f], k %d/%d, df %.1f",
		planted, got, lo, hi, d.KA, d.KB, d.DF)
}

// TestCompareSameRunTwoSeeds: two seeds of one planted run share the TPOT
// level, so no TPOT or throughput difference is significant. (TTFT is not
// planted: it follows the prefill queue of each seed's own prompt lengths,
// a real difference between the two datasets, so it is not asserted.)
func TestCompareSameRunTwoSeeds(t *testing.T) {
	a, levelA := plantedRun(t, 1, 1)
	b, levelB := plantedRun(t, 2, 1)
	if levelA != levelB {
		t.Fatalf("planted levels %v and %v differ", levelA, levelB)
	}
	c := Compare(a, b)
	for _, k := range []string{"tpot_p50", "tpot_p90", "tpot_p99", "tps_per_user", "tps_system"} {
		d := metric(t, c, k)
		if !d.Comparable || d.Significant {
			t.Errorf("%s: diff %g [%g, %g] significant %v (%s); the planted levels are equal", k, d.Diff, d.CILo, d.CIHi, d.Significant, d.Reason)
		}
		t.Logf("%s: diff %.4g, 95 %% CI [%.4g, %.4g]", k, d.Diff, d.CILo, d.CIHi)
	}
}

// TestWelchInterval checks the interval against arithmetic done by hand:
// A's batches {1, 2, 3} (s² = 1), B's {2, 4, 6} (s² = 4), reported values
// 2 and 4. se = √(1/3 + 4/3) = √(5/3); ν = (5/3)² / ((1/3)²/2 + (4/3)²/2)
// = 50/17 ≈ 2.94, so t95(2) = 4.303 and the half-width is 4.303·√(5/3).
func TestWelchInterval(t *testing.T) {
	side := func(v float64, xs []float64) Side {
		n := len(Metrics())
		s := Side{WindowStart: 0, WindowEnd: len(xs) - 1, Values: make([]float64, n), NoCI: make([]bool, n), Batches: make([][]float64, n)}
		for i := range s.Values {
			s.Values[i], s.Batches[i] = v, xs
		}
		return s
	}
	c := Compare(side(2, []float64{1, 2, 3}), side(4, []float64{2, 4, 6}))
	d := c.Metrics[0]
	half := 4.303 * math.Sqrt(5.0/3)
	if !d.Comparable || d.Diff != 2 || math.Abs(d.DF-50.0/17) > 1e-12 ||
		math.Abs(d.CILo-(2-half)) > 1e-12 || math.Abs(d.CIHi-(2+half)) > 1e-12 || d.Significant || d.DiffPct != 100 {
		t.Errorf("%+v; want diff 2, df %.6f, CI [%.6f, %.6f], not significant", d, 50.0/17, 2-half, 2+half)
	}
}

// TestCannotCompare: a side without a window, with a null value, with a
// null interval or with a single super-pass gives a reason and no number.
func TestCannotCompare(t *testing.T) {
	n := len(Metrics())
	good := func() Side {
		s := Side{Status: "windowable", WindowStart: 2, WindowEnd: 5, Values: make([]float64, n), NoCI: make([]bool, n), Batches: make([][]float64, n)}
		for i := range s.Values {
			s.Values[i], s.Batches[i] = 10, []float64{9, 10, 11, 10}
		}
		return s
	}
	noWindow := good()
	noWindow.WindowStart, noWindow.Status, noWindow.Reason = -1, "insufficient_duration", "window 300 s < 600 s"
	nullValue := good()
	nullValue.Values[3] = math.NaN()
	nullCI := good()
	nullCI.NoCI[7] = true
	oneSP := good()
	oneSP.Batches[0] = []float64{10}
	for _, c := range []struct {
		b      Side
		metric int
		want   string
	}{
		{noWindow, 0, "B has no steady window (insufficient_duration: window 300 s < 600 s)"},
		{nullValue, 3, "B has no steady tpot_p50"},
		{nullCI, 7, "B's tps_system has no confidence interval"},
		{oneSP, 0, "B's window has 1 super-pass(es) with ttft_p50: an interval needs 2"},
	} {
		d := Compare(good(), c.b).Metrics[c.metric]
		if d.Comparable || d.Reason != c.want || !math.IsNaN(d.Diff) || !math.IsNaN(d.CILo) || d.Significant {
			t.Errorf("metric %d: %+v; want not comparable: %q", c.metric, d, c.want)
		}
	}
	cmp := Compare(good(), noWindow)
	if cmp.Outcome() != NoCompare || !strings.HasPrefix(cmp.Headline(), "cannot compare: B has no steady window") ||
		!strings.Contains(cmp.Changes(), "status windowable -> insufficient_duration") {
		t.Errorf("headline %q, changes %q", cmp.Headline(), cmp.Changes())
	}
	var b strings.Builder
	if err := cmp.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "NaN") {
		t.Errorf("text prints NaN:\n%s", b.String())
	}
}
