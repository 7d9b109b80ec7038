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
// detector must tell apart.
var demoPresets = "clean_ramp,late_staircase,drift_up,ramp_only,noisy,partial_dataset,poisson_steady,truncated"

// runDemo is the main job on an embedded default: synthesize a small
// corpus with planted truth, sweep it over a small grid, score each config
// against the truth, and say where everything went.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "demo-out", "directory for the corpus, the sweep and the calibration (replaced)")
	runs := fs.Int("runs", 16, "number of synthetic runs")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	corpus, sweepOut := filepath.Join(*out, "corpus"), filepath.Join(*out, "sweep")
	cacheDir := filepath.Join(*out, "cache")

	steps := []struct {
		title string
		args  []string
	}{
		{"1. synthesize runs with planted truth", []string{"synth", "--out", corpus, "--runs", fmt.Sprint(*runs),
			"--presets", demoPresets, "--seed", "1"}},
		{"2. sweep them: presets default, reference and the whole-run baseline × warmup band × min-duration gate", []string{"sweep", corpus,
			"-o", sweepOut, "--tokenizer", "words", "--cache-dir", cacheDir,
			"--preset", "default,reference,total", "--set", "warmup_band=0.03,0.05", "--set", "min_duration=true,false"}},
		{"3. score every config against the planted truth", []string{"calibrate", sweepOut}},
	}
	for _, s := range steps {
		fmt.Fprintf(stdout, "\n== %s\n$ steadysweep %s\n", s.title, shellJoin(s.args))
		if err := run(ctx, s.args, stdout, stderr); err != nil {
			return fmt.Errorf("demo step %q: %w", s.title, err)
		}
	}
	fmt.Fprintf(stdout, "\nParquet rows: %s/rows/*.parquet (one row per run × config; 'steadysweep schema' lists the columns)\n", sweepOut)
	fmt.Fprintf(stdout, "Try: duckdb -c \"SELECT config_id, status, verdict, count(*) FROM read_parquet('%s/rows/*.parquet') GROUP BY ALL\"\n", sweepOut)
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
