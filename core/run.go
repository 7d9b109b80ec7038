package core

import (
	"errors"
	"fmt"
	"slices"
)

// ErrSuperpassSize is returned when the super-pass size is unresolvable or
// not positive; the message is the reference CLI's usage error (exit 2).
var ErrSuperpassSize = errors.New("could not resolve dataset/super-pass size; pass --dataset-size or --superpass-size")

// Run is one benchmark run ready for analysis: its samples and the facts
// about it, the super-pass rollups built from the samples (one per
// super-pass size asked for) and the memos that the analyses of the run
// share (window summaries, whole-run and window totals, early-stopping
// estimates, tail-cut statistics). Everything a Run computes is owned by
// it and released with it; the package keeps no state of its own.
//
// A sweep analyses one Run under many parameter sets: the rollups and the
// memos make every parameter set after the first cheap. A Run is not safe
// for concurrent use: analyse it from one goroutine at a time (the sweep
// gives each run to one worker), and do not modify the Samples it holds.
type Run struct {
	// Stop, if set, is polled by the long loops of Analyze and of a
	// Result's lazy tables (plateau scans, diagnostics); once it returns
	// an error the work ends and that error is returned. A sweep sets it
	// to report its context's cancellation.
	Stop func() error
	// Floats, if set, returns room for n float64 values (length 0,
	// capacity at least n, contents arbitrary) for the large arrays the
	// Run keeps: its rollups' lists, 4 values a sample. nil is make. A
	// command analysing one large run gives memory backed by transparent
	// huge pages: filling fresh memory otherwise takes a page fault per
	// 4 KiB (~450 for the 185 MB streamed log's 53,000 samples, ~16 µs
	// each on the benchmarks' virtual machines, against ~170 µs for one
	// 2 MiB huge page).
	Floats func(n int) []float64

	samples *Samples
	info    RunInfo
	rollups map[rollupKey]*rollup
	// budgets memoises LoadGen's over-latency budget by (n, p).
	budgets map[budgetKey]int
	// perSample memoises the parameter-independent statistics that need
	// the per-sample columns (offline token-rate plateau, arrival rates).
	perSample sampleMemo
	scratch   scratch
	// prefixes memoises the earliest-stop search's prefix runs and what
	// it needs of the whole run (prefixmemo.go).
	prefixes prefixMemo
	// parent is the run a prefix run was cut from (newPrefix; nil for a
	// run of its own): its rollups already hold the prefix's super-passes.
	parent *Run
	// scratchTo, when set, takes the scratch back at the end of an
	// analysis (releaseScratch): the earliest-stop search lends one
	// scratch to its prefixes in turn.
	scratchTo *scratch
	// profiles memoises ResolveProfile by Params.Profile.
	profiles map[string]Profile
}

// NewRun prepares the samples and facts of one run for analysis. s must
// not be modified afterwards; nil is an empty run.
func NewRun(s *Samples, info RunInfo) *Run {
	if s == nil {
		s = &Samples{}
	}
	return &Run{samples: s, info: info}
}

// Info returns the facts the run was prepared with.
func (run *Run) Info() RunInfo { return run.info }

// Len returns the number of samples of the run.
func (run *Run) Len() int { return run.samples.Len() }

// Analyze runs the detector on the run under p: resolve (parameters,
// profile, strategy) → series (the rollup at the resolved super-pass
// size, and the part of it the strategy windows) → warmup → select (the
// steady window) → finish (steadysweep's assessment). Each stage runs once.
// Under the agentic profile the NATL path (§13) replaces series to select.
//
// The error reports invalid parameters, an unresolvable super-pass size
// (ErrSuperpassSize) or the Stop hook's error; any input data yields a
// Result.
func (run *Run) Analyze(p Params) (*Result, error) { return run.analyze(p, false) }

// analyze is Analyze; windowPath takes the window path whatever the
// profile, as the reference's library entry point run() does (its parity
// outputs for agentic runs come from it; the CLI, like Analyze, takes the
// NATL path).
func (run *Run) analyze(p Params, windowPath bool) (*Result, error) {
	defer run.releaseScratch()
	a, err := run.resolve(p)
	if err != nil {
		return nil, err
	}
	if a.prof.Path == PathNATL && !windowPath {
		a.natl()
	} else if err := a.window(); err != nil {
		return nil, err
	}
	if a.stop.failed() {
		return nil, a.stop.err
	}
	a.strategy.finish(a)
	if a.stop.failed() {
		return nil, a.stop.err
	}
	return a.res, nil
}

// analysis is one Analyze call in progress: what the stages share.
type analysis struct {
	run      *Run
	p        Params
	strategy strategy
	prof     Profile
	stop     *stopper
	res      *Result
	// assess is steadysweep's assessment under construction (nil under
	// the reference).
	assess *Assessment
	// roll is the rollup at the resolved super-pass size (window path).
	roll *rollup
	// pct are the per-super-pass percentiles of res.series.
	pct []*spPercentiles
	// memo addresses the rollup's memos by post-warmup ranges.
	memo *memoView
}

// resolve validates p and picks the profile and the strategy.
func (run *Run) resolve(p Params) (*analysis, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid parameters: %w", err)
	}
	if p.Compat == CompatReference && p.Method != MethodSteady {
		return nil, fmt.Errorf("method %q is not implemented by the core detector", p.Method)
	}
	p.WindowSizes, p.CovBounds = slices.Clone(p.WindowSizes), slices.Clone(p.CovBounds) // the result's own
	prof := run.resolveProfile(p)
	a := &analysis{run: run, p: p, strategy: strategyFor(p), prof: prof, stop: &stopper{fn: run.Stop}}
	a.res = &Result{Profile: prof, Params: p, run: run}
	// The stages see the resolved floor; the Result keeps p as given.
	a.p.MinDurFloorS, a.res.MinDurFloorFromRun = MinDurFloor(run.info, p)
	a.res.MinDurFloorS = a.p.MinDurFloorS
	if p.Compat != CompatReference {
		a.assess = &Assessment{Partial: run.info.Partial, Window: NoSPRange}
		a.assess.Mode.Name = prof.Name
	}
	return a, nil
}

// superpassSize resolves S: Params.SuperpassSize if non-zero, else the
// run's dataset size; ≤ 0 is ErrSuperpassSize.
func superpassSize(info RunInfo, p Params) (int, error) {
	s := p.SuperpassSize
	if s == 0 {
		s = info.DatasetSize
	}
	if s <= 0 {
		return 0, ErrSuperpassSize
	}
	return s, nil
}

// window runs the window path's stages: series, warmup, select.
func (a *analysis) window() error {
	S, err := superpassSize(a.run.info, a.p)
	if err != nil {
		return err
	}
	r := a.res
	r.Path, r.SuperpassSize = PathWindow, S
	a.roll = a.run.rollup(S)
	if a.assess != nil {
		a.roll = a.run.cleanRollup(S) // failures and impossible timing left out
	}
	r.roll = a.roll
	r.series = a.strategy.series(a)
	a.pct = a.roll.pct[:len(r.series)]
	r.NSuperPasses = len(r.series)
	r.CovBounds = a.p.CovBounds
	if len(r.CovBounds) == 0 {
		r.CovBounds = a.prof.CovBounds
	}

	r.Warmup, r.WarmupMode = a.strategy.warmup(a), a.p.WarmupMode
	if r.Warmup < len(r.series) {
		r.post, r.pct = r.series[r.Warmup:], a.pct[r.Warmup:]
	}
	r.NPostWarmup = len(r.post)
	a.memo = &memoView{roll: a.roll, base: r.Warmup, stop: a.stop, sc: &a.run.scratch}

	a.strategy.selectSteady(a)
	return nil
}

// natl is the agentic path (§13): per-trajectory throughput instead of
// super-pass windows.
func (a *analysis) natl() {
	T := a.p.SuperpassSize
	if T == 0 {
		T = a.prof.DefaultSuperpass
	}
	if T == 0 {
		T = 32
	}
	bounds := a.p.CovBounds
	if len(bounds) == 0 {
		bounds = a.prof.CovBounds
	}
	nr := NATLSummary(NATLPairs(a.run.samples), T, bounds)
	r := a.res
	r.Path, r.CovBounds, r.SuperpassSize, r.NATL = PathNATL, bounds, T, &nr
}

// series of the reference: the whole rollup, the partial last super-pass
// included.
func (reference) series(a *analysis) []SuperPass { return a.roll.sps }

// series of steadysweep: the full super-passes only (design §5.6), or the
// whole rollup when it holds no full super-pass.
func (steadysweep) series(a *analysis) []SuperPass {
	if n := a.roll.nFull; n >= 1 && n < len(a.roll.sps) {
		return a.roll.sps[:n]
	}
	return a.roll.sps
}

// stopper polls a Run's Stop hook and remembers its first error.
type stopper struct {
	fn  func() error
	err error
}

// failed polls the hook (until it has failed once) and reports whether the
// work must end.
func (s *stopper) failed() bool {
	if s == nil {
		return false
	}
	if s.err == nil && s.fn != nil {
		s.err = s.fn()
	}
	return s.err != nil
}
