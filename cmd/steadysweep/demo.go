package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"
)

// demoPresets is the embedded default corpus: one run of each shape the
// detector must tell apart, the steady-capable ones long enough (20–25 min
// of issue time, synth.LongContextPresets) for the min-duration gate.
var demoPresets = "long_context_clean,long_context_staircase,long_context_short_tail,long_context_drift_up,long_context_drift_down,long_context_poisson,ramp_only,partial_dataset,truncated"

// demoMarker is the file demo leaves in a directory it made; only such a
// directory (or a new or empty one) is ever written or cleared by demo.
const demoMarker = ".steadysweep-demo"

// demoDirs are the demo's outputs inside --out: all it ever replaces.
type demoDirs struct{ out, corpus, sweep, cache string }

func newDemoDirs(out string) demoDirs {
	return demoDirs{out: out, corpus: filepath.Join(out, "corpus"), sweep: filepath.Join(out, "sweep"),
		cache: filepath.Join(out, "cache")}
}

func (d demoDirs) owned() []string { return []string{d.corpus, d.sweep, d.cache} }

// demoStep is one command of the demo, shown as a shell line and run
// in-process; after, if set, explains its output.
type demoStep struct {
	title string
	args  []string
	after func(w io.Writer)
}

// demoSteps is the demo's story.
func demoSteps(d demoDirs, runs int) []demoStep {
	return []demoStep{
		{title: "1. synthesize runs with planted truth", args: []string{"synth", "--out", d.corpus, "--runs", fmt.Sprint(runs),
			"--presets", demoPresets, "--seed", "1"}},
		{title: "2. sweep them: presets default, reference and the whole-run baseline × warmup band × min-duration gate",
			args: []string{"sweep", d.corpus, "-o", d.sweep, "--tokenizer", "words", "--cache-dir", d.cache,
				"--preset", "default,reference,total", "--set", "warmup_band=0.03,0.05", "--set", "min_duration=true,false"}},
		{title: "3. score every config against the planted truth", args: []string{"calibrate", d.sweep},
			after: func(w io.Writer) {
				fmt.Fprintf(w, "\nParquet rows: %s/rows/*.parquet (one row per run × config; 'steadysweep schema' lists the columns)\n", d.sweep)
				fmt.Fprintf(w, "Try: duckdb -c \"SELECT config_id, status, verdict, count(*) FROM read_parquet('%s/rows/*.parquet') GROUP BY ALL\"\n", d.sweep)
			}},
	}
}

// runDemo is the main job on an embedded default: synthesize a small
// corpus with planted truth, sweep it over a small grid, score each config
// against the truth, and say where everything went.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	out := fs.String("out", "demo-out", "directory for the corpus, the sweep and the calibration: created, or one an earlier demo made (its outputs are replaced); any other non-empty directory is refused")
	runs := fs.Int("runs", 16, "number of synthetic runs")
	if helped, err := parseFlags(fs, "demo", args, stdout, stderr); helped || err != nil {
		return err
	}
	d := newDemoDirs(*out)
	if err := prepareDemoDir(d); err != nil {
		return err
	}
	for _, s := range demoSteps(d, *runs) {
		fmt.Fprintf(stdout, "\n== %s\n$ steadysweep %s\n", s.title, shellJoin(s.args))
		if err := run(ctx, s.args, stdout, stderr); err != nil {
			return fmt.Errorf("demo step %q: %w", s.title, err)
		}
		if s.after != nil {
			s.after(stdout)
		}
	}
	return nil
}

// prepareDemoDir makes d.out ready for a fresh demo without ever removing
// what demo did not make: a missing directory is created, an empty one
// adopted, one holding demo's marker has only demo's own outputs removed;
// anything else (a file, a symlink, a non-empty directory such as ..) is
// refused.
func prepareDemoDir(d demoDirs) error {
	st, err := os.Lstat(d.out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(d.out, 0o755); err != nil {
			return fmt.Errorf("demo --out: %w", err)
		}
	case err != nil:
		return fmt.Errorf("demo --out: %w", err)
	case !st.IsDir():
		return usagef("demo --out %s: not a directory (demo writes only into a directory it creates)", d.out)
	default:
		entries, err := os.ReadDir(d.out)
		if err != nil {
			return fmt.Errorf("demo --out: %w", err)
		}
		if len(entries) > 0 {
			if m, err := os.Lstat(filepath.Join(d.out, demoMarker)); err != nil || !m.Mode().IsRegular() {
				return usagef("demo --out %s: directory is not empty and was not made by demo (no %s in it; one an older steadysweep made: remove it, e.g. make clean); name a new directory",
					d.out, demoMarker)
			}
		}
		for _, p := range d.owned() {
			if err := os.RemoveAll(p); err != nil {
				return fmt.Errorf("demo --out: clear the previous demo: %w", err)
			}
		}
	}
	marker := "made by 'steadysweep demo': a later demo --out here replaces corpus/, sweep/ and cache/ and nothing else\n"
	if err := os.WriteFile(filepath.Join(d.out, demoMarker), []byte(marker), 0o644); err != nil {
		return fmt.Errorf("demo --out: %w", err)
	}
	return nil
}

// shellJoin quotes args for display as a shell command line.
func shellJoin(args []string) string {
	var b []byte
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		if a == "" || containsShellSpecial(a) {
			b = append(b, '\'')
			b = append(b, a...)
			b = append(b, '\'')
		} else {
			b = append(b, a...)
		}
	}
	return string(b)
}

func containsShellSpecial(s string) bool {
	for _, r := range s {
		switch r {
		case ' ', '\t', '\'', '"', '$', '*', '?', ';', '&', '|', '(', ')', '<', '>', '\\', '`':
			return true
		}
	}
	return false
}
