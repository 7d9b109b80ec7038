package core_test

import (
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestCertificationSuite scores per-metric certification (issue 28) on
// synth.CertificationSuite: 10 runs of each class over concurrencies 8–32
// and super-passes of 60–120 samples. Planted truth: prefix-cache warming
// (prefill work −30 … −45 % over the run) and overload (Poisson at
// 108–130 % of the prefill capacity) plant a TTFT trend with TPOT flat;
// slow cache warming (−2 … −4 % over ~25 min) and Poisson at 85–92 % of
// capacity plant every metric steady. No planted TTFT trend may be
// certified (nor read STEADY STATE), at most 1 steady run in 20 may have
// a family withheld, and no run may be found = false with a steady
// verdict.
func TestCertificationSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("40 generated long-context runs")
	}
	steadyVerdicts := map[core.Verdict]bool{core.VerdictSteadyState: true, core.VerdictSteadyTPOTTTFTDrifting: true,
		core.VerdictSteadyTPOTMetricsDrifting: true}
	var steady, withheld int
	for _, run := range synth.CertificationSuite(1, 10) {
		dir := filepath.Join(t.TempDir(), run.Name)
		if _, err := synth.Generate(dir, run.Spec); err != nil {
			t.Fatal(err)
		}
		s, info, err := decodeRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		r, err := core.NewRun(s, info).Analyze(core.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		o := r.Outcome()
		c := r.Assessment.Certification
		if steadyVerdicts[o.Verdict] && !o.Found {
			t.Errorf("%s: verdict %q with found = false", run.Name, o.Verdict)
		}
		if run.TTFTTrend {
			if o.CertTTFT == core.CertCertified || o.Verdict == core.VerdictSteadyState {
				t.Errorf("%s: planted TTFT trend, TTFT %s, verdict %q (%s)", run.Name, o.CertTTFT, o.Verdict, o.Reason)
			}
			if o.CertTTFT == core.CertCertified || o.CertTTFT == core.CertNotAssessed {
				continue
			}
			if o.SteadyTTFTP50Ns == o.SteadyTTFTP50Ns { // not NaN
				t.Errorf("%s: TTFT %s but a steady TTFT p50 of %v ns", run.Name, o.CertTTFT, o.SteadyTTFTP50Ns)
			}
			continue
		}
		steady++
		if !o.Found || o.Verdict != core.VerdictSteadyState || len(c.Trending()) > 0 {
			withheld++
			t.Logf("%s: steady run withheld: found %v, verdict %q, trending %+v", run.Name, o.Found, o.Verdict, c.Trending())
		}
	}
	if steady != 20 || withheld*20 > steady {
		t.Errorf("%d of %d planted-steady runs withheld (at most 1 in 20)", withheld, steady)
	}
}

var certSeed uint64 = 4
