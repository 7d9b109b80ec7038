package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Result is one analysis of a run (Run.Analyze). The window path fills
// everything but NATL; the agentic NATL path (PathNATL) fills only the
// header fields and NATL (and the Assessment under steadysweep). The
// exported fields are the result's own; the per-super-pass series, the
// trajectories and the diagnostic tables are read through methods, which
// return fresh values.
//
// A Result refers to its Run for the lazy tables (Diagnostics, WholeRun):
// like the Run it is not safe for concurrent use.
type Result struct {
	Path Path
	// Profile is the workload profile used.
	Profile Profile
	// Params are the parameters of the analysis.
	Params Params
	// MinDurFloorS is the min-duration gate's floor the analysis used
	// (MinDurFloor: Params.MinDurFloorS, else min(600 s, the run's
	// configured minimum duration), else 600 s); MinDurFloorFromRun reports
	// that the run's shorter minimum is the floor.
	MinDurFloorS       float64
	MinDurFloorFromRun bool
	// CovBounds are the effective CoV bounds in the given order
	// (duplicates kept, as the text report prints them).
	CovBounds []float64

	NSuperPasses  int
	SuperpassSize int
	Warmup        int
	WarmupMode    WarmupMode
	NPostWarmup   int
	Steady        SteadyState
	// NATL is the agentic result (PathNATL).
	NATL *NATLResult
	// Assessment is steadysweep's analysis beyond the reference; nil under
	// compat reference.
	Assessment *Assessment
	// EarliestStop is the run's earliest stop when the caller computed it
	// (Run.EarliestStopOf; nil otherwise): the JSON and text outputs
	// report it when set.
	EarliestStop *EarliestStop

	run    *Run
	roll   *rollup
	series []SuperPass // the windowed series
	post   []SuperPass
	pct    []*spPercentiles // of post

	diag     []WindowDiagnostics
	diagDone bool
}

// RunInfo returns the facts of the analysed run (zero for a Result not
// made by Run.Analyze).
func (r *Result) RunInfo() RunInfo {
	if r.run == nil {
		return RunInfo{}
	}
	return r.run.info
}

// Caveat returns the profile's stderr caveat line ("[profile: NAME] NOTE")
// or "" (concurrency).
func (r *Result) Caveat() string { return r.Profile.Caveat() }

// DistinctCovBounds returns CovBounds without repeats, first occurrence
// kept: the bounds of the diagnostics' CovCell.Passes (the reference keys
// its tables by the bound).
func (r *Result) DistinctCovBounds() []float64 { return distinctBounds(r.CovBounds) }

// Trajectory returns the post-warmup trajectory of metric m (an index of
// Metrics), empty super-passes skipped (§6).
func (r *Result) Trajectory(m int) []float64 { return trajectory(r.pct, m) }

// Trajectories returns the post-warmup trajectories of every tracked
// metric, cut from one array (each a fresh slice of its own, they were
// ten small objects of a size class the analysis had not used yet).
func (r *Result) Trajectories() [NumMetrics][]float64 {
	var out [NumMetrics][]float64
	all := make([]float64, 0, NumMetrics*len(r.pct))
	for m := range out {
		start := len(all)
		all = appendTrajectory(all, r.pct, m)
		out[m] = all[start:len(all):len(all)]
	}
	return out
}

// Diagnostics returns the per-window-size CoV and drift tables (detector
// spec §9) in first-occurrence order of the window sizes. They feed only
// the reports, never the headline, so they are computed on first use
// (they cost far more than the headline: five trend tests on every rolling
// window of ten trajectories). The run's Stop hook can end the work; its
// error is returned then (and the tables are computed again on the next
// call).
func (r *Result) Diagnostics() ([]WindowDiagnostics, error) {
	if r.diagDone || r.Path != PathWindow {
		return r.diag, nil
	}
	stop := &stopper{fn: r.run.Stop}
	traj := r.Trajectories()
	d := diagnosticTables(&traj, distinctWindowSizes(r.Params.WindowSizes), distinctBounds(r.CovBounds),
		r.Params.MinTrendN, r.Params.Alpha, stop)
	if stop.failed() {
		return nil, stop.err
	}
	r.diag, r.diagDone = d, true
	return r.diag, nil
}

// SuperPassDigest is one super-pass of an analysis: its counts and issue
// span and the value of every tracked metric (§6), which is
// PercentileLower of the super-pass's sorted list.
type SuperPassDigest struct {
	// I is the index: absolute in SuperPasses, post-warmup relative in
	// PerSuperPass.
	I                                      int
	NIssued                                int
	OutTokens                              int64
	FirstIssueNs, LastIssueNs, LastEventNs int64
	// Value[m] is metric m of Metrics; Has[m] is false (JSON null) when
	// the metric's list is empty.
	Value [NumMetrics]float64
	Has   [NumMetrics]bool
	// LatencyP99 is the p99 end-to-end latency (NaN without a latency).
	LatencyP99 float64
	// TPOTMean is the mean TPOT in ns (NaN without a TPOT): the batch
	// mean the per-user TPS confidence interval is built from (§10.7).
	TPOTMean float64
}

// HasTTFT and HasTPOT report whether the super-pass has a TTFT or a TPOT.
func (d SuperPassDigest) HasTTFT() bool { return d.Has[mTTFTP50] }
func (d SuperPassDigest) HasTPOT() bool { return d.Has[mTPOTP50] }

func digestOf(sp *SuperPass, pc *spPercentiles, i int) SuperPassDigest {
	d := SuperPassDigest{I: i, NIssued: sp.NIssued, OutTokens: sp.OutTokens,
		FirstIssueNs: sp.FirstIssueNs, LastIssueNs: sp.LastIssueNs, LastEventNs: sp.LastEventNs,
		Value: pc.v, Has: pc.ok, LatencyP99: stats.PercentileLower(pc.sortedLatency, 0.99), TPOTMean: math.NaN()}
	if len(sp.TPOT) > 0 {
		d.TPOTMean = pc.tpotMean
	}
	return d
}

// SuperPasses returns the digest of every super-pass of the windowed
// series, warmup included (I absolute); nil on the NATL path.
func (r *Result) SuperPasses() []SuperPassDigest {
	out := make([]SuperPassDigest, len(r.series))
	for i := range r.series {
		out[i] = digestOf(&r.series[i], r.roll.pct[i], i)
	}
	return out
}

// PerSuperPass returns the post-warmup digests (I post-warmup relative):
// the reference's per_super_pass (§11.1).
func (r *Result) PerSuperPass() []SuperPassDigest {
	out := make([]SuperPassDigest, len(r.post))
	for i := range r.post {
		out[i] = digestOf(&r.post[i], r.pct[i], i)
	}
	return out
}

// WholeRun returns the totals of the whole tracked run at the analysis's
// super-pass size (drain included): the assessment's Total under
// steadysweep; under the reference (which reports none) computed on first
// use and memoised on the run. Nil on the NATL path of the reference.
func (r *Result) WholeRun() *Totals {
	if r.Assessment != nil && r.Assessment.Total != nil {
		t := *r.Assessment.Total
		return &t
	}
	if r.roll == nil {
		return nil
	}
	t := r.run.wholeStats(r.roll).totals
	return &t
}

// SuperPasses returns the digest of every super-pass of the run at
// super-pass size S (I absolute), from the run's rollup.
func (run *Run) SuperPasses(S int) ([]SuperPassDigest, error) {
	if S <= 0 {
		return nil, ErrSuperpassSize
	}
	r := run.rollup(S)
	out := make([]SuperPassDigest, len(r.sps))
	for i := range r.sps {
		out[i] = digestOf(&r.sps[i], r.pct[i], i)
	}
	return out, nil
}
