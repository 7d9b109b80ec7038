package core

import (
	"errors"
	"fmt"
	"math"
	"sync"
)

// ErrSuperpassSize is returned when the super-pass size is unresolvable or
// not positive; the message is the reference CLI's usage error (exit 2).
var ErrSuperpassSize = errors.New("could not resolve dataset/super-pass size; pass --dataset-size or --superpass-size")

// Result is one analysis of a run. The window path fills everything but
// NATL; the agentic NATL path (Path "natl") fills only the header fields
// and NATL.
type Result struct {
	// Path is "window" or "natl".
	Path string
	// Profile is the workload profile used.
	Profile Profile
	// Params are the parameters of the analysis.
	Params Params
	// CovBounds are the effective CoV bounds in the given order
	// (duplicates kept, as the text report prints them).
	CovBounds []float64

	NSuperPasses  int
	SuperpassSize int
	Warmup        int
	WarmupMode    string
	NPostWarmup   int
	// Trajectories are the post-warmup trajectories of TrackedMetrics
	// (empty super-passes skipped).
	Trajectories [numMetrics][]float64
	Steady       SteadyState
	// PerSuperPass is the post-warmup per-super-pass digest.
	PerSuperPass []SuperPassDigest
	// NATL is the agentic result (Path "natl").
	NATL *NATLResult

	// Extra are additional top-level JSON keys appended after the
	// reference's keys by ReferenceJSON (beyond-reference additions).
	Extra JSONObject
	// Ours is steadysweep's beyond-reference analysis (ours_analyze.go);
	// nil under compat "reference".
	Ours *Ours

	all  []SuperPass // the full series
	post []SuperPass
	pct  []*spPercentiles // of post
	diag *lazyDiagnostics
}

// lazyDiagnostics computes the diagnostic tables on first use.
type lazyDiagnostics struct {
	once   sync.Once
	tables []WindowDiagnostics
}

// Diagnostics returns the per-window-size CoV and drift tables (detector
// spec §9) in first-occurrence order of the window sizes. They feed only
// the reference's JSON and text outputs, never the headline, so they are
// computed on first use (they cost far more than the headline: five trend
// tests on every rolling window of ten trajectories). Safe for concurrent
// use.
func (r *Result) Diagnostics() []WindowDiagnostics {
	if r.diag == nil {
		return nil
	}
	r.diag.once.Do(func() {
		r.diag.tables = diagnosticTables(&r.Trajectories, distinctWindowSizes(r.Params.WindowSizes),
			distinctBounds(r.CovBounds), r.Params.MinTrendN, r.Params.Alpha)
	})
	return r.diag.tables
}

// SuperPassDigest is one row of per_super_pass (§11.1): post-relative I and
// the per-super-pass p50/p90 of TTFT and TPOT (Has* false = JSON null).
type SuperPassDigest struct {
	I                                      int
	NIssued                                int
	OutTokens                              int64
	FirstIssueNs, LastIssueNs, LastEventNs int64
	HasTTFT, HasTPOT                       bool
	TTFTP50, TTFTP90, TPOTP50, TPOTP90     float64
}

// Post returns the post-warmup super-passes of the analysis.
func (r *Result) Post() []SuperPass { return r.post }

// SuperPasses returns the full super-pass series of the analysis.
func (r *Result) SuperPasses() []SuperPass { return r.all }

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

// Analyze runs the steady-state detector on a run's samples. Under the
// agentic profile it takes the NATL path (§13) like the reference CLI;
// otherwise it is AnalyzeRollups(Rollup(s, S), info, p) with S the resolved
// super-pass size. The error reports invalid parameters or an unresolvable
// super-pass size (ErrSuperpassSize); any input data yields a Result.
func Analyze(s *Samples, info RunInfo, p Params) (*Result, error) {
	return AnalyzeWithRollups(s, nil, info, p)
}

// AnalyzeWithRollups is Analyze with the run's rollups at the resolved
// super-pass size already built (sps = Rollup(s, S)), so that a sweep
// analysing one run under many parameter sets builds them once and the
// per-window memos keyed on them are shared; sps nil builds them. The
// result equals Analyze's.
func AnalyzeWithRollups(s *Samples, sps []SuperPass, info RunInfo, p Params) (*Result, error) {
	if p.Compat != "reference" {
		return analyzeOurs(s, sps, info, p)
	}
	if err := checkParams(p); err != nil {
		return nil, err
	}
	prof := resolveProfile(info, p)
	if prof.Path == "natl" {
		return analyzeNATL(s, prof, p), nil
	}
	S, err := superpassSize(info, p)
	if err != nil {
		return nil, err
	}
	if sps == nil {
		sps = Rollup(s, S)
	}
	return AnalyzeRollups(sps, info, p)
}

func checkParams(p Params) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("invalid parameters: %w", err)
	}
	if p.Method != "steady" {
		return fmt.Errorf("method %q is not implemented by the core detector", p.Method)
	}
	return nil
}

// AnalyzeRollups runs the window-path detector (§6–§10) on a super-pass
// series built by Rollup, whatever the profile (like the reference's
// library entry point run(); the profile still supplies the default CoV
// bounds). The series is not modified, so one Rollup can be analysed under
// many parameter sets concurrently.
func AnalyzeRollups(sps []SuperPass, info RunInfo, p Params) (*Result, error) {
	if p.Compat != "reference" {
		return analyzeOurs(nil, sps, info, p)
	}
	if err := checkParams(p); err != nil {
		return nil, err
	}
	S, err := superpassSize(info, p)
	if err != nil {
		return nil, err
	}
	prof := resolveProfile(info, p)
	r := &Result{Path: "window", Profile: prof, Params: p, SuperpassSize: S, all: sps,
		NSuperPasses: len(sps)}
	r.CovBounds = p.CovBounds
	if len(r.CovBounds) == 0 {
		r.CovBounds = prof.CovBounds
	}
	covMax := r.CovBounds[0] // Python max: a later bound replaces only if strictly greater
	for _, b := range r.CovBounds[1:] {
		if b > covMax {
			covMax = b
		}
	}

	pctAll := percentileTable(sps)
	if p.WarmupMode == "fixed" {
		r.Warmup, r.WarmupMode = p.WarmupFixed, "fixed"
	} else {
		driver := metricIndex(p.WarmupDriver)
		if driver < 0 {
			driver = metricIndex(prof.WarmupDriver)
		}
		r.Warmup = AutoWarmup(trajectory(pctAll, driver), p.WarmupBand, p.WarmupMaxFrac, p.MinTrendN, 1)
		r.WarmupMode = "auto"
	}
	if r.Warmup < len(sps) {
		r.post, r.pct = sps[r.Warmup:], pctAll[r.Warmup:]
	}
	r.NPostWarmup = len(r.post)
	for m := range TrackedMetrics {
		r.Trajectories[m] = trajectory(r.pct, m)
	}
	r.Steady = buildSteadyState(r.post, r.pct, p, covMax)
	r.PerSuperPass = make([]SuperPassDigest, len(r.post))
	for i := range r.post {
		sp, pc := &r.post[i], r.pct[i]
		r.PerSuperPass[i] = SuperPassDigest{I: i, NIssued: sp.NIssued, OutTokens: sp.OutTokens,
			FirstIssueNs: sp.FirstIssueNs, LastIssueNs: sp.LastIssueNs, LastEventNs: sp.LastEventNs,
			HasTTFT: pc.ok[mTTFTP50], HasTPOT: pc.ok[mTPOTP50],
			TTFTP50: pc.v[mTTFTP50], TTFTP90: pc.v[mTTFTP90], TPOTP50: pc.v[mTPOTP50], TPOTP90: pc.v[mTPOTP90]}
	}
	r.diag = &lazyDiagnostics{}
	return r, nil
}

// Caveat returns the profile's stderr caveat line ("[profile: NAME] NOTE")
// or "" (concurrency).
func (r *Result) Caveat() string { return r.Profile.Caveat() }

func nan() float64 { return math.NaN() }
