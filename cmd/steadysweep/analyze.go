package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/core"
)

// analyzeFlags are the flags of `steadysweep analyze`; every derived
// setting has an override.
type analyzeFlags struct {
	loadFlags
	compat       string
	profile      string
	superpass    int
	warmup       string
	warmupBand   float64
	warmupDriver string
	covBounds    string
	windowSizes  string
	trendGate    string
	noMinDur     bool
	jsonPath     string
	pointYAML    bool
	writeReport  bool
	plotPath     string
	augment      string
	augmentOut   string
}

func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f analyzeFlags
	fs := pflag.NewFlagSet("analyze", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: steadysweep analyze RUN_DIR|events.jsonl[.gz|.zst] [flags]")
		fmt.Fprintln(stderr, "\nWith no flags the tokenizer, dataset size and profile come from the run's sidecars.")
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nexit codes: 0 result produced (found or not), 1 input could not be analysed, 2 usage error")
	}
	f.loadFlags.register(fs)
	fs.StringVar(&f.compat, "compat", "steadysweep", "detector behaviour: steadysweep, or reference (exactly the reference at 40b78bfe)")
	fs.StringVar(&f.profile, "profile", "", "workload profile: concurrency, poisson, offline, agentic, unknown (default from config.yaml)")
	fs.IntVar(&f.superpass, "superpass-size", 0, "super-pass size (default: the dataset size)")
	fs.StringVar(&f.warmup, "warmup", "auto", "warmup: auto, or a fixed number of super-passes")
	fs.Float64Var(&f.warmupBand, "warmup-band", 0.05, "auto-warmup band (relative)")
	fs.StringVar(&f.warmupDriver, "warmup-driver", "tpot_p50", "metric driving auto warmup")
	fs.StringVar(&f.covBounds, "cov-bounds", "", "comma list of CoV bounds (default from the profile)")
	fs.StringVar(&f.windowSizes, "window-sizes", "4,6,8", "comma list of diagnostic window sizes")
	fs.StringVar(&f.trendGate, "trend-gate", "mk_hamed_rao", "trend gate: "+strings.Join(core.TrendGateChoices, ", "))
	fs.BoolVar(&f.noMinDur, "no-min-duration", false, "do not enforce the minimum-duration gate")
	fs.StringVar(&f.jsonPath, "json", "", "write the JSON result to `FILE`")
	fs.BoolVar(&f.pointYAML, "point-yaml", false, "print only the steady_state: block for a submission's point.yaml")
	fs.BoolVar(&f.writeReport, "write-report", false, "write steady_state.json and steady_state.txt beside the events file")
	fs.StringVar(&f.plotPath, "plot", "", "write a PNG plot of the run to `FILE`")
	fs.StringVar(&f.augment, "augment", "", "add the steady_state block and early-stopping maps to this result_summary.json (with -o)")
	fs.StringVarP(&f.augmentOut, "output", "o", "", "where --augment writes the augmented summary")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usagef("analyze needs exactly one RUN_DIR or events file, got %d", fs.NArg())
	}
	if (f.augment == "") != (f.augmentOut == "") {
		return usagef("--augment SUMMARY and -o FILE go together")
	}
	params, err := f.params()
	if err != nil {
		return err
	}

	run, err := columnar.ResolveRun(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("%w (pass a run directory holding events.jsonl, or the events file itself)", err)
	}
	warnings := stderr
	if params.Compat == "reference" {
		warnings = io.Discard // the reference prints no ingest warnings
	}
	loaded, err := f.loadFlags.load(ctx, run, warnings)
	if err != nil {
		return err
	}
	res, err := core.Analyze(&loaded.samples, loaded.info, params)
	if errors.Is(err, core.ErrSuperpassSize) {
		return usageError{err}
	}
	if err != nil {
		return fmt.Errorf("analyze %s: %w", run.EventsPath, err)
	}
	if c := res.Caveat(); c != "" {
		fmt.Fprintf(stderr, "%s\n\n", c)
	}

	if f.pointYAML {
		_, err := io.WriteString(stdout, res.SubmissionYAML())
		return err
	}
	// text goes to files (no colour ever); shown to stdout, with colour
	// when stdout is a terminal.
	text, shown := res.ReferenceText(), ""
	if params.Compat != "reference" {
		if text, err = reportText(res, loaded, false); err != nil {
			return err
		}
		if colorWanted(stdout) {
			if shown, err = reportText(res, loaded, true); err != nil {
				return err
			}
		}
	}
	if shown == "" {
		shown = text
	}
	if _, err := io.WriteString(stdout, shown); err != nil {
		return err
	}
	if f.jsonPath != "" {
		if err := writeFileAtomic(f.jsonPath, res.ReferenceJSON()); err != nil {
			return fmt.Errorf("write --json: %w", err)
		}
		if res.Path == "natl" {
			fmt.Fprintf(stderr, "wrote %s\n", f.jsonPath)
		} else {
			fmt.Fprintf(stderr, "\nwrote %s\n", f.jsonPath)
		}
	}
	if f.writeReport {
		if err := writeReportFiles(run.Dir, res, text, loaded.info, stderr); err != nil {
			return fmt.Errorf("--write-report: %w", err)
		}
	}
	if f.augment != "" {
		summary, err := os.ReadFile(f.augment)
		if err != nil {
			return fmt.Errorf("--augment: %w", err)
		}
		out, err := res.AugmentSummary(summary)
		if err != nil {
			return fmt.Errorf("--augment %s: %w", f.augment, err)
		}
		if err := writeFileAtomic(f.augmentOut, out); err != nil {
			return fmt.Errorf("--augment: %w", err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", f.augmentOut)
	}
	if f.plotPath != "" {
		if err := writePlot(f.plotPath, fs.Arg(0), res); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", f.plotPath)
	}
	return nil
}

// params turns the flags into detector parameters, validated.
func (f *analyzeFlags) params() (core.Params, error) {
	var p core.Params
	switch f.compat {
	case "reference":
		p = core.ReferenceParams()
	case "steadysweep":
		p = core.DefaultParams()
	default:
		return p, usagef("--compat: %q is not one of steadysweep, reference", f.compat)
	}
	p.Profile = f.profile
	p.SuperpassSize = f.superpass
	switch w := strings.TrimSpace(f.warmup); w {
	case "auto":
		p.WarmupMode = "auto"
	default:
		n, err := strconv.Atoi(w)
		if err != nil {
			return p, usagef("--warmup: %q is neither auto nor an integer", f.warmup)
		}
		p.WarmupMode, p.WarmupFixed = "fixed", n
	}
	p.WarmupBand = f.warmupBand
	p.WarmupDriver = f.warmupDriver
	p.TrendGate = f.trendGate
	p.MinDuration = !f.noMinDur
	if err := p.Set("cov_bounds", f.covBounds); err != nil {
		return p, usageError{fmt.Errorf("--cov-bounds: %w", err)}
	}
	if err := p.Set("window_sizes", f.windowSizes); err != nil {
		return p, usageError{fmt.Errorf("--window-sizes: %w", err)}
	}
	if len(p.WindowSizes) == 0 {
		p.WindowSizes = []int{4, 6, 8}
	}
	if err := p.Validate(); err != nil {
		return p, usageError{err}
	}
	return p, nil
}

// writeReportFiles writes steady_state.json and steady_state.txt beside the
// events file, and run_meta.json with the dataset size when the run has
// none (an existing one is never touched, nor is the events file), each
// atomically.
func writeReportFiles(dir string, res *core.Result, text string, info core.RunInfo, stderr io.Writer) error {
	files := []struct {
		name string
		data []byte
	}{{"steady_state.json", res.ReferenceJSON()}, {"steady_state.txt", []byte(text)}}
	// Only endpoints runs have a dataset size to record (the others' is a
	// default super-pass size, and run_meta.json is no sidecar of theirs).
	endpoints := columnar.Format(info.SourceFormat).HasDatasetPass() || info.SourceFormat == ""
	if _, err := os.Stat(filepath.Join(dir, "run_meta.json")); errors.Is(err, os.ErrNotExist) && info.DatasetSize > 0 && endpoints {
		files = append(files, struct {
			name string
			data []byte
		}{"run_meta.json", []byte(fmt.Sprintf("{\"dataset_size\": %d}\n", info.DatasetSize))})
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := writeFileAtomic(p, f.data); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s\n", p)
	}
	return nil
}
