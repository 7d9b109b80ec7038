package core

import "slices"

// The memos of a Run. A sweep analyses one run under many parameter sets:
// the rollups, the whole-run totals and early-stopping estimates do not
// depend on the parameters, and the window ones repeat across parameter
// sets, so they are computed once per run and super-pass size. Windows are
// keyed by their absolute super-pass range [lo, hi) in the rollup (every
// strategy's series is a prefix of it). The memos live as long as the Run.

// rollup is the super-pass series of a run at one super-pass size, with
// the per-super-pass percentiles and the memos of its spans.
type rollup struct {
	S     int
	sps   []SuperPass
	pct   []*spPercentiles
	nFull int // super-passes holding S samples
	// exclude is the per-sample exclusion it was built with (nil: none).
	exclude []bool

	whole  *spanStats             // the whole rollup, drain-inclusive
	spans  map[[2]int]*spanMemo   // per-span statistics (memoview.go)
	trends map[trendKey]trendStat // trend tests (memoview.go)
	// plateaus are the ensemble segmentations by key, each valid over a
	// range of alpha (memoView.ensemblePlateausFrom).
	plateaus map[plateauKey][]alphaMemo[plateauMemo]
	// states are the metric states by span, each valid over a range of
	// alpha (memoView.statesOver).
	states map[statesKey][]alphaMemo[[NumMetrics]MetricState]
	// certFloats counts the values the certification memos hold
	// (memoView.certSeries).
	certFloats int
}

// rollup returns the run's rollup at super-pass size S (S > 0), building
// it on first use: the reference's, every sample measured.
func (run *Run) rollup(S int) *rollup { return run.rollupFor(S, false) }

// cleanRollup is steadysweep's rollup at S: failed samples and samples
// with impossible timing are left out of every measurement (excluded).
// It is the reference's rollup itself when no sample is excluded.
func (run *Run) cleanRollup(S int) *rollup { return run.rollupFor(S, true) }

// rollupKey identifies a rollup: its super-pass size and whether it is
// the clean one.
type rollupKey struct {
	S     int
	clean bool
}

func (run *Run) rollupFor(S int, clean bool) *rollup {
	k := rollupKey{S, clean}
	if r, ok := run.rollups[k]; ok {
		return r
	}
	opts := rollupOptions{sortedTimes: true, room: run.Floats}
	if clean {
		opts.exclude = run.excluded()
		if opts.exclude == nil {
			r := run.rollupFor(S, false)
			run.rollups[k] = r
			return r
		}
	}
	r := run.parentRollup(k, opts.exclude)
	if r == nil {
		sps := rollupOf(run.samples, S, opts)
		r = &rollup{S: S, sps: sps, pct: percentileTable(sps), nFull: fullSuperPasses(sps, S), exclude: opts.exclude}
	}
	if run.rollups == nil {
		run.rollups = map[rollupKey]*rollup{}
	}
	run.rollups[k] = r
	return r
}

// parentRollup is the rollup at k of a prefix run (newPrefix) cut from
// the parent's built at k, nil when there is none or the prefix does not
// end on a super-pass boundary of size k.S. A super-pass depends only on
// its own samples (rollupOf), and the prefix's exclusion is the head of
// the parent's (health is per sample), so the prefix's super-passes are
// the parent's first ones: the earliest-stop search then builds no rollup
// per prefix (issue 32: a third of a warm small analyze's allocation).
// The memos of the rollup (spans, trends, plateaus) stay the prefix's own.
func (run *Run) parentRollup(k rollupKey, exclude []bool) *rollup {
	p, n := run.parent, run.samples.Len()
	if p == nil || n == 0 || n%k.S != 0 {
		return nil
	}
	pr, ok := p.rollups[k]
	nsp := n / k.S
	if !ok || nsp > pr.nFull {
		return nil
	}
	return &rollup{S: k.S, sps: pr.sps[:nsp:nsp], pct: pr.pct[:nsp:nsp], nFull: nsp, exclude: exclude}
}

// fullSuperPasses is the number of super-passes holding S samples (all
// but possibly the last).
func fullSuperPasses(sps []SuperPass, S int) int {
	n := 0
	for i := range sps {
		if sps[i].NIssued >= S {
			n++
		}
	}
	return n
}

// wholeStats returns the totals and early-stopping estimates of the whole
// rollup (drain-inclusive duration), memoised.
func (run *Run) wholeStats(r *rollup) *spanStats {
	if r.whole == nil {
		r.whole = run.spanStatsOf(r.sps, true)
	}
	return r.whole
}

// windowStatsOf returns the summaries, totals, throughput and
// early-stopping estimates of the window r.sps[lo:hi], memoised.
func (run *Run) windowStatsOf(r *rollup, win SPRange) *windowStats {
	lo, hi := int(win.Lo), int(win.Hi)
	m := r.span(lo, hi)
	if m.window == nil {
		m.window = run.computeWindowStats(r.sps[lo:hi])
	}
	return m.window
}

// tailStatsOf returns the tail-cut statistics of the window r.sps[lo:hi],
// memoised (the parameters only compare against them).
func (run *Run) tailStatsOf(r *rollup, win SPRange) *tailStats {
	lo, hi := int(win.Lo), int(win.Hi)
	m := r.span(lo, hi)
	if m.tail == nil {
		m.tail = computeTailStats(r.sps[lo:hi], run.samples, r.S, lo, run.lastIssueNs(), r.exclude, &run.scratch)
	}
	return m.tail
}

// sampleMemo holds what is computed once per run from the per-sample
// columns.
type sampleMemo struct {
	haveLastIssue bool
	lastIssue     int64
	offline       *offlineStats
	arrivals      *arrivalRates
	health        *sampleHealth
}

// lastIssueNs is the run's last first-seen issue time (−1 without samples).
func (run *Run) lastIssueNs() int64 {
	m := &run.perSample
	if !m.haveLastIssue {
		m.lastIssue = -1
		for _, t := range run.samples.IssueNs {
			m.lastIssue = max(m.lastIssue, t)
		}
		m.haveLastIssue = true
	}
	return m.lastIssue
}

type budgetKey struct {
	n int
	p float64
}

// earlyStopBudget is stats.EarlyStoppingOverLatencyBudget(n, p, 0.99, 0)
// memoised on the run; t = 0 means below the floor.
func (run *Run) earlyStopBudget(n int, p float64) int {
	k := budgetKey{n, p}
	if t, ok := run.budgets[k]; ok {
		return t
	}
	t := overLatencyBudget(n, p)
	if run.budgets == nil {
		run.budgets = map[budgetKey]int{}
	}
	run.budgets[k] = t
	return t
}

// resolveProfile is ResolveProfile(run's facts, p), memoised by the
// forced profile (a sweep resolved the profile table per analysis); each
// call's CoV bounds are its own.
func (run *Run) resolveProfile(p Params) Profile {
	prof, ok := run.profiles[p.Profile]
	if !ok {
		prof = ResolveProfile(run.info, p)
		if run.profiles == nil {
			run.profiles = map[string]Profile{}
		}
		run.profiles[p.Profile] = prof
	}
	prof.CovBounds = slices.Clone(prof.CovBounds)
	return prof
}
