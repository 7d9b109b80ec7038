package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sweep"
)

// sweepResult is the repetitions of one sweep variant.
type sweepResult struct {
	name    string
	jobs    int
	samples []bench.Sample
	rows    int
	runs    int
}

func (r sweepResult) perSec(n int) []float64 {
	out := make([]float64, len(r.samples))
	for i, s := range r.samples {
		out[i] = float64(n) / s.Wall
	}
	return out
}

// cpuUse is CPU seconds over wall seconds: how many cores were busy.
func (r sweepResult) cpuUse() []float64 {
	out := make([]float64, len(r.samples))
	for i, s := range r.samples {
		out[i] = s.CPU / s.Wall
	}
	return out
}

// runSweep runs one sweep into a fresh output directory and removes it.
func runSweep(e *env, refs []corpora.RunRef, cfgs []core.Params, jobs int, cacheDir string, n int) (sweep.Summary, error) {
	out := filepath.Join(e.work, fmt.Sprintf("sweep-out-%d", n))
	defer os.RemoveAll(out)
	runtime.GC()
	sum, err := sweep.Run(e.ctx, sweep.Options{
		Runs: refs, Configs: cfgs, Out: out, Jobs: jobs,
		Load: loader(cacheDir), Analyze: sweep.DefaultAnalyzer,
		ToolVersion: "bench", ToolCommit: "bench",
	})
	if err != nil {
		return sum, err
	}
	if sum.ErrorRuns > 0 {
		return sum, fmt.Errorf("%d runs had error rows (%v)", sum.ErrorRuns, sum.RowsByStatus)
	}
	return sum, nil
}

// corpus generates the sweep corpus once.
func corpus(e *env, nRuns int) ([]corpora.RunRef, int64, time.Duration, error) {
	dir := filepath.Join(e.work, "corpus")
	t0 := time.Now()
	if _, err := synth.GenerateCorpus(dir, nRuns, 20261129, nil); err != nil {
		return nil, 0, 0, err
	}
	gen := time.Since(t0)
	refs, errs := corpora.Discover([]string{dir}, nil, nil)
	if len(errs) > 0 {
		return nil, 0, 0, fmt.Errorf("discover: %v", errs[0])
	}
	if len(refs) != nRuns {
		return nil, 0, 0, fmt.Errorf("discover found %d runs, want %d", len(refs), nRuns)
	}
	var bytes int64
	for _, r := range refs {
		fi, err := os.Stat(r.EventsPath)
		if err != nil {
			return nil, 0, 0, err
		}
		bytes += fi.Size()
	}
	return refs, bytes, gen, nil
}

func sweepSection(e *env) (string, error) {
	nRuns, nCfg := 200, 100
	if e.quick {
		nRuns, nCfg = 20, 10
	}
	e.logf("sweep: generating %d runs", nRuns)
	refs, corpusBytes, gen, err := corpus(e, nRuns)
	if err != nil {
		return "", err
	}
	cfgs, err := bench.Configs(nCfg)
	if err != nil {
		return "", err
	}
	cacheDir := filepath.Join(e.work, "column-cache")
	// Fill the cache once, ingest only (timed and reported, not a variant).
	e.logf("sweep: filling the column cache")
	fill, err := fillCache(e, refs, cacheDir)
	if err != nil {
		return "", err
	}
	reps := *sweepRepsFlag
	if e.quick {
		reps = 1
	}
	variants := []struct {
		name  string
		jobs  int
		cache string
		reps  int
	}{
		{"cold (no column cache), --jobs 1", 1, "", reps},
		{"cold (no column cache), --jobs 2", 2, "", reps},
		{"warm (column cache hit), --jobs 1", 1, cacheDir, reps},
		{"warm (column cache hit), --jobs 2", 2, cacheDir, reps},
	}
	res := make([]sweepResult, len(variants))
	for i, v := range variants {
		res[i] = sweepResult{name: v.name, jobs: v.jobs}
	}
	// Repetitions are interleaved (jobs 1, jobs 2, jobs 1, …) so that a
	// burst of other load on the shared machine hits both sides.
	k := 0
	for rep := 0; ; rep++ {
		ran := false
		for i, v := range variants {
			if rep >= v.reps {
				continue
			}
			ran = true
			e.logf("sweep: %s (%d/%d)", v.name, rep+1, v.reps)
			var sum sweep.Summary
			s, err := bench.Time(func() error {
				var err error
				sum, err = runSweep(e, refs, cfgs, v.jobs, v.cache, k)
				return err
			})
			k++
			if err != nil {
				return "", fmt.Errorf("%s: %w", v.name, err)
			}
			res[i].samples = append(res[i].samples, s)
			res[i].rows, res[i].runs = sum.Rows, sum.Runs
		}
		if !ran {
			break
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "## 4. Sweep\n\n")
	fmt.Fprintf(&b, "`synth.GenerateCorpus(dir, %d, 20261129, all presets)`: %d runs, %s of events in all (generated in %s), "+
		"swept over %d configs (`bench.Configs(%d)`: presets default and reference × 5 values of trend_rel_drift_min × "+
		"%d of warmup_band) with `sweep.Run` into Parquet — %d rows per sweep. Runs are loaded with "+
		"`sweep.DefaultLoader` (word counter, one decode worker per run; with `columnar.Cache` when warm) and analysed with "+
		"`sweep.DefaultAnalyzer` (one `core.Run` per run, `Run.Analyze` per config: rollups and memos shared). Cold reads and decodes every run "+
		"(no column cache); warm reads the column-cache entries of a cache filled beforehand (filling it — `Cache.Ingest` "+
		"of every run on %d goroutines, no analysis — took %.2f s wall, %.2f s CPU). The corpus is in the page cache in both. "+
		"The variants' repetitions are interleaved (cold jobs 1, cold jobs 2, warm jobs 1, warm jobs 2, then again), so "+
		"that a burst of other load on the shared machine hits every variant. "+
		"%s\n\n",
		nRuns, nRuns, fmtMB(corpusBytes), gen.Round(time.Millisecond), nCfg, nCfg, nCfg/10, res[0].rows,
		runtime.GOMAXPROCS(0), fill.Wall, fill.CPU, repsNote(reps, e.reps))
	fmt.Fprintf(&b, "| variant | reps | wall | CPU | runs/s | rows/s | cores busy (CPU/wall) |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range res {
		fmt.Fprintf(&b, "| %s | %d | %s s | %s s | %s | %s | %s |\n", r.name, len(r.samples), fmtRange(bench.Walls(r.samples), "%.2f"),
			fmtRange(bench.CPUs(r.samples), "%.2f"), fmtRange(r.perSec(r.runs), "%.1f"), fmtRange(r.perSec(r.rows), "%.0f"),
			fmtRange(r.cpuUse(), "%.2f"))
	}
	med := func(r sweepResult) float64 { return bench.Median(r.perSec(r.runs)) }
	cpu := func(r sweepResult) float64 { return bench.Median(bench.CPUs(r.samples)) }
	coldX, warmX := med(res[1])/med(res[0]), med(res[3])/med(res[2])
	warmGain1, warmGain2 := med(res[2])/med(res[0]), med(res[3])/med(res[1])
	// wall1/wall2 = (CPU1/CPU2) × (busy2/busy1); busy2 is at most 2 on two
	// cores, which caps the speed-up at (CPU1/CPU2) × 2/busy1.
	busy := func(r sweepResult) float64 { return bench.Median(r.cpuUse()) }
	coldCap, warmCap := cpu(res[0])/cpu(res[1])*2/busy(res[0]), cpu(res[2])/cpu(res[3])*2/busy(res[2])
	fmt.Fprintf(&b, "\n--jobs 2 over --jobs 1: **%.2f×** cold, **%.2f×** warm (wall). Warm over cold: %.2f× at --jobs 1, "+
		"%.2f× at --jobs 2. "+
		"The work hardly grows with --jobs 2 (CPU %.2f× cold, %.2f× warm), but --jobs 1 already keeps %.2f (cold) and "+
		"%.2f (warm) cores busy — the garbage collector and the Parquet writer run beside the one worker — so on %d cores "+
		"the speed-up cannot exceed (CPU(jobs 1)/CPU(jobs 2)) × %d/busy(jobs 1) = %.2f× cold and %.2f× warm; "+
		"--jobs 2 kept %.2f and %.2f cores busy.\n\n",
		coldX, warmX, warmGain1, warmGain2, cpu(res[1])/cpu(res[0]), cpu(res[3])/cpu(res[2]), busy(res[0]), busy(res[2]),
		runtime.GOMAXPROCS(0), runtime.GOMAXPROCS(0), coldCap, warmCap, busy(res[1]), busy(res[3]))
	worst := min(coldX, warmX)
	v := verdict(worst/1.8, 1, "")
	if worst < 1.8 {
		v += fmt.Sprintf(" (ceiling on 2 cores given --jobs 1's %.2f/%.2f busy cores: %.2f× / %.2f×)",
			busy(res[0]), busy(res[2]), coldCap, warmCap)
	}
	e.targets = append(e.targets, target{
		name:     fmt.Sprintf("sweep --jobs 2 vs --jobs 1 (%d runs × %d configs)", nRuns, nCfg),
		goal:     "≥ 1.8×",
		measured: fmt.Sprintf("cold %.1f → %.1f runs/s, warm %.1f → %.1f runs/s", med(res[0]), med(res[1]), med(res[2]), med(res[3])),
		ratio:    fmt.Sprintf("%.2f× cold, %.2f× warm", coldX, warmX),
		verdict:  v,
	})

	pc, err := perConfigSection(e)
	if err != nil {
		return "", err
	}
	b.WriteString(pc)
	return b.String(), nil
}

func repsNote(reps, main int) string {
	if reps >= main {
		return ""
	}
	return fmt.Sprintf("**Each variant ran %d time(s), not %d** (`-sweep-reps`): one sweep is 20,000 analyses.", reps, main)
}

// fillCache ingests every run through the column cache in dir, on
// GOMAXPROCS goroutines.
func fillCache(e *env, refs []corpora.RunRef, dir string) (bench.Sample, error) {
	load := loader(dir)
	return bench.Time(func() error {
		jobs := make(chan corpora.RunRef)
		errs := make(chan error, runtime.GOMAXPROCS(0))
		for range runtime.GOMAXPROCS(0) {
			go func() {
				var first error
				for ref := range jobs {
					if _, err := load(e.ctx, ref); err != nil && first == nil {
						first = err
					}
				}
				errs <- first
			}()
		}
		for _, r := range refs {
			jobs <- r
		}
		close(jobs)
		var err error
		for range runtime.GOMAXPROCS(0) {
			if e := <-errs; e != nil && err == nil {
				err = e
			}
		}
		return err
	})
}

// loadBig ingests the big run with the word counter (what analyze
// does), once.
func loadBig(e *env) (*core.Samples, core.RunInfo, error) {
	if e.bigLoaded != nil {
		return e.bigLoaded, e.bigInfo, nil
	}
	run, err := columnar.ResolveRun(e.ctx, e.bigDir)
	if err != nil {
		return nil, core.RunInfo{}, err
	}
	table, err := columnar.Ingest(e.ctx, run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		return nil, core.RunInfo{}, err
	}
	// The samples may alias the table's Arrow buffers: the table is never
	// released, it lives as long as this process.
	s := table.Samples()
	e.bigLoaded, e.bigInfo = &s, table.Info
	return e.bigLoaded, e.bigInfo, nil
}

// loader is the sweep's default loader: the word counter, one decode
// worker per run (the sweep runs one run per core), the column cache in
// dir ("" for none).
func loader(dir string) sweep.Loader {
	o := sweep.LoaderOptions{Counter: tokenizer.Words{}, Workers: 1}
	if dir != "" {
		o.Cache = &columnar.Cache{Dir: dir}
	}
	return sweep.DefaultLoader(o)
}

// analyzeFunc analyses the run under one parameter set.
type analyzeFunc func(core.Params) (*core.Result, error)

// configCost times, reps times, prepare() followed by analyze(p) for every
// config, and returns µs per config (wall and CPU) and the super-pass
// count. prepare is inside the timing: it is the per-run work a sweep
// shares across its configs (building the rollups).
func configCost(cfgs []core.Params, reps int, prepare func() analyzeFunc) (wall, cpu []float64, nsp int, err error) {
	for range reps {
		runtime.GC()
		smp, err := bench.Time(func() error {
			analyze := prepare()
			for _, p := range cfgs {
				r, err := analyze(p)
				if err != nil {
					return err
				}
				nsp = r.NSuperPasses
				_ = r.Outcome()
			}
			return nil
		})
		if err != nil {
			return nil, nil, 0, err
		}
		wall = append(wall, smp.Wall/float64(len(cfgs))*1e6)
		cpu = append(cpu, smp.CPU/float64(len(cfgs))*1e6)
	}
	return wall, cpu, nsp, nil
}

// sweepPath is how sweep.DefaultAnalyzer analyses a run: one core.Run
// (fresh each repetition, so its rollups and memos start empty as for a
// new run), Run.Analyze per config.
func sweepPath(s *core.Samples, info core.RunInfo) func() analyzeFunc {
	return func() analyzeFunc { return core.NewRun(s, info).Analyze }
}

// alone is a fresh core.Run per config: nothing shared between configs.
func alone(s *core.Samples, info core.RunInfo) func() analyzeFunc {
	return func() analyzeFunc {
		return func(p core.Params) (*core.Result, error) { return core.NewRun(s, info).Analyze(p) }
	}
}

func perConfigSection(e *env) (string, error) {
	if err := ensureBig(e); err != nil {
		return "", err
	}
	s, info, err := loadBig(e)
	if err != nil {
		return "", err
	}
	grid, err := bench.Configs(100)
	if err != nil {
		return "", err
	}
	half := map[string][]core.Params{} // the grid's 50 configs of each preset
	for _, p := range grid {
		name := "default"
		if p.Compat == "reference" {
			name = "reference"
		}
		half[name] = append(half[name], p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Per-config core cost\n\n")
	fmt.Fprintf(&b, "The detector alone, on one goroutine, on the %s run of section 1 (%d samples with word counts, "+
		"super-passes of %d), over the 50 configs of each preset in the sweep's grid per repetition. *Sweep path* is what "+
		"`sweep.DefaultAnalyzer` does for one run: one `core.Run` (its preparation included in the time), "+
		"`Run.Analyze` per config, sharing the run's rollups and memos; *alone* is a fresh `core.Run` "+
		"per config with nothing shared (what `steadysweep analyze` does once).\n\n", fmtMB(e.bigSize), s.Len(), info.DatasetSize)
	fmt.Fprintf(&b, "| preset | path | super-passes | µs/config (wall) | µs/config (CPU) |\n|---|---|---:|---:|---:|\n")
	cost := map[string]float64{} // median CPU µs/config by "preset/path"
	var nSP int
	for _, preset := range []string{"default", "reference"} {
		for _, path := range []string{"sweep path", "alone"} {
			prep := sweepPath(s, info)
			if path == "alone" {
				prep = alone(s, info)
			}
			e.logf("sweep: per-config cost, preset %s, %s", preset, path)
			wall, cpu, nsp, err := configCost(half[preset], e.reps, prep)
			if err != nil {
				return "", err
			}
			nSP = nsp
			cost[preset+"/"+path] = bench.Median(cpu)
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", preset, path, nsp, fmtRange(wall, "%.0f"), fmtRange(cpu, "%.0f"))
		}
	}
	b.WriteString("\n")
	e.logf("sweep: CPU profile of the sweep path, preset default")
	prof, err := profileTop(e, "analyze", 16, func() error {
		analyze := sweepPath(s, info)()
		for _, p := range half["default"] {
			if _, err := analyze(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "Where the time of the sweep path under the default preset goes (its 50 configs once more, under the "+
		"CPU profiler):\n\n%s\n", prof)
	_ = nSP
	alpha, err := alphaSweepSection(e)
	if err != nil {
		return "", err
	}
	b.WriteString(alpha)
	return b.String(), nil
}

// perConfigRun returns the directory of bench.PerConfigSpec's run (60
// super-passes of 1000 samples), generated on first use.
func perConfigRun(e *env) (string, error) {
	dir := filepath.Join(e.work, "perconfig")
	if _, err := os.Stat(filepath.Join(dir, "events.jsonl")); err != nil {
		e.logf("sweep: generating the per-config run (60 super-passes of 1000 samples)")
		if _, err := synth.Generate(dir, bench.PerConfigSpec()); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// sweepRowsCosts measures the per-config cost through a whole sweep
// (issue 32): sweep.Run with rows and the earliest-stop search over the
// per-config run, by the difference of 1001 configs and one, µs CPU per
// config, once per repetition (once per benchall run: kept in e).
func sweepRowsCosts(e *env) ([]float64, error) {
	if e.rowsCosts != nil {
		return e.rowsCosts, nil
	}
	dir, err := perConfigRun(e)
	if err != nil {
		return nil, err
	}
	var rows []float64
	for range e.reps {
		e.logf("sweep: alpha sweep through sweep.Run")
		us, err := bench.SweepRowsCost(e.ctx, dir, filepath.Join(e.work, "perconfig-cache"), e.work, bench.AlphaConfigs(core.DefaultParams(), 1001))
		if err != nil {
			return nil, err
		}
		rows = append(rows, us)
	}
	e.rowsCosts = rows
	return rows, nil
}

// alphaSweepSection measures the per-config target as issue 13 states it:
// the sweep path over bench.PerConfigSpec's run (60 super-passes of 1000
// samples) with bench.AlphaConfigs' 1001 alpha values, which re-decide
// every trend verdict per config.
func alphaSweepSection(e *env) (string, error) {
	dir, err := perConfigRun(e)
	if err != nil {
		return "", err
	}
	run, err := columnar.ResolveRun(e.ctx, dir)
	if err != nil {
		return "", err
	}
	table, err := columnar.Ingest(e.ctx, run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		return "", err
	}
	s := table.Samples()
	var b strings.Builder
	fmt.Fprintf(&b, "#### Per-config target: alpha over 1001 values\n\n")
	fmt.Fprintf(&b, "One `core.Run` of synth clean_ramp at 60 passes × 1000 samples (%d samples) analysed under 1001 "+
		"configs that differ only in `alpha` (0.001 … 0.3, so every trend verdict is decided again), the run's "+
		"preparation included, on one goroutine (`bench.SweepPathCost`; also `go test -bench PerConfig ./bench/`).\n\n", s.Len())
	fmt.Fprintf(&b, "| preset | super-passes | µs/config (wall) | µs/config (CPU) |\n|---|---:|---:|---:|\n")
	cpuOf := map[string]float64{}
	for _, preset := range []string{"default", "reference"} {
		base := core.DefaultParams()
		if preset == "reference" {
			base = core.ReferenceParams()
		}
		cfgs := bench.AlphaConfigs(base, 1001)
		var walls, cpus []float64
		nsp := 0
		for range e.reps {
			e.logf("sweep: alpha sweep, preset %s", preset)
			w, c, n, err := bench.SweepPathCost(&s, table.Info, cfgs)
			if err != nil {
				return "", err
			}
			walls, cpus, nsp = append(walls, w), append(cpus, c), n
		}
		cpuOf[preset] = bench.Median(cpus)
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", preset, nsp, fmtRange(walls, "%.0f"), fmtRange(cpus, "%.0f"))
	}
	b.WriteString("\n")
	rows, err := sweepRowsCosts(e)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "Through a whole sweep (`bench.SweepRowsCost`: `sweep.Run` of the same run with `sweep.DefaultAnalyzer` — the "+
		"earliest-stop search included — on one job, column cache warm, rows to Parquet; the CPU of the 1001-config sweep minus "+
		"that of a 1-config sweep, over 1000; also `go test -bench SweepPerConfig ./bench/`): default preset %s µs CPU/config.\n\n",
		fmtRange(rows, "%.0f"))
	e.addTarget(sweepRowsTarget(rows))
	e.targets = append(e.targets, target{
		name:     "per-config core cost (60 super-passes of 1000 samples, alpha × 1001)",
		goal:     fmt.Sprintf("default ≤ %d µs CPU/config on the sweep path", bench.PerConfigTargetUs),
		measured: fmt.Sprintf("default %.0f µs, reference %.0f µs CPU/config", cpuOf["default"], cpuOf["reference"]),
		ratio:    fmt.Sprintf("%.2f× the budget (default)", cpuOf["default"]/bench.PerConfigTargetUs),
		verdict:  verdict(bench.PerConfigTargetUs/cpuOf["default"], 1, ""),
	})
	return b.String(), nil
}
