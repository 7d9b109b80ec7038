package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sweep"
	"github.com/steadysweep/steadysweep/sweep/calibrate"
)

// demoPresets is the embedded default corpus: the long-context presets,
// whose plateaus last long enough for the min-duration gate (steady, level
// shifts, a short tail, drifts, Poisson arrivals), and three runs whose
// truth holds no full steady state — fill and drain only, a partial
// dataset, a truncated log — so every verdict is on the table.
func demoPresets() []string {
	return append(synth.LongContextPresets(), "ramp_only", "partial_dataset", "truncated")
}

// demoMarker is the file demo leaves in a directory it made; only such a
// directory (or a new or empty one) is ever written or cleared by demo.
const demoMarker = ".steadysweep-demo"

// demoDirs are the demo's outputs inside --out: all it ever replaces.
type demoDirs struct{ out, corpus, sweep, cache, plot string }

func newDemoDirs(out string) demoDirs {
	return demoDirs{out: out, corpus: filepath.Join(out, "corpus"), sweep: filepath.Join(out, "sweep"),
		cache: filepath.Join(out, "cache"), plot: filepath.Join(out, "analyze.png")}
}

func (d demoDirs) owned() []string { return []string{d.corpus, d.sweep, d.cache, d.plot} }

// demoStep is one command of the demo, shown as a shell line and run
// in-process; args are computed when the step runs (a step may name what
// an earlier one made); after, if set, explains its output.
type demoStep struct {
	title string
	args  func() ([]string, error)
	after func(ctx context.Context, w io.Writer) error
}

// fixedArgs is a step's args known in advance.
func fixedArgs(args ...string) func() ([]string, error) {
	return func() ([]string, error) { return args, nil }
}

// demoSteps is the demo's story: synthesize, analyse one run, sweep them
// all, calibrate and recommend.
func demoSteps(d demoDirs, runs int) []demoStep {
	return []demoStep{
		{title: "1. synthesize runs with planted truth (truth.json: what to find)",
			args: fixedArgs(append([]string{"synth", "--out", d.corpus, "--runs", fmt.Sprint(runs), "--seed", "1"},
				presetArgs(demoPresets(), demoColumns-len("    --presets ")-len(" \\"))...)...)},
		{title: "2. analyse one run: the report a newcomer comes for, and its plot",
			args: func() ([]string, error) {
				run, err := firstRun(d.corpus)
				if err != nil {
					return nil, err
				}
				return []string{"analyze", run, "--tokenizer", "words", "--cache-dir", d.cache, "--plot", d.plot}, nil
			},
			after: func(_ context.Context, w io.Writer) error {
				_, err := fmt.Fprintf(w, "\nplot: %s\n  %s\n", d.plot, wrapWords(
					"TPOT and TTFT per super-pass: warmup shaded, the window highlighted, plateaus outlined", "  ", demoColumns))
				return err
			}},
		{title: "3. sweep every run: presets default, reference, total × warmup band × gate",
			args: fixedArgs("sweep", d.corpus, "-o", d.sweep, "--tokenizer", "words", "--cache-dir", d.cache,
				"--preset", "default,reference,total", "--set", "warmup_band=0.03,0.05", "--set", "min_duration=true,false"),
			after: func(_ context.Context, w io.Writer) error {
				_, err := fmt.Fprintf(w, "Parquet rows, one per run × config ('steadysweep schema' lists the columns):\n"+
					"  %s/rows/*.parquet\nTry:\n  duckdb -c \"SELECT config_id, status, verdict, count(*)\n"+
					"    FROM read_parquet('%s/rows/*.parquet') GROUP BY ALL\"\n",
					d.sweep, d.sweep)
				return err
			}},
		{title: "4. score every config against the planted truth and recommend one",
			args: fixedArgs("calibrate", d.sweep),
			after: func(ctx context.Context, w io.Writer) error {
				return writeRecommendation(ctx, w, d.sweep)
			}},
	}
}

// presetArgs is synth's --presets for names, the list split over as many
// flags as keep each within width columns (the lists join).
func presetArgs(names []string, width int) []string {
	var args []string
	for _, n := range names {
		if last := len(args) - 1; last > 0 && len(args[last])+1+len(n) <= width {
			args[last] += "," + n
			continue
		}
		args = append(args, "--presets", n)
	}
	return args
}

// firstRun is the first run of the demo's corpus (its first preset, a
// long-context steady run).
func firstRun(corpus string) (string, error) {
	runs, err := filepath.Glob(filepath.Join(corpus, "0000_*"))
	if err != nil || len(runs) == 0 {
		return "", fmt.Errorf("demo: no run 0000_* under %s", corpus)
	}
	return runs[0], nil
}

// writeRecommendation says which config the calibration recommends and
// the command lines that use it.
func writeRecommendation(ctx context.Context, w io.Writer, sweepDir string) error {
	rep, err := calibrate.Calibrate(ctx, calibrate.Options{Out: sweepDir, ReportPath: "-", PlotPath: "-", ParquetPath: "-"})
	if err != nil {
		return err
	}
	best := rep.Config(rep.Recommended)
	if best == nil {
		_, err := fmt.Fprintln(w, "\nno config could be recommended (no run was scored)")
		return err
	}
	gate := "on (a window shorter than the min-duration floor is insufficient_duration, not a steady state)"
	if !best.MinDuration {
		gate = "off (a window shorter than the min-duration floor is still reported, as a best effort)"
	}
	preset, sets := nearestPreset(best.Params)
	sweepLine := append([]string{"sweep", "ARCHIVE", "-o", "OUT", "--preset", preset}, setArgs(sets)...)
	what := fmt.Sprintf("the %s preset with %d parameter(s) changed", preset, len(sets))
	if len(sets) == 0 {
		what = "exactly the " + preset + " preset"
	}
	_, err = fmt.Fprintf(w, "\n%s\n", wrapWords(fmt.Sprintf("recommended: %s (config_id %s): %s; the min-duration gate %s",
		best.Label, best.ConfigID, what, gate), "  ", demoColumns))
	if err != nil {
		return err
	}
	if flags, missing := analyzeArgs(preset, best.Params, sets); len(missing) > 0 {
		_, err = fmt.Fprintf(w, "%s\n", wrapWords(fmt.Sprintf("one run: analyze has no flag for %s; sweep the run alone with the line below",
			strings.Join(missing, ", ")), "  ", demoColumns))
	} else {
		_, err = fmt.Fprintf(w, "%s\n", shellLines("  one run: steadysweep", append([]string{"analyze", "RUN"}, flags...), demoColumns))
	}
	if err == nil {
		_, err = fmt.Fprintf(w, "%s\n  the full calibration: %s\n", shellLines("  archives: steadysweep", sweepLine, demoColumns),
			filepath.Join(sweepDir, "calibration.md"))
	}
	return err
}

// nearestPreset is the sweep preset a config is best written against and
// the parameters that differ from it, in core.Names order. A preset of the
// config's own compat and method comes first — the compat decides which
// defaults analyze starts from and the method which detector runs, so
// neither is a detail to --set over another preset — then the fewest
// differing parameters, then documentation order.
func nearestPreset(params map[string]string) (string, [][2]string) {
	best, bestKin, bestDiff := "", false, [][2]string(nil)
	for _, name := range sweep.PresetNames() {
		p, err := sweep.Preset(name)
		if err != nil {
			continue
		}
		var diff [][2]string
		for _, n := range core.Names() {
			if v, _ := p.Get(n); v != params[n] {
				diff = append(diff, [2]string{n, params[n]})
			}
		}
		kin := string(p.Compat) == params["compat"] && string(p.Method) == params["method"]
		if best == "" || (kin && !bestKin) || (kin == bestKin && len(diff) < len(bestDiff)) {
			best, bestKin, bestDiff = name, kin, diff
		}
	}
	return best, bestDiff
}

// analyzeArgs are the analyze flags that make params from preset's
// parameters plus sets (nearestPreset's) — a parameter's own flag where it
// has one, else --set name=value — and the parameters analyze cannot set
// over the preset (then there is no analyze line: a line that silently
// dropped one would run another config). Analyze starts from the default
// or the reference preset and runs the steady method only.
func analyzeArgs(preset string, params map[string]string, sets [][2]string) (args, missing []string) {
	switch preset {
	case "default":
	case "reference":
		args = []string{"--compat", "reference"}
	default:
		return nil, []string{"method " + params["method"]}
	}
	flags := analyzeParamFlags()
	for _, p := range sets {
		switch name, v := p[0], p[1]; {
		case name == "min_duration":
			args = append(args, "--no-min-duration="+strconv.FormatBool(v == "false"))
		case name == "warmup_mode" || name == "warmup_fixed":
			w := "auto"
			if params["warmup_mode"] == core.WarmupFixed.String() {
				w = params["warmup_fixed"]
			} else if name == "warmup_fixed" {
				missing = append(missing, name+" with warmup_mode "+params["warmup_mode"])
				continue
			}
			if !slices.Contains(args, "--warmup") {
				args = append(args, "--warmup", w)
			}
		case name != "compat" && name != "method" && flags[name] != "" && !(name == "min_dur_floor_s" && v == "0"):
			args = append(args, flags[name], v)
		case name != "compat" && name != "method":
			args = append(args, "--set", name+"="+v)
		default:
			missing = append(missing, name)
		}
	}
	return args, missing
}

// setArgs are sweep --set flags for params.
func setArgs(params [][2]string) []string {
	var args []string
	for _, p := range params {
		args = append(args, "--set", p[0]+"="+p[1])
	}
	return args
}

// runDemo is the main job on an embedded default: synthesize a corpus
// with planted truth, analyse one run, sweep them all over a small grid,
// score each config against the truth, recommend one, and say where
// everything went.
func runDemo(fs *pflag.FlagSet) commandBody {
	out := fs.String("out", "demo-out", "directory for the corpus, the sweep and the calibration: created, or one an earlier demo made (its outputs are replaced); any other non-empty directory is refused")
	runs := fs.Int("runs", 2*len(demoPresets()), "number of synthetic runs (cycling over the demo's presets)")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if *runs < 1 {
			return usagef("demo --runs: %d; need at least 1", *runs)
		}
		start := time.Now()
		d := newDemoDirs(*out)
		if err := prepareDemoDir(d); err != nil {
			return err
		}
		for _, s := range demoSteps(d, *runs) {
			args, err := s.args()
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "\n== %s\n%s\n", s.title, shellLines("$ steadysweep", args, demoColumns))
			if err := run(ctx, args, stdout, stderr); err != nil {
				return fmt.Errorf("demo step %q: %w", s.title, err)
			}
			if s.after != nil {
				if err := s.after(ctx, stdout); err != nil {
					return fmt.Errorf("demo step %q: %w", s.title, err)
				}
			}
		}
		fmt.Fprintf(stdout, "\ndemo done in %.1f s; everything is under %s\n", time.Since(start).Seconds(), d.out)
		return nil
	}
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
	marker := "made by 'steadysweep demo': a later demo --out here replaces corpus/, sweep/, cache/ and analyze.png and nothing else\n"
	if err := os.WriteFile(filepath.Join(d.out, demoMarker), []byte(marker), 0o644); err != nil {
		return fmt.Errorf("demo --out: %w", err)
	}
	return nil
}

// demoColumns is the width the demo's own lines fit: an 80-column
// terminal.
const demoColumns = 80

// shellLines is args as a shell command line after prompt (shellJoin),
// broken before a flag into continuation lines (" \\", then four spaces)
// of at most width columns where the words allow: still one command when
// pasted. A flag stays on the line of its value.
func shellLines(prompt string, args []string, width int) string {
	var b strings.Builder
	b.WriteString(prompt)
	col := utf8.RuneCountInString(prompt)
	for i, a := range args {
		word := shellJoin([]string{a})
		if i > 0 && strings.HasPrefix(a, "-") {
			n := 1 + utf8.RuneCountInString(word)
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				n += 1 + utf8.RuneCountInString(shellJoin(args[i+1:i+2]))
			}
			if col+n+2 > width {
				b.WriteString(" \\\n   ")
				col = 3
			}
		}
		b.WriteByte(' ')
		b.WriteString(word)
		col += 1 + utf8.RuneCountInString(word)
	}
	return b.String()
}

// wrapWords breaks text between words into lines of at most width
// columns (a longer word stands alone), the lines after the first
// indented.
func wrapWords(text, indent string, width int) string { return indentWords(text, "", indent, width) }

// indentWords is wrapWords with the first line indented by first.
func indentWords(text, first, indent string, width int) string {
	var b strings.Builder
	b.WriteString(first)
	col := utf8.RuneCountInString(first)
	for i, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case col+1+n > width:
			b.WriteString("\n" + indent)
			col = utf8.RuneCountInString(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	return b.String()
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
