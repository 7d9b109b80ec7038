// Command accuracystress writes a stress corpus for the accuracy rules of
// issue 15, harder variants of the accuracy suite's classes (48 runs: short
// noisy and long noisy clean runs, drifts of 3.5–5 % per 600 s, noisy
// short-tail staircases, small ×1.06–1.09 / ×0.91–0.94 short-tail steps), in
// judge.py's layout, scored like any other corpus:
//
//	go run ./bench/cmd/accuracystress [-seed 99] DIR
//	go run ./bench/cmd/accuracy -corpora DIR
//
// Seed 99 is the corpus the rules were developed on; draw another seed to
// check them on runs not looked at.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

func u(r *rand.Rand, a, b float64) float64 { return a + (b-a)*r.Float64() }

func base(r *rand.Rand, c int, rate, spanS float64) synth.Spec {
	tpot := u(r, 4, 35)
	s := synth.Spec{Mode: synth.ModeConcurrency, Concurrency: c, BatchH0: 1, OutputWords: int(u(r, 12, 28)),
		JitterSigma: u(r, 0.02, 0.05), LevelNoiseSigma: u(r, 0.004, 0.011), NoiseEpochSP: []float64{0.5, 1}[r.IntN(2)],
		PrefillSlots: 4, PrefillS: 4 / rate, DrainTimeoutS: 900, OutputTokS: float64(c) / (tpot / 1e3)}
	s.DatasetSize = int(math.Round(spanS * rate))
	return s
}

func main() {
	seed := flag.Uint64("seed", 99, "corpus seed")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: accuracystress [-seed N] DIR")
	}
	r := rand.New(rand.NewPCG(*seed, 1))
	var runs []synth.SuiteRun
	add := func(class, cat string, s synth.Spec) {
		s.Seed = r.Uint64()
		s.Preset = class
		runs = append(runs, synth.SuiteRun{Name: fmt.Sprintf("%03d_%s_c%d_n%d", len(runs), class, s.Concurrency, s.DatasetSize), Class: class, Category: cat, Spec: s})
	}
	for range 12 {
		s := base(r, int(u(r, 8, 64)), u(r, 0.5, 1.5), u(r, 180, 300))
		s.LevelNoiseSigma, s.NoiseEpochSP = u(r, 0.012, 0.018), 0.5
		s.RampFrom, s.RampLenSP = u(r, 0.7, 0.9), u(r, 0.3, 0.6)
		s.Passes = math.Round(u(r, 6, 8))
		add("clean_short_noisy", "clean", s)
	}
	for range 8 {
		s := base(r, int(u(r, 8, 64)), u(r, 0.5, 1.5), u(r, 30, 60))
		s.LevelNoiseSigma, s.NoiseEpochSP = u(r, 0.015, 0.02), 0.5
		s.RampFrom, s.RampLenSP = u(r, 0.7, 0.9), u(r, 0.5, 1.5)
		s.Passes = math.Round(u(r, 30, 40))
		add("clean_long_noisy", "clean", s)
	}
	for range 10 {
		rate := u(r, 0.5, 1.5)
		s := base(r, int(u(r, 8, 64)), rate, u(r, 130, 220))
		s.Passes = math.Round(u(r, 8, 14))
		dur := s.Passes * float64(s.DatasetSize) / rate
		s.Drift = []float64{-1, 1}[r.IntN(2)] * u(r, 0.035, 0.05) * dur / 600
		add("drift_veryslow", "drift", s)
	}
	for range 10 {
		s := base(r, int(u(r, 8, 64)), u(r, 0.5, 1.5), u(r, 120, 220))
		s.LevelNoiseSigma, s.NoiseEpochSP = u(r, 0.012, 0.018), 0.5
		s.RampFrom, s.RampLenSP = u(r, 0.75, 0.85), u(r, 0.4, 0.7)
		tail := []float64{2, 2.5, 3}[r.IntN(3)]
		s.Passes = math.Round(u(r, 10, 14))
		m := []float64{u(r, 1.15, 1.25), u(r, 0.76, 0.85)}[r.IntN(2)]
		s.Steps = []synth.Step{{AtSuperPass: s.Passes - tail, Mult: m}}
		add("stair_short_noisy", "staircase", s)
	}
	for range 8 {
		s := base(r, int(u(r, 8, 64)), u(r, 0.5, 1.5), u(r, 120, 220))
		s.RampFrom, s.RampLenSP = u(r, 0.75, 0.85), u(r, 0.4, 0.7)
		tail := []float64{2, 2.5, 3}[r.IntN(3)]
		s.Passes = math.Round(u(r, 10, 14))
		m := []float64{u(r, 1.06, 1.09), u(r, 0.91, 0.94)}[r.IntN(2)]
		s.Steps = []synth.Step{{AtSuperPass: s.Passes - tail, Mult: m}}
		add("stair_small", "staircase", s)
	}
	if err := synth.GenerateSuite(flag.Arg(0), runs, true, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %d runs into %s\n", len(runs), flag.Arg(0))
}
