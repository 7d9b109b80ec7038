package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
)

// Corpus sweep ranges: output service rates log-uniform over the seed design's
// calibration sweep (~1k to ~3.3M output tok/s) and concurrency multipliers
// applied to each preset's own C.
const (
	corpusMinTokS  = 1e3
	corpusMaxTokS  = 3.3e6
	streamCorpus   = 9
	corpusOutScale = 0.5 // halves answer lengths so 200 runs stay a few hundred MB
)

var corpusConcurrencyMults = [...]float64{0.5, 1, 2, 4}

// GenerateCorpus writes n runs into subdirectories of dir, cycling over presets
// (all presets when empty), each with its own seed, a service rate drawn
// log-uniformly from 1k to 3.3M output tok/s and a concurrency of 0.5x–4x the
// preset's. Subdirectories are named like "0007_late_staircase_c64". It returns
// their paths in order. The same arguments write the same bytes.
func GenerateCorpus(dir string, n int, seed uint64, presetNames []string) ([]string, error) {
	if n < 0 {
		return nil, fmt.Errorf("synth: corpus size %d < 0", n)
	}
	if len(presetNames) == 0 {
		presetNames = Presets()
	}
	for _, name := range presetNames {
		if _, ok := presetByName(name); !ok {
			_, err := PresetSpec(name, 0)
			return nil, err
		}
	}
	rng := rand.New(rand.NewPCG(seed, streamCorpus))
	var paths []string
	for i := 0; i < n; i++ {
		name := presetNames[i%len(presetNames)]
		spec, err := PresetSpec(name, rng.Uint64())
		if err != nil {
			return paths, err
		}
		u, mult := rng.Float64(), corpusConcurrencyMults[rng.IntN(len(corpusConcurrencyMults))]
		spec = sweepSpec(spec, corpusMinTokS*math.Pow(corpusMaxTokS/corpusMinTokS, u), mult)
		path := filepath.Join(dir, fmt.Sprintf("%04d_%s_c%d", i, name, spec.Concurrency))
		if _, err := Generate(path, spec); err != nil {
			return paths, fmt.Errorf("synth: corpus run %d (%s): %w", i, name, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// sweepSpec moves a preset to another service rate and concurrency while
// keeping what the preset plants: ramp_only keeps n_samples = C, offline keeps
// MaxBatch = C, agentic keeps C below the trajectory count.
func sweepSpec(spec Spec, tokS, mult float64) Spec {
	c := max(1, int(math.Round(float64(spec.Concurrency)*mult)))
	spec.OutputTokS = tokS
	if spec.OutputScale == 0 {
		spec.OutputScale = 1
	}
	spec.OutputScale *= corpusOutScale
	switch {
	case spec.Preset == "ramp_only":
		spec.Concurrency = c
		spec.DatasetSize = max(1, c/8)
		spec.Passes = float64(c) / float64(spec.DatasetSize)
	case spec.Mode == ModeOffline:
		spec.Concurrency, spec.MaxBatch = c, c
	case spec.Mode == ModeAgentic:
		spec.Concurrency = min(c, max(1, spec.trajectories()/2))
	default:
		spec.Concurrency = c
	}
	return spec
}
