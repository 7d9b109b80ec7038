package synth

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// SuiteRun is one run of a generated accuracy suite: its directory name, its
// class (the shape it plants), the judge category of that class and the Spec.
type SuiteRun struct {
	Name     string
	Class    string
	Category string
	Spec     Spec
}

// Judge categories (shared/accuracy/README.md) and what a correct detector
// answers: clean and staircase runs have a genuine steady region (staircases
// also a level shift to flag); ramp-only bursts and drifts have none.
const (
	CategoryClean     = "clean"
	CategoryStaircase = "staircase"
	CategoryRampOnly  = "ramp_only"
	CategoryDrift     = "drift"
)

const streamSuite = 10

// Sizing of the long-context runs. Every genuine plateau is planted to last
// at least plateauMargin × its required duration, max(600 s, 5 × the p90
// request latency), estimated from the planned issue rate.
const (
	suiteFloorS      = 600.0
	suiteRelaxMult   = 5.0
	plateauMargin    = 1.25
	rampSettledBand  = 0.002 // a ramp counts as settled within 0.2 % of its level (judge.py's band is 1 %)
	suitePrefillSlot = 4
	suiteDrainS      = 900
)

// suiteClass is one shape of the accuracy suite: how many runs and how to
// draw one.
type suiteClass struct {
	name, category string
	count          int
	draw           func(r *rand.Rand) Spec
}

// AccuracySuite returns the runs of the accuracy suite with the given seed:
// 120 runs over the classes of the shared accuracy set (clean with exponential
// and linear ramps from below and above, flat, noisy, slow ramps, big
// super-passes and Poisson; staircases up, down, two-step, with short 2–3
// super-pass tails up and down, and Poisson; ramp-only bursts; drifts up and
// down, short fast and short slow ones of 8–12 super-passes, after a ramp and
// Poisson) at sizes of its own. Steady runs are long-context, prefill-bound
// closed loops (or Poisson) issuing 0.5–1.5 samples per second, so every
// genuine plateau lasts ≥ 1.25 × max(600 s, 5·p90 latency) and files stay
// at 0.1–1.5 MB. The same seed gives the same specs.
func AccuracySuite(seed uint64) []SuiteRun {
	r := rand.New(rand.NewPCG(seed, streamSuite))
	var out []SuiteRun
	for _, c := range suiteClasses {
		for range c.count {
			spec := c.draw(r)
			spec.Seed = r.Uint64()
			spec.Preset = c.name
			name := fmt.Sprintf("%03d_%s_c%d_n%d", len(out), c.name, spec.Concurrency, spec.DatasetSize)
			if spec.Mode == ModePoisson {
				name = fmt.Sprintf("%03d_%s_q%.1f_n%d", len(out), c.name, spec.QPS, spec.DatasetSize)
			}
			out = append(out, SuiteRun{Name: name, Class: c.name, Category: c.category, Spec: spec})
		}
	}
	return out
}

// GenerateSuite writes runs into dir in the shared accuracy set's layout:
// dir/runs/NAME/ (events.jsonl.gz when compress, else events.jsonl; config.yaml,
// run_meta.json, sample_idx_map.json and synth's own truth.json) and
// dir/truth/NAME.json in judge.py's schema (JudgeTruth), so
// `python3 judge.py dir OUT_DIR` scores it. progress, when not nil, is called
// after each run.
func GenerateSuite(dir string, runs []SuiteRun, compress bool, progress func(done int)) error {
	for _, sub := range []string{"runs", "truth"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return fmt.Errorf("synth: suite: %w", err)
		}
	}
	for i, run := range runs {
		runDir := filepath.Join(dir, "runs", run.Name)
		truth, err := Generate(runDir, run.Spec)
		if err != nil {
			return fmt.Errorf("synth: suite run %s: %w", run.Name, err)
		}
		truth.Name, truth.Set = run.Name, "synth-accuracy"
		jt, err := truth.Judge(run.Spec, run.Category)
		if err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(dir, "truth", run.Name+".json"), jt); err != nil {
			return err
		}
		if compress {
			if err := gzipFile(filepath.Join(runDir, "events.jsonl")); err != nil {
				return err
			}
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	return nil
}

func writeJSON(path string, v any) error {
	raw, err := marshalTruth(v)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, raw); err != nil {
		return fmt.Errorf("synth: write %s: %w", path, err)
	}
	return nil
}

// gzipFile replaces path by path.gz.
func gzipFile(path string) error {
	in, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("synth: gzip: %w", err)
	}
	defer in.Close()
	err = atomicfile.WriteWith(path+".gz", func(out io.Writer) error {
		zw := gzip.NewWriter(out)
		_, err := io.Copy(zw, in)
		return errors.Join(err, zw.Close())
	})
	if err != nil {
		return fmt.Errorf("synth: gzip %s: %w", path, err)
	}
	return os.Remove(path)
}

// uniform draws from [a, b).
func uniform(r *rand.Rand, a, b float64) float64 { return a + (b-a)*r.Float64() }

// logUniformInt draws an integer log-uniformly from [a, b].
func logUniformInt(r *rand.Rand, a, b int) int {
	return int(math.Round(math.Exp(uniform(r, math.Log(float64(a)), math.Log(float64(b))))))
}

// longContext is the common draw of a steady-capable run: a prefill-bound
// server (4 prefill slots) issuing about rate requests per second, TPOT
// tpotMs independent of the batch, short answers, per-request jitter and
// epoch noise. Mode poisson offers rate requests per second to a server
// with 1/util of that prefill capacity.
func longContext(r *rand.Rand, mode string, c int, rate float64) Spec {
	tpotMs := uniform(r, 4, 35)
	s := Spec{
		Mode: mode, Concurrency: c, BatchH0: 1,
		OutputWords: int(uniform(r, 12, 28)), JitterSigma: uniform(r, 0.02, 0.05),
		LevelNoiseSigma: uniform(r, 0.004, 0.011), NoiseEpochSP: []float64{0.5, 1}[r.IntN(2)],
		PrefillSlots: suitePrefillSlot, PrefillS: suitePrefillSlot / rate, DrainTimeoutS: suiteDrainS,
	}
	if mode == ModePoisson {
		s.Concurrency = 8 // b_ref: the level's reference batch
		s.QPS = rate
		s.PrefillS = uniform(r, 0.4, 0.7) * suitePrefillSlot / rate
	}
	s.OutputTokS = float64(s.Concurrency) / (tpotMs / 1e3)
	return s
}

// issueRate is the planned issue rate of a long-context spec: the Poisson
// rate, or the prefill capacity (slots over the mean prefill time, the mean
// prompt being e^{0.08} ≈ 1.083 × the median: 1.04 × PrefillS).
func issueRate(s Spec) float64 {
	if s.Mode == ModePoisson {
		return s.QPS
	}
	return float64(s.PrefillSlots) / (1.04 * s.PrefillS)
}

// requiredS is the min-duration requirement of a plateau of the spec:
// max(600 s, 5 × p90 latency), the latency of a closed loop being about its
// queue C/rate (TTFT) plus the decode of a long answer.
func requiredS(s Spec) float64 {
	rate := issueRate(s)
	lat := 2 * s.PrefillS
	if s.Mode == ModeConcurrency {
		lat = float64(s.Concurrency) / rate
	}
	lat = 1.15*lat + 2*float64(s.OutputWords)*s.levelNs()/1e9
	return math.Max(suiteFloorS, suiteRelaxMult*lat)
}

// rampSPs is how many super-passes the spec's planted ramp takes to settle
// within rampSettledBand.
func rampSPs(s Spec) float64 {
	switch {
	case s.RampFrom <= 0:
		return 0
	case s.RampLinear:
		return s.RampLenSP
	}
	return s.RampLenSP * math.Max(0, math.Log(math.Abs(1-s.RampFrom)/rampSettledBand))
}

// plateauSPs is the super-passes a plateau of plateauMargin·u × the required
// duration spans, at least minSP.
func plateauSPs(s Spec, u, minSP float64) float64 {
	spS := float64(s.DatasetSize) / issueRate(s)
	return math.Max(minSP, plateauMargin*u*requiredS(s)/spS)
}

// withRamp plants an exponential (or linear) ramp from `from` over lenSP.
func withRamp(s Spec, from, lenSP float64, linear bool) Spec {
	s.RampFrom, s.RampLenSP, s.RampLinear = from, lenSP, linear
	return s
}

// datasetFor picks a super-pass size giving super-passes of spanS seconds.
func datasetFor(s Spec, spanS float64) int {
	return max(20, int(math.Round(spanS*issueRate(s))))
}

// closedLoop draws a long-context closed loop: C log-uniform in [cLo, cHi],
// 0.5–1.5 issues/s, super-passes of spanLo–spanHi seconds.
func closedLoop(r *rand.Rand, cLo, cHi int, spanLo, spanHi float64) Spec {
	s := longContext(r, ModeConcurrency, logUniformInt(r, cLo, cHi), uniform(r, 0.5, 1.5))
	s.DatasetSize = datasetFor(s, uniform(r, spanLo, spanHi))
	return s
}

func poissonLoop(r *rand.Rand, spanLo, spanHi float64) Spec {
	s := longContext(r, ModePoisson, 8, uniform(r, 0.5, 1.5))
	s.DatasetSize = datasetFor(s, uniform(r, spanLo, spanHi))
	return s
}

// steadyPasses plans ramp + plateau + a little more, in whole super-passes.
func steadyPasses(r *rand.Rand, s Spec, minSP float64) Spec {
	s.Passes = math.Ceil(rampSPs(s) + plateauSPs(s, uniform(r, 1, 1.8), minSP) + uniform(r, 0, 1.5))
	return s
}

// staircase plants steps with mults after the first plateau: the first at
// ramp + plateau, the next ones gap super-passes apart, then tail
// super-passes; Passes is rounded up to whole super-passes with the tail
// kept exact (the steps move later).
func staircase(r *rand.Rand, s Spec, mults []float64, gap, tail float64) Spec {
	first := rampSPs(s) + plateauSPs(s, uniform(r, 1, 1.6), 4.5)
	span := gap * float64(len(mults)-1)
	s.Passes = math.Ceil(first + span + tail)
	at := s.Passes - tail - span
	for i, m := range mults {
		s.Steps = append(s.Steps, Step{AtSuperPass: at + gap*float64(i), Mult: m})
	}
	return s
}

// driftOf plants a linear drift of total (relative, first to last issue)
// over passes super-passes, raised when needed to at least minPerTenMin per
// 600 s of issue time so no 600-s stretch is flat.
func driftOf(s Spec, passes, total, minPerTenMin float64) Spec {
	s.Passes = passes
	durS := passes * float64(s.DatasetSize) / issueRate(s)
	floor := minPerTenMin * durS / suiteFloorS
	if math.Abs(total) < floor {
		total = math.Copysign(floor, total)
	}
	s.Drift = total
	return s
}

// driftRate plants a drift of perTenMin per 600 s of issue time.
func driftRate(s Spec, passes, perTenMin float64) Spec {
	durS := passes * float64(s.DatasetSize) / issueRate(s)
	return driftOf(s, passes, perTenMin*durS/suiteFloorS, 0)
}

func sign(r *rand.Rand) float64 { return []float64{-1, 1}[r.IntN(2)] }

// cleanRamped is the clean classes' common run: closed loop C=8 over 160
// samples, a ramp from a level drawn in [fromLo, fromHi] lasting a length
// drawn in [lenLo, lenHi] super-passes, then 4.5 steady passes (the draws in
// that order, so a seed gives the same run as before).
func cleanRamped(r *rand.Rand, fromLo, fromHi, lenLo, lenHi float64, linear bool) Spec {
	s := closedLoop(r, 8, 160, 40, 160)
	return steadyPasses(r, withRamp(s, uniform(r, fromLo, fromHi), uniform(r, lenLo, lenHi), linear), 4.5)
}

// suiteClasses are the accuracy suite's classes in order.
var suiteClasses = []suiteClass{
	{"clean_exp", CategoryClean, 8, func(r *rand.Rand) Spec { return cleanRamped(r, 0.65, 0.9, 0.3, 1.4, false) }},
	{"clean_lin", CategoryClean, 5, func(r *rand.Rand) Spec { return cleanRamped(r, 0.5, 0.85, 0.8, 3, true) }},
	{"clean_above", CategoryClean, 5, func(r *rand.Rand) Spec { return cleanRamped(r, 1.1, 1.35, 0.4, 1.2, false) }},
	{"clean_flat", CategoryClean, 4, func(r *rand.Rand) Spec {
		return steadyPasses(r, closedLoop(r, 8, 160, 60, 200), 4.5)
	}},
	{"clean_noisy", CategoryClean, 5, func(r *rand.Rand) Spec {
		s := closedLoop(r, 8, 64, 30, 90)
		s.LevelNoiseSigma, s.NoiseEpochSP = uniform(r, 0.012, 0.018), 0.5
		return steadyPasses(r, withRamp(s, uniform(r, 0.65, 0.85), uniform(r, 0.8, 1.8), false), 8)
	}},
	{"clean_slowramp", CategoryClean, 5, func(r *rand.Rand) Spec {
		s := closedLoop(r, 8, 96, 30, 90)
		return steadyPasses(r, withRamp(s, uniform(r, 0.6, 0.75), uniform(r, 2, 3.2), false), 4.5)
	}},
	{"clean_bign", CategoryClean, 5, func(r *rand.Rand) Spec {
		s := closedLoop(r, 32, 256, 200, 350)
		s = withRamp(s, uniform(r, 0.82, 0.92), uniform(r, 0.2, 0.45), r.IntN(3) == 0)
		return steadyPasses(r, s, 4)
	}},
	{"clean_poisson", CategoryClean, 5, func(r *rand.Rand) Spec {
		s := poissonLoop(r, 40, 120)
		from := uniform(r, 0.7, 0.85)
		if r.IntN(2) == 0 {
			from = uniform(r, 1.15, 1.3)
		}
		return steadyPasses(r, withRamp(s, from, uniform(r, 0.6, 1.3), false), 4.5)
	}},
	{"stair_up", CategoryStaircase, 5, func(r *rand.Rand) Spec {
		s := withRamp(closedLoop(r, 8, 128, 40, 120), uniform(r, 0.7, 0.85), uniform(r, 0.5, 1), false)
		return staircase(r, s, []float64{uniform(r, 1.15, 1.45)}, 0, uniform(r, 4, 9))
	}},
	{"stair_drop", CategoryStaircase, 4, func(r *rand.Rand) Spec {
		s := withRamp(closedLoop(r, 8, 128, 40, 120), uniform(r, 0.7, 0.85), uniform(r, 0.5, 1), false)
		return staircase(r, s, []float64{uniform(r, 0.7, 0.82)}, 0, uniform(r, 4, 8))
	}},
	{"stair_two", CategoryStaircase, 4, func(r *rand.Rand) Spec {
		s := withRamp(closedLoop(r, 8, 96, 40, 100), uniform(r, 0.7, 0.85), uniform(r, 0.5, 1), false)
		m := uniform(r, 1.1, 1.14)
		if r.IntN(2) == 0 {
			m = uniform(r, 0.84, 0.88)
		}
		return staircase(r, s, []float64{m, m}, uniform(r, 2.5, 4), uniform(r, 2.5, 5))
	}},
	{"stair_short", CategoryStaircase, 6, func(r *rand.Rand) Spec {
		s := withRamp(closedLoop(r, 8, 128, 100, 220), uniform(r, 0.75, 0.85), uniform(r, 0.4, 0.7), false)
		return staircase(r, s, []float64{uniform(r, 1.2, 1.45)}, 0, []float64{2, 2.2, 2.5, 2.8, 3}[r.IntN(5)])
	}},
	{"stair_shortdrop", CategoryStaircase, 5, func(r *rand.Rand) Spec {
		s := withRamp(closedLoop(r, 8, 128, 100, 220), uniform(r, 0.75, 0.85), uniform(r, 0.4, 0.7), false)
		return staircase(r, s, []float64{uniform(r, 0.7, 0.82)}, 0, []float64{2, 2.3, 2.5, 2.8, 3}[r.IntN(5)])
	}},
	{"stair_poisson", CategoryStaircase, 4, func(r *rand.Rand) Spec {
		s := withRamp(poissonLoop(r, 50, 120), uniform(r, 0.75, 0.85), uniform(r, 0.5, 1), false)
		m := uniform(r, 1.18, 1.35)
		if r.IntN(2) == 0 {
			m = uniform(r, 0.72, 0.82)
		}
		return staircase(r, s, []float64{m}, 0, uniform(r, 3, 6))
	}},
	{"burst", CategoryRampOnly, 14, func(r *rand.Rand) Spec {
		c := logUniformInt(r, 150, 4000)
		n := int(math.Round(float64(c) * uniform(r, 0.6, 1.2)))
		dsz := max(8, int(math.Round(float64(n)/uniform(r, 4, 8))))
		s := Spec{Mode: ModeConcurrency, Concurrency: c, DatasetSize: dsz, Passes: float64(n) / float64(dsz),
			BatchH0: 1, OutputWords: int(uniform(r, 5, 14)), LevelNoiseSigma: uniform(r, 0.004, 0.009),
			PrefillSlots: 8, PrefillS: uniform(r, 0.002, 0.008)}
		s.OutputTokS = float64(c) / (uniform(r, 4, 35) / 1e3)
		return s
	}},
	{"drift_up", CategoryDrift, 6, func(r *rand.Rand) Spec {
		s := closedLoop(r, 8, 160, 40, 100)
		return driftOf(s, math.Round(uniform(r, 15, 32)), uniform(r, 0.14, 0.36), 0.05)
	}},
	{"drift_down", CategoryDrift, 5, func(r *rand.Rand) Spec {
		s := closedLoop(r, 8, 160, 40, 100)
		return driftOf(s, math.Round(uniform(r, 13, 24)), -uniform(r, 0.2, 0.28), 0.05)
	}},
	{"drift_short", CategoryDrift, 5, func(r *rand.Rand) Spec {
		s := closedLoop(r, 8, 64, 130, 220)
		return driftOf(s, math.Round(uniform(r, 8, 12)), uniform(r, 0.25, 0.4), 0.1)
	}},
	{"drift_shortslow", CategoryDrift, 7, func(r *rand.Rand) Spec {
		s := closedLoop(r, 8, 64, 130, 220)
		return driftRate(s, math.Round(uniform(r, 8, 12)), uniform(r, 0.055, 0.09))
	}},
	{"drift_shortdown", CategoryDrift, 5, func(r *rand.Rand) Spec {
		s := closedLoop(r, 8, 96, 120, 200)
		return driftOf(s, math.Round(uniform(r, 8, 12)), -uniform(r, 0.18, 0.28), 0.06)
	}},
	{"drift_ramp", CategoryDrift, 4, func(r *rand.Rand) Spec {
		s := withRamp(closedLoop(r, 8, 128, 60, 120), uniform(r, 0.75, 0.85), uniform(r, 0.5, 0.9), false)
		return driftOf(s, math.Round(uniform(r, 12, 22)), uniform(r, 0.2, 0.35), 0.05)
	}},
	{"drift_poisson", CategoryDrift, 4, func(r *rand.Rand) Spec {
		s := poissonLoop(r, 50, 110)
		return driftOf(s, math.Round(uniform(r, 12, 24)), sign(r)*uniform(r, 0.18, 0.3), 0.05)
	}},
}
