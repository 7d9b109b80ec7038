package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

func runSynth(fs *pflag.FlagSet) commandBody {
	out := fs.String("out", "", "output directory (required)")
	preset := fs.String("preset", "", "write one run of this preset ("+strings.Join(synth.Presets(), ", ")+")")
	runs := fs.Int("runs", 0, "write a mixed corpus of N runs cycling over --presets")
	presets := fs.StringSlice("presets", nil, "comma list of presets for --runs; repeatable, the lists join (default: all)")
	seed := fs.Uint64("seed", 1, "random seed (same seed, same bytes)")
	concurrency := fs.Int("concurrency", 0, "override the preset's concurrency")
	datasetSize := fs.Int("dataset-size", 0, "override the preset's dataset size")
	rate := fs.Float64("output-tok-s", 0, "override the preset's service rate (output tok/s)")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if *out == "" || (*preset == "") == (*runs == 0) {
			fs.Usage()
			return usagef("synth needs --out and exactly one of --preset or --runs")
		}
		if *runs > 0 {
			dirs, err := synth.GenerateCorpus(*out, *runs, *seed, *presets)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %d runs under %s\n", len(dirs), *out)
			return nil
		}
		spec, err := synth.PresetSpec(*preset, *seed)
		if err != nil {
			return usageError{err}
		}
		if *concurrency > 0 {
			spec.Concurrency = *concurrency
		}
		if *datasetSize > 0 {
			spec.DatasetSize = *datasetSize
		}
		if *rate > 0 {
			spec.OutputTokS = *rate
		}
		if _, err := synth.Generate(*out, spec); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (truth in %s)\n", *out, filepath.Join(*out, "truth.json"))
		return nil
	}
}
