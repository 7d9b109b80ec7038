package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/compare"
	"github.com/steadysweep/steadysweep/sweep"
)

// compareFlags are the flags of `steadysweep compare`.
type compareFlags struct {
	loadFlags
	preset   string
	sets     []string
	jsonPath string
}

func runCompare(fs *pflag.FlagSet) commandBody {
	var f compareFlags
	f.loadFlags.register(fs)
	fs.StringVar(&f.preset, "preset", "default", "parameter set both runs are analysed with (runs only)")
	fs.StringArrayVar(&f.sets, "set", nil, "override a parameter of the preset: name=value (runs only); repeatable")
	fs.StringVar(&f.jsonPath, "json", "", "also write the comparison as JSON (keys a, b, diff) to `FILE`; - for stdout, in place of the text")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 2 {
			fs.Usage()
			return usagef("compare needs two runs or two sweep output directories, got %d arguments", fs.NArg())
		}
		a, b := fs.Arg(0), fs.Arg(1)
		sweepA, sweepB := compare.IsSweepOutput(a), compare.IsSweepOutput(b)
		if sweepA != sweepB {
			return usagef("compare %s with %s: one is a sweep output directory (holding rows/), the other is not", a, b)
		}
		var report interface {
			WriteText(io.Writer) error
			JSON() pyjson.Object
		}
		if sweepA {
			if fs.Changed("preset") || len(f.sets) > 0 {
				return usagef("--preset and --set apply to runs; sweep outputs are compared pair by pair as swept")
			}
			sa, err := compare.ReadSweep(ctx, a)
			if err != nil {
				return err
			}
			sb, err := compare.ReadSweep(ctx, b)
			if err != nil {
				return err
			}
			report = compare.CompareSweeps(sa, sb)
		} else {
			c, err := f.compareRuns(ctx, a, b, stderr)
			if err != nil {
				return err
			}
			report = &c
		}
		if f.jsonPath != "-" {
			if err := report.WriteText(stdout); err != nil {
				return err
			}
		}
		if f.jsonPath != "" {
			err := writeOutput(f.jsonPath, stdout, func(w io.Writer) error {
				if err := pyjson.Write(w, report.JSON()); err != nil {
					return err
				}
				_, err := io.WriteString(w, "\n")
				return err
			})
			if err != nil {
				return fmt.Errorf("write --json: %w", err)
			}
		}
		return nil
	}
}

// compareRuns analyses both runs with the flags' parameter set and
// compares them.
func (f *compareFlags) compareRuns(ctx context.Context, a, b string, stderr io.Writer) (compare.Comparison, error) {
	configs, err := sweep.Grid{}.Configs([]string{f.preset}, f.sets)
	if err != nil {
		return compare.Comparison{}, usageError{err}
	}
	if len(configs) != 1 {
		return compare.Comparison{}, usagef("compare analyses both runs with one parameter set; --preset and --set give %d", len(configs))
	}
	if err := f.loadFlags.check(); err != nil {
		return compare.Comparison{}, err
	}
	var sides [2]compare.Side
	loader := f.loadFlags.loader(stderr)
	for i, path := range []string{a, b} {
		loaded, err := loader.LoadRun(ctx, path)
		if err != nil {
			return compare.Comparison{}, loadError(withResolveHint(err, "pass a run directory holding events.jsonl, the events file itself, or a sweep output directory"))
		}
		res, err := core.NewRun(loaded.Samples, loaded.Info).Analyze(configs[0])
		if err != nil {
			return compare.Comparison{}, fmt.Errorf("analyze %s: %w", loaded.Run.EventsPath, err)
		}
		sides[i] = compare.FromResult(path, res)
	}
	return compare.Compare(sides[0], sides[1]), nil
}
