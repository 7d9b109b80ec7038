package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The detection suite (issue 29): generated variants of the shapes the
// accuracy suite lacks — small mid-run steps on low noise, steps inside the
// noise, oscillations, isolated spikes, transient dips, late exponential
// approaches that settle and ones that never do, long warmups and
// heavy-tailed outputs — each class at least 10 runs of 19–45 minutes at
// varied concurrencies and super-pass sizes. Every run keeps the planted
// truth a scorer needs beside its Spec (DetectionRun): whether a genuine
// plateau exists, its level and the persistent level shift to flag.

// DetectionRun is one run of the detection suite.
type DetectionRun struct {
	SuiteRun
	// Genuine reports a genuine steady plateau: the first planted plateau
	// lasts at least plateauMargin × max(600 s, 5 × p90 latency).
	Genuine bool
	// LevelNs is the true plateau's TPOT level in ns: the level of the
	// first planted plateau (the spec's base level for every class: ramps
	// settle to it, steps and transients come after it, a wave oscillates
	// around it, epoch noise is mean-free in log).
	LevelNs float64
	// Shift is the persistent relative level shift planted after the first
	// plateau (mult − 1 of its step, 0 without one); transients (spikes,
	// dips) that recover are not shifts.
	Shift float64
	// ShiftAtSP is the planted step's position in super-passes (NaN
	// without one).
	ShiftAtSP float64
}

const streamDetection = 11

// detectionClass is one class of the detection suite.
type detectionClass struct {
	name, category string
	draw           func(r *rand.Rand) DetectionRun
}

// DetectionSuite returns the detection suite's runs with the given seed:
// perClass runs (at least 10) of each class of DetectionClasses, names
// NNN_CLASS_cC_nN. The same seed gives the same specs.
func DetectionSuite(seed uint64, perClass int) []DetectionRun {
	perClass = max(perClass, 10)
	r := rand.New(rand.NewPCG(seed, streamDetection))
	var out []DetectionRun
	for _, c := range detectionClasses {
		for range perClass {
			d := c.draw(r)
			d.Spec.Seed = r.Uint64()
			d.Spec.Preset = c.name
			d.Class, d.Category = c.name, c.category
			d.Name = fmt.Sprintf("%03d_%s_c%d_n%d", len(out), c.name, d.Spec.Concurrency, d.Spec.DatasetSize)
			d.LevelNs = d.Spec.withDefaults().levelNs()
			if d.Shift == 0 {
				d.ShiftAtSP = math.NaN()
			}
			out = append(out, d)
		}
	}
	return out
}

// DetectionClasses returns the class names of the detection suite in order:
//
//	step_mid         ±2–4 % step at 45–60 % of the run on 0.2–0.5 % noise → flag it, window before it
//	step_small       ±0.3 % step on 0.3–0.4 % noise (inside the noise) → steady, no shift
//	oscillation      1–2.5 % sine, period 1.5–5 super-passes, around a flat mean → steady at the mean
//	spike            one slow super-pass (×1.08–1.2) or a GC pause (×1.5–3 for 3–10 % of one) → steady
//	dip              a ±3–5 % transient of 1–2.5 super-passes that recovers → steady at the base
//	approach_settle  exponential approach settling at 53–65 % of the run → steady after it
//	approach_never   exponential approach still moving at the end → no steady state
//	long_warmup      ramp over 35–45 % of the run → steady after it
//	heavy_tail       lognormal σ 0.9–1.3 output lengths (cap 4096) → steady
func DetectionClasses() []string {
	out := make([]string, len(detectionClasses))
	for i, c := range detectionClasses {
		out[i] = c.name
	}
	return out
}

// detectionBase draws a long-context closed loop of C in [8, 64] at 0.5–1.5
// issues per second with super-passes of 40–100 s and 0.2–0.5 % epoch noise.
func detectionBase(r *rand.Rand) Spec {
	s := closedLoop(r, 8, 64, 40, 100)
	s.LevelNoiseSigma, s.NoiseEpochSP = uniform(r, 0.002, 0.005), 1
	return s
}

// spanS is the issue span of one super-pass of s, in seconds.
func spanS(s Spec) float64 { return float64(s.DatasetSize) / issueRate(s) }

// firstPlateauEnd is where, in super-passes, a genuine first plateau
// after the spec's ramp ends: plateauMargin × the required duration after
// the ramp has settled, plus one super-pass.
func firstPlateauEnd(s Spec) float64 {
	return rampSPs(s) + plateauMargin*requiredS(s)/spanS(s) + 1
}

// passesFor returns whole super-passes for a run of 19–44 minutes of issue
// time, more when needed so that a stretch of need super-passes fits in
// the fraction frac of the run.
func passesFor(r *rand.Rand, s Spec, need, frac float64) float64 {
	return math.Ceil(math.Max(uniform(r, 1150, 2640)/spanS(s), need/frac))
}

// shortRamp plants the usual short admission ramp (from 0.8–0.9, settled
// within 0.2 % in about 2 super-passes).
func shortRamp(r *rand.Rand, s Spec) Spec {
	return withRamp(s, uniform(r, 0.8, 0.9), uniform(r, 0.3, 0.5), false)
}

// stepRun plants one step of relative size rel at 45–60 % of the run.
func stepRun(r *rand.Rand, s Spec, rel float64) DetectionRun {
	s = shortRamp(r, s)
	at := uniform(r, 0.45, 0.6)
	s.Passes = math.Max(passesFor(r, s, firstPlateauEnd(s), at), math.Ceil(8/(1-at)))
	x := math.Round(at*s.Passes) + uniform(r, 0.1, 0.9)
	s.Steps = []Step{{AtSuperPass: x, Mult: 1 + rel}}
	return DetectionRun{SuiteRun: SuiteRun{Spec: s}, Genuine: true, Shift: rel, ShiftAtSP: x}
}

var detectionClasses = []detectionClass{
	{"step_mid", CategoryStaircase, func(r *rand.Rand) DetectionRun {
		return stepRun(r, detectionBase(r), sign(r)*uniform(r, 0.02, 0.04))
	}},
	{"step_small", CategoryClean, func(r *rand.Rand) DetectionRun {
		s := detectionBase(r)
		s.LevelNoiseSigma = uniform(r, 0.003, 0.004)
		d := stepRun(r, s, sign(r)*0.003)
		d.Shift, d.ShiftAtSP = 0, 0 // inside the noise: not a shift to flag
		return d
	}},
	{"oscillation", CategoryClean, func(r *rand.Rand) DetectionRun {
		s := shortRamp(r, detectionBase(r))
		s.WaveAmp, s.WavePeriodSP = uniform(r, 0.01, 0.025), uniform(r, 1.5, 5)
		s.Passes = passesFor(r, s, firstPlateauEnd(s), 0.9)
		return DetectionRun{SuiteRun: SuiteRun{Spec: s}, Genuine: true}
	}},
	{"spike", CategoryClean, func(r *rand.Rand) DetectionRun {
		s := shortRamp(r, detectionBase(r))
		first := firstPlateauEnd(s)
		s.Passes = passesFor(r, s, first, 0.6)
		x := math.Round(uniform(r, first, 0.85*s.Passes))
		if r.IntN(2) == 0 { // one slow super-pass
			m := uniform(r, 1.08, 1.2)
			s.Steps = []Step{{AtSuperPass: x, Mult: m}, {AtSuperPass: x + 1, Mult: 1 / m}}
		} else { // a GC pause: a few percent of one super-pass much slower
			m, w := uniform(r, 1.5, 3), uniform(r, 0.03, 0.1)
			x += uniform(r, 0.1, 0.8)
			s.Steps = []Step{{AtSuperPass: x, Mult: m}, {AtSuperPass: x + w, Mult: 1 / m}}
		}
		return DetectionRun{SuiteRun: SuiteRun{Spec: s}, Genuine: true}
	}},
	{"dip", CategoryClean, func(r *rand.Rand) DetectionRun {
		s := shortRamp(r, detectionBase(r))
		first := firstPlateauEnd(s)
		s.Passes = passesFor(r, s, first, 0.55)
		m := 1 + sign(r)*uniform(r, 0.03, 0.05)
		w := uniform(r, 1, 2.5)
		x := uniform(r, first, 0.7*s.Passes)
		if r.IntN(2) == 0 { // near the end: recovers 1–3 super-passes before it
			x = s.Passes - w - uniform(r, 1, 3)
		}
		s.Steps = []Step{{AtSuperPass: x, Mult: m}, {AtSuperPass: x + w, Mult: 1 / m}}
		return DetectionRun{SuiteRun: SuiteRun{Spec: s}, Genuine: true}
	}},
	{"approach_settle", CategoryClean, func(r *rand.Rand) DetectionRun {
		s := detectionBase(r)
		from, at := uniform(r, 0.8, 0.9), uniform(r, 0.53, 0.65)
		s.Passes = math.Max(passesFor(r, s, firstPlateauEnd(s), 1-at), 20)
		settle := at * s.Passes
		s = withRamp(s, from, settle/math.Log((1-from)/rampSettledBand), false)
		return DetectionRun{SuiteRun: SuiteRun{Spec: s}, Genuine: true}
	}},
	{"approach_never", CategoryDrift, func(r *rand.Rand) DetectionRun {
		s := detectionBase(r)
		s.Passes = math.Max(20, math.Ceil(uniform(r, 1150, 2640)/spanS(s)))
		from := uniform(r, 0.75, 0.85)
		// Still 2–5 % below the asymptote at the run's end.
		left := uniform(r, 0.02, 0.05)
		s = withRamp(s, from, s.Passes/math.Log((1-from)/left), false)
		return DetectionRun{SuiteRun: SuiteRun{Spec: s}}
	}},
	{"long_warmup", CategoryClean, func(r *rand.Rand) DetectionRun {
		s := detectionBase(r)
		at := uniform(r, 0.35, 0.45)
		s.Passes = math.Max(passesFor(r, s, firstPlateauEnd(s), 1-at), 16)
		from, end := uniform(r, 0.6, 0.85), at*s.Passes
		if r.IntN(2) == 0 {
			s = withRamp(s, from, end, true)
		} else {
			s = withRamp(s, from, end/math.Log((1-from)/rampSettledBand), false)
		}
		return DetectionRun{SuiteRun: SuiteRun{Spec: s}, Genuine: true}
	}},
	{"heavy_tail", CategoryClean, func(r *rand.Rand) DetectionRun {
		s := shortRamp(r, detectionBase(r))
		s.OutputWords, s.OutputSigma, s.MaxNewTokens = int(uniform(r, 30, 120)), uniform(r, 0.9, 1.3), 4096
		// Long answers: the p90 latency is several times the median's, so
		// the plateau is planned twice as long as the median suggests.
		s.Passes = passesFor(r, s, 2*firstPlateauEnd(s), 0.9)
		return DetectionRun{SuiteRun: SuiteRun{Spec: s}, Genuine: true}
	}},
}
