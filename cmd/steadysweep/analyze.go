package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
	"github.com/steadysweep/steadysweep/sinks/reftext"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/submission"
	"github.com/steadysweep/steadysweep/sweep"
)

// analyzeFlags are the flags of `steadysweep analyze`; every derived
// setting has an override.
type analyzeFlags struct {
	loadFlags
	compat string
	// plain are the flags that each set one parameter as its text
	// (registerParamFlags: built from the parameter table).
	plain       []*paramFlag
	warmup      string
	noMinDur    bool
	minDurFloor string
	jsonPath    string
	pointYAML   bool
	writeReport bool
	plotPath    string
	htmlPath    string
	augment     string
	augmentOut  string
	// sets are the --set name=value overrides, applied last.
	sets []string
	// given says whether the user set a flag: only those override the
	// compat's defaults (--compat reference starts from the reference's).
	given func(name string) bool
}

func runAnalyze(fs *pflag.FlagSet) commandBody {
	f := new(analyzeFlags)
	f.register(fs)
	return f.run
}

// run is `steadysweep analyze` once fs has parsed f's flags.
func (f *analyzeFlags) run(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
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

	if err := f.loadFlags.check(); err != nil {
		return err
	}
	warnings := stderr
	if params.Compat == core.CompatReference {
		warnings = io.Discard // the reference prints no ingest warnings
	}
	if f.given("superpass-size") {
		f.loadFlags.superpassSize = params.SuperpassSize
	}
	// A cold load's cache entry is written while the run is analysed,
	// and is whole on disk before the command returns.
	f.loadFlags.storeLater = true
	loaded, err := f.loadFlags.loader(warnings).LoadRun(ctx, fs.Arg(0))
	if err != nil {
		return loadError(withResolveHint(err, "pass a run directory holding events.jsonl, or the events file itself"))
	}
	defer loaded.WaitStored()
	run := loaded.Run
	cr := core.NewRun(loaded.Samples, loaded.Info)
	cr.Floats = hugeFloats
	// SIGINT/SIGTERM end the analysis and the result's lazy tables
	// (diagnostics, written by --json and --augment) mid-loop.
	cr.Stop = ctx.Err
	res, err := cr.Analyze(params)
	if errors.Is(err, core.ErrSuperpassSize) {
		return usageError{err}
	}
	if err != nil {
		return fmt.Errorf("analyze %s: %w", run.EventsPath, err)
	}
	// The diagnostic tables (read by the report, --json, --augment and
	// --write-report; not by --point-yaml) are computed on the other
	// cores while the earliest stop is searched: both only read the
	// analysis (the tables' own fields are the only ones either writes,
	// Result.Diagnostics), and on a long run they are the largest
	// phases (10,000 super-passes: ~1.1 s and ~0.15 s of CPU). Every
	// later use of res waits for them. Without an earliest stop to search
	// (no assessment: compat reference, or off the window path;
	// sweep.EarliestStop returns at once) they are computed here: a second
	// goroutine would only be waited for.
	var diag *background
	switch {
	case f.pointYAML:
	case res.Assessment == nil || res.Path != core.PathWindow:
		_, err := res.Diagnostics()
		diag = &background{err: err, waited: true}
	default:
		diag = inBackground(func() error {
			growStack8K()
			_, err := res.Diagnostics()
			return err
		})
	}
	err = sweep.EarliestStop(cr, params, res)
	if derr := diag.wait(); derr != nil && err == nil {
		return fmt.Errorf("analyze %s: diagnostics: %w", run.EventsPath, derr)
	}
	if err != nil {
		return fmt.Errorf("analyze %s: earliest stop: %w", run.EventsPath, err)
	}
	if c := res.Caveat(); c != "" {
		fmt.Fprintf(stderr, "%s\n\n", c)
	}
	if as := res.Assessment; as != nil {
		if w := as.Timing.Warning(); w != "" {
			warn(stderr, run.EventsPath+": "+w)
		}
		if as.Status == core.StatusNonStreaming || as.Status == core.StatusNoTimeline {
			warn(stderr, run.EventsPath+": "+string(as.Status)+": "+as.Reason)
		}
	}
	// The report says when the window's p90/p99 is one of its two largest
	// samples; stderr says it when no report is shown (stdout carries
	// point.yaml, JSON, a plot or a summary), so a clean run stays quiet.
	if params.Compat != core.CompatReference && (f.pointYAML || f.toStdout() != "") {
		if w := sinks.SmallWindowWarning(res); w != "" {
			warn(stderr, run.EventsPath+": "+w)
		}
	}
	if f.pointYAML {
		return submission.WritePointYAML(stdout, res)
	}
	return writeAnalysis(f, fs.Arg(0), run, loaded, res, stdout, stderr)
}

// writeAnalysis writes the outputs of one analysis: the text report on
// stdout, then the files the flags ask for.
func writeAnalysis(f *analyzeFlags, arg string, run *columnar.Run, loaded *sweep.LoadedRun, res *core.Result,
	stdout, stderr io.Writer) error {
	// The JSON file is written first, and committed (fsync, rename) on
	// the other core while the text is rendered and shown: the fsync is
	// I/O wait, as long as all the rest of a warm analyze's output.
	// Rendering stays on this goroutine (a Result is not safe for
	// concurrent use). A file that cannot be created fails at once; a
	// failed commit is reported after the report is shown.
	var jsonWritten *background
	if f.jsonPath != "" && f.jsonPath != "-" {
		out, err := atomicfile.Create(f.jsonPath)
		if err == nil {
			if err = resultjson.Write(out, res); err != nil {
				err = errors.Join(err, out.Abort())
			}
		}
		if err != nil {
			// Before the report: a --json that cannot be written is the
			// one line the user sees, not the end of a page.
			return fmt.Errorf("--json: %w", err)
		}
		jsonWritten = inBackground(out.Commit)
		defer jsonWritten.wait() // on every return: no temporary file left to a dying process
	}
	// text goes to files (no colour ever, 100 columns); shown to stdout,
	// with colour and the terminal's width when stdout is a terminal.
	var text, shown string
	var err error
	if res.Params.Compat == core.CompatReference {
		text, err = reftext.Text(res)
	} else if text, err = reportText(res, loaded, false, 0); err == nil && (colorWanted(stdout) || reportWidth(stdout) > 0) {
		shown, err = reportText(res, loaded, colorWanted(stdout), reportWidth(stdout))
	}
	if err != nil {
		return err
	}
	if shown == "" {
		shown = text
	}
	if f.toStdout() == "" { // else stdout carries that output alone
		if _, err := io.WriteString(stdout, shown); err != nil {
			return errors.Join(err, jsonWritten.wait())
		}
	}
	if f.jsonPath != "" {
		var err error
		if f.jsonPath == "-" {
			err = resultjson.Write(stdout, res)
		} else {
			err = jsonWritten.wait()
		}
		if err != nil {
			return fmt.Errorf("write --json: %w", err)
		}
		switch {
		case f.jsonPath == "-":
		case res.Path == core.PathNATL:
			fmt.Fprintf(stderr, "wrote %s\n", f.jsonPath)
		default:
			fmt.Fprintf(stderr, "\nwrote %s\n", f.jsonPath)
		}
	}
	if f.writeReport {
		if err := writeReportFiles(run, res, text, loaded.Info, stderr); err != nil {
			return fmt.Errorf("--write-report: %w", err)
		}
	}
	if f.augment != "" {
		summary, err := safeopen.ReadFile(f.augment, "--augment summaries", safeopen.LimitSummary)
		if err != nil {
			return fmt.Errorf("--augment: %w", err)
		}
		err = writeOutput(f.augmentOut, stdout, func(w io.Writer) error { return submission.Augment(w, res, summary) })
		if err != nil {
			return fmt.Errorf("--augment %s: %w", f.augment, err)
		}
		announce(stderr, f.augmentOut)
	}
	// The plot and the page are independent: one failing (a run with no
	// super-pass series has nothing to plot) does not cost the other.
	var plotErr error
	if f.plotPath != "" {
		write, _ := plotWriter(f.plotPath) // checked by params
		plotErr = writeOutput(f.plotPath, stdout, func(w io.Writer) error {
			return write(w, sinks.RunName(arg), res)
		})
		if plotErr != nil {
			plotErr = fmt.Errorf("--plot: %w", plotErr)
		} else {
			announce(stderr, f.plotPath)
		}
	}
	if f.htmlPath != "" {
		err := writeOutput(f.htmlPath, stdout, func(w io.Writer) error {
			return htmlpage.WriteRun(w, htmlpage.RunInput{Result: res, RunPath: arg, Derived: derivations(res, loaded)})
		})
		if err != nil {
			return errors.Join(plotErr, fmt.Errorf("--html: %w", err))
		}
		fmt.Fprintf(stderr, "wrote %s\n", f.htmlPath)
	}
	return plotErr
}

// background is a function running on its own goroutine.
type background struct {
	done   chan error
	err    error
	waited bool
}

func inBackground(fn func() error) *background {
	b := &background{done: make(chan error, 1)}
	go func() { b.done <- fn() }()
	return b
}

// wait returns fn's error once it has returned (nil for a nil b); it may
// be called again.
func (b *background) wait() error {
	if b == nil {
		return nil
	}
	if !b.waited {
		b.err, b.waited = <-b.done, true
	}
	return b.err
}

// toStdout names the output flag whose FILE is "-" (standard output), or
// "" when none is.
func (f *analyzeFlags) toStdout() string {
	for _, o := range []struct{ flag, path string }{{"--json", f.jsonPath}, {"--plot", f.plotPath}, {"-o", f.augmentOut}} {
		if o.path == "-" {
			return o.flag
		}
	}
	return ""
}

// announce says on stderr that path was written (not for "-": the output
// itself is on stdout).
func announce(stderr io.Writer, path string) {
	if path != "-" {
		fmt.Fprintf(stderr, "wrote %s\n", path)
	}
}

// register defines the flags of analyze; every detector default is
// core.DefaultParams()'s.
func (f *analyzeFlags) register(fs *pflag.FlagSet) {
	d := core.DefaultParams()
	f.given = fs.Changed
	f.loadFlags.register(fs)
	fs.StringVar(&f.compat, "compat", d.Compat.String(), "detector behaviour: steadysweep, or reference (exactly the reference at 40b78bfe)")
	f.plain = registerParamFlags(fs, d)
	fs.StringVar(&f.warmup, "warmup", d.WarmupMode.String(), "warmup: auto, or a fixed number of super-passes")
	fs.BoolVar(&f.noMinDur, "no-min-duration", !d.MinDuration, "do not enforce the minimum-duration gate")
	fs.StringVar(&f.minDurFloor, "min-duration-floor", "", "wall-time floor of the minimum-duration gate: seconds, or a duration such as 10m (default: min(600 s, config.yaml's min_duration_ms) when set, else 600 s; --compat reference: 600 s)")
	fs.StringArrayVar(&f.sets, "set", nil, "set a detector parameter: name=value, any parameter listed below (lists as comma text); repeatable")
	fs.StringVar(&f.jsonPath, "json", "", "write the JSON result to `FILE`")
	fs.BoolVar(&f.pointYAML, "point-yaml", false, "print only the steady_state: block for a submission's point.yaml")
	fs.BoolVar(&f.writeReport, "write-report", false, "write steady_state.json and steady_state.txt beside the events file (steady_state.N.* for benchmark N of a GuideLLM report)")
	fs.StringVar(&f.plotPath, "plot", "", "write the run's plot to `FILE`: .png or .svg by its extension")
	fs.StringVar(&f.htmlPath, "html", "", "write a self-contained HTML page of the run to `FILE`")
	fs.StringVar(&f.augment, "augment", "", "add the steady_state block and early-stopping maps to this result_summary.json (with -o)")
	fs.StringVarP(&f.augmentOut, "output", "o", "", "where --augment writes the augmented summary")
}

// params turns the flags into detector parameters, validated: the
// compat's defaults (core.DefaultParams, or core.ReferenceParams under
// --compat reference), overridden by the flags the user gave — a flag
// left at the default shown in help never moves a reference parameter.
func (f *analyzeFlags) params() (core.Params, error) {
	var p core.Params
	compat, _ := core.ParseCompat(f.compat)
	switch compat {
	case core.CompatReference:
		p = core.ReferenceParams()
	case core.CompatSteadysweep:
		p = core.DefaultParams()
	default:
		return p, usagef("--compat: %q is not one of steadysweep, reference", f.compat)
	}
	given := f.given
	if given == nil {
		given = func(string) bool { return true }
	}
	if given("warmup") {
		switch w := strings.TrimSpace(f.warmup); w {
		case core.WarmupAuto.String():
			p.WarmupMode = core.WarmupAuto
		default:
			n, err := strconv.Atoi(w)
			if err != nil {
				return p, usagef("--warmup: %q is neither auto nor an integer", f.warmup)
			}
			p.WarmupMode, p.WarmupFixed = core.WarmupFixed, n
		}
	}
	if given("no-min-duration") {
		p.MinDuration = !f.noMinDur
	}
	for _, fl := range f.plain {
		if given(fl.flag) {
			// The flag's own spec, not p.Set: that looks the name up in
			// the whole parameter table, built again for it (~8 kB).
			if err := fl.spec.SetText(&p, strings.TrimSpace(fl.text)); err != nil {
				return p, usagef("--%s: %v", fl.flag, err)
			}
		}
	}
	n := 0
	for _, path := range []string{f.jsonPath, f.plotPath, f.augmentOut} {
		if path == "-" {
			n++
		}
	}
	if n > 1 || (n == 1 && f.pointYAML) {
		return p, usagef("only one output can be - (standard output): --json, --plot, -o and --point-yaml each take it whole")
	}
	if f.plotPath != "" {
		if _, err := plotWriter(f.plotPath); err != nil {
			return p, usageError{err}
		}
	}
	if f.minDurFloor != "" {
		s, err := parseSeconds(f.minDurFloor)
		if err != nil || !(s > 0) {
			return p, usagef("--min-duration-floor: %q is not a positive number of seconds or a duration such as 10m (omit it for min(600 s, config.yaml's min_duration_ms), else 600 s)", f.minDurFloor)
		}
		p.MinDurFloorS = s
	}
	// The flag of each parameter names it in an error: made only for one
	// (core.ParamSpecs builds the whole parameter table).
	var flags map[string]string
	if len(f.sets) > 0 {
		flags = analyzeParamFlags()
		if err := f.applySets(&p, flags); err != nil {
			return p, err
		}
	}
	if err := p.Validate(); err != nil {
		if flags == nil {
			flags = analyzeParamFlags()
		}
		return p, usageError{flagNamed(err, flags)}
	}
	return p, nil
}

// applySets applies the --set overrides to p, each as a sweep's --set of
// one value (sweep.ParseSet, core.Params.Set) so both give the same
// parameters, and renames each parameter set in flags to its --set (an
// invalid value is then reported as the user typed it). A parameter both
// a flag and --set give is a usage error.
func (f *analyzeFlags) applySets(p *core.Params, flags map[string]string) error {
	given := f.given
	if given == nil {
		given = func(string) bool { return false }
	}
	for _, s := range f.sets {
		a, err := sweep.ParseSet(s)
		if err != nil {
			return usageError{err}
		}
		if len(a.Values) != 1 {
			return usagef("--set %s: analyze takes one value per parameter (a sweep takes several)", s)
		}
		if fl := flags[a.Name]; fl != "" && given(strings.TrimPrefix(fl, "--")) {
			return usagef("--set %s: %s is also given by %s; give it once", s, a.Name, fl)
		}
		if err := p.Set(a.Name, a.Values[0]); err != nil {
			return usagef("--set: %v", err)
		}
		flags[a.Name] = "--set " + a.Name
	}
	return nil
}

// analyzeParamFlags names the analyze flag that sets each parameter
// (core.ParamSpecs' flags; the parameter's own name when only --set
// does), so an invalid value is reported by the flag the user typed.
func analyzeParamFlags() map[string]string {
	m := map[string]string{}
	for _, s := range core.ParamSpecs() {
		if s.Flag != "" {
			m[s.Name] = s.Flag
		}
	}
	return m
}

// plotWriter picks the plot's format by path's extension: .png or .svg
// ("-", standard output, is PNG); any other is refused rather than
// written as a PNG under a misleading name.
func plotWriter(path string) (func(io.Writer, string, *core.Result) error, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case path == "-" || ext == ".png":
		return sinks.WritePlotPNG, nil
	case ext == ".svg":
		return sinks.WritePlotSVG, nil
	default:
		return nil, fmt.Errorf("--plot %s: the format is chosen by extension: .png or .svg (- writes a PNG to standard output)", path)
	}
}

// parseSeconds reads a number of seconds ("600", "90.5") or a Go
// duration ("10m", "1h30m").
func parseSeconds(s string) (float64, error) {
	if x, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, fmt.Errorf("%q is not finite", s)
		}
		return x, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	return d.Seconds(), err
}

// writeReportFiles writes steady_state.json and steady_state.txt beside the
// events file, and run_meta.json with the dataset size when the run has
// none (an existing one is never touched, nor is the events file), each
// atomically. Benchmark N of a GuideLLM report (report.json#N) writes
// steady_state.N.json and steady_state.N.txt, so the benchmarks of one
// report do not overwrite each other.
func writeReportFiles(run *columnar.Run, res *core.Result, text string, info core.RunInfo, stderr io.Writer) error {
	dir, stem := run.Dir, "steady_state"
	if run.Part >= 0 {
		stem += "." + strconv.Itoa(run.Part)
	}
	// The JSON is streamed (a long run's is 100 MB), the rest written whole.
	files := []struct {
		name string
		data []byte
	}{{stem + ".json", nil}, {stem + ".txt", []byte(text)}}
	// Only endpoints runs have a dataset size to record (the others' is a
	// default super-pass size, and run_meta.json is no sidecar of theirs).
	endpoints := columnar.Format(info.SourceFormat).HasDatasetPass() || info.SourceFormat == ""
	if _, err := os.Stat(filepath.Join(dir, "run_meta.json")); errors.Is(err, os.ErrNotExist) && info.DatasetSize > 0 && endpoints {
		files = append(files, struct {
			name string
			data []byte
		}{"run_meta.json", []byte(fmt.Sprintf("{\"dataset_size\": %d}\n", info.DatasetSize))})
	}
	for i, f := range files {
		p := filepath.Join(dir, f.name)
		fill := func(w io.Writer) error { _, err := w.Write(f.data); return err }
		if i == 0 {
			fill = func(w io.Writer) error { return resultjson.Write(w, res) }
		}
		if err := atomicfile.WriteWith(p, fill); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s\n", p)
	}
	return nil
}
