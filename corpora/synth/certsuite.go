package synth

import (
	"fmt"
	"math/rand/v2"
)

// Certification suite (issue 28): runs whose TPOT is flat while another
// reported metric trends, or does not, so per-metric certification can be
// scored against planted truth. Four classes, each drawn over several
// concurrencies, super-pass sizes and rates:
//
//	prefix_cache_warming   prefill work falls 30–45 % over a closed-loop,
//	                       prefill-bound run (PrefillDrift): TTFT falls
//	                       ≥ 10 %/10 min, TPOT flat → TTFT trending
//	overload               Poisson arrivals at 108–130 % of the prefill
//	                       capacity: the queue grows all run, TTFT climbs,
//	                       TPOT flat → TTFT trending
//	slow_cache_warming     prefill work falls 2–4 % over 20–30 minutes
//	                       (≤ 2 %/10 min) → every metric steady
//	poisson_near_capacity  Poisson arrivals at 85–92 % of the prefill
//	                       capacity: queueing makes TTFT noisy, not
//	                       trending → every metric steady
const (
	CertClassPrefixWarming = "prefix_cache_warming"
	CertClassOverload      = "overload"
	CertClassSlowWarming   = "slow_cache_warming"
	CertClassNearCapacity  = "poisson_near_capacity"
)

// CertRun is one run of the certification suite and what it plants:
// TTFTTrend reports a planted TTFT trend (the family must not be
// certified); otherwise every family is steady and must be.
type CertRun struct {
	Name      string
	Class     string
	TTFTTrend bool
	Spec      Spec
}

const streamCertSuite = 11

// CertificationSuite returns perClass runs of each class with the given
// seed; the same seed gives the same specs. Runs are long-context
// (prefill-bound, 20-word answers), 15–30 minutes of issue time.
func CertificationSuite(seed uint64, perClass int) []CertRun {
	r := rand.New(rand.NewPCG(seed, streamCertSuite))
	concs := []int{8, 12, 16, 24, 32}
	sizes := []int{60, 80, 100, 120}
	var out []CertRun
	add := func(class string, trend bool, s Spec) {
		s.Seed, s.Preset = r.Uint64(), class
		name := fmt.Sprintf("%03d_%s_c%d_n%d", len(out), class, s.Concurrency, s.DatasetSize)
		out = append(out, CertRun{Name: name, Class: class, TTFTTrend: trend, Spec: s})
	}
	// capacity is the prefill-bound server's request rate: 4 slots of ~3 s.
	const capacity = 4.0 / 3.0
	// warming draws a closed-loop prefill-bound run whose prefill work
	// falls by lo … lo+span over the run; poisson one at lo … lo+span of
	// the prefill capacity (after a TPOT ramp when ramp).
	warming := func(class string, trend bool, lo, span float64) {
		c, n := concs[r.IntN(len(concs))], sizes[r.IntN(len(sizes))]
		add(class, trend, longContextPreset(Spec{Mode: ModeConcurrency, Concurrency: c, DatasetSize: n,
			Passes: float64(1500*capacity/float64(n)) + 2, OutputTokS: 80 * float64(c),
			RampFrom: 0.8, RampLenSP: 1.5, RampLinear: true, PrefillDrift: -(lo + span*r.Float64())}))
	}
	poisson := func(class string, trend bool, lo, span float64, ramp bool) {
		c, n := concs[r.IntN(len(concs))], sizes[r.IntN(len(sizes))]
		q := capacity * (lo + span*r.Float64())
		s := Spec{Mode: ModePoisson, Concurrency: c, DatasetSize: n, QPS: q,
			Passes: 1500 * q / float64(n), OutputTokS: 80 * float64(c)}
		if ramp {
			s.RampFrom, s.RampLenSP, s.RampLinear = 0.8, 1.5, true
		}
		add(class, trend, longContextPreset(s))
	}
	for range perClass {
		warming(CertClassPrefixWarming, true, 0.30, 0.15)
	}
	for range perClass {
		poisson(CertClassOverload, true, 1.08, 0.22, false)
	}
	for range perClass {
		warming(CertClassSlowWarming, false, 0.02, 0.02)
	}
	for range perClass {
		poisson(CertClassNearCapacity, false, 0.85, 0.07, true)
	}
	return out
}
