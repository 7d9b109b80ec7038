package core

import (
	"errors"
	"fmt"
)

// Params holds every tunable of the detector. The zero value is not
// useful: start from DefaultParams or ReferenceParams and change fields.
// Every field is sweepable by its name in the parameter table
// (params_text.go: ParamSpecs, Names), the one description of Params.
type Params struct {
	// Compat is CompatSteadysweep (our detector, the default) or
	// CompatReference (exactly the behaviour of the reference at 40b78bfe).
	Compat Compat
	// Method is MethodSteady (the steady-state detector) or a peer
	// baseline (baselines.go).
	Method Method
	// Profile forces a workload profile (ProfileNames); "" derives it from
	// the run.
	Profile string
	// SuperpassSize overrides the super-pass size; 0 uses the dataset size
	// (agentic: trajectories per super-pass, 0 = 32).
	SuperpassSize int

	// WarmupMode is WarmupAuto (adaptive crop) or WarmupFixed (WarmupFixed
	// super-passes).
	WarmupMode  WarmupMode
	WarmupFixed int
	// WarmupBand is the auto-warmup tolerance: leading super-passes whose
	// driver metric is off the back-half median by more than this relative
	// amount are cropped.
	WarmupBand float64
	// WarmupMaxFrac caps the auto crop at this fraction of the series.
	WarmupMaxFrac float64
	// WarmupDriver is the metric driving auto warmup (one of MetricKeys).
	WarmupDriver string

	// WindowSizes are the diagnostic window sizes (super-passes).
	WindowSizes []int
	// CovBounds are the CoV bounds; admissibility uses the loosest.
	// Empty means the profile's default.
	CovBounds []float64
	// TrendGate is the trend test gating admissibility.
	TrendGate TrendGate
	// Alpha is the significance level of every test.
	Alpha float64
	// TrendRelDriftMin is the effect-size floor: a significant trend
	// breaks a window only if its relative drift is at least this.
	TrendRelDriftMin float64
	// MinTrendN is the minimum number of points for a trend test and the
	// minimum plateau length in super-passes.
	MinTrendN int

	// MinDuration enforces the minimum-duration gate.
	MinDuration bool
	// MinDurEps is the precision target ε of k* = ⌈(1.96·CoV/ε)²⌉.
	MinDurEps float64
	// MinDurRelaxMult multiplies the p90 e2e latency (relaxation term).
	MinDurRelaxMult float64
	// MinDurFloorS is the wall-time floor in seconds; 0 takes
	// min(DefaultMinDurFloorS, the run's configured minimum duration)
	// (RunInfo.MinDurationS, config.yaml's min_duration_ms) when it has
	// one, else DefaultMinDurFloorS
	// (MinDurFloor resolves it; Result.MinDurFloorS is the one used).
	MinDurFloorS float64
	// MinDurKstarFloor is the k* floor and precision exemption.
	MinDurKstarFloor int

	// LevelShiftBand is the relative TPOT difference that makes a later
	// plateau a level shift (strict >).
	LevelShiftBand float64

	// DriftGuard withdraws a certified window when a gating metric drifts
	// from the window's start to the run's end, or over the whole run when
	// the warmup crop never settled (driftguard.go; deviation D14).
	DriftGuard bool
	// TailShift flags a short tail after the reported plateau whose TPOT
	// level differs from the plateau's (levelshift.go; deviation D15): at
	// least TailShiftMinSP full super-passes beyond ±LevelShiftBand on one
	// side, TailShiftSDs residual standard deviations away.
	TailShift      bool
	TailShiftMinSP int
	TailShiftSDs   float64
	// WindowStart is how the reported window's settling head is trimmed:
	// WindowStartMSER (the MSER knee, deviation D12) or WindowStartHead
	// (the head test, deviation D16): leading super-passes are dropped while
	// the first one's TPOT mean is off the median of the rest by more than
	// HeadTrimZ robust SDs and HeadTrimMinRel, at most HeadTrimMaxFrac of
	// the window (windowstart.go).
	WindowStart     WindowStart
	HeadTrimZ       float64
	HeadTrimMinRel  float64
	HeadTrimMaxFrac float64

	// TailCutEps and TailCutDelta guard the drain-tail cut (design §5.4):
	// the cut applies iff σ/μ ≤ ε and |μ − m|/μ ≤ δ of per-sample ITL.
	TailCutEps   float64
	TailCutDelta float64

	// FixedWarmupPct and FixedCooldownPct are the fixed-pct baseline's
	// crops, as percentages of the tracked samples.
	FixedWarmupPct   float64
	FixedCooldownPct float64

	// SubmissionMinDurationS is the region minimum duration of the
	// submission block's window (seconds); 0 uses the default by
	// concurrency: 600 s, or 1200 s above concurrency 32.
	SubmissionMinDurationS float64
}

// ReferenceParams returns the reference CLI's defaults (detector spec §2.8,
// §14) with Compat "reference". The fields the reference lacks (the drift
// guard, the short-tail shift, the window start, the tail cut, the
// baselines' crops) hold steadysweep's defaults, inert under the
// reference, so the two presets differ in Compat only. The window start
// is the head test: on the 47 scored genuine plateaus of suite seeds 11
// and 12 its median |TPOT error| is 0.124 % against MSER's 0.129 %, the
// signed median +0.004 % against −0.051 % (docs/deviations.md D16).
func ReferenceParams() Params {
	return Params{
		Compat:           CompatReference,
		Method:           MethodSteady,
		WarmupMode:       WarmupAuto,
		WarmupBand:       0.05,
		WarmupMaxFrac:    0.5,
		WarmupDriver:     "tpot_p50",
		WindowSizes:      []int{4, 6, 8},
		TrendGate:        TrendMKHamedRao,
		Alpha:            0.05,
		TrendRelDriftMin: 0.05,
		MinTrendN:        4,
		MinDuration:      true,
		MinDurEps:        0.05,
		MinDurRelaxMult:  5.0,
		MinDurFloorS:     600.0,
		MinDurKstarFloor: 4,
		LevelShiftBand:   0.05,
		DriftGuard:       true,
		TailShift:        true,
		TailShiftMinSP:   2,
		TailShiftSDs:     3,
		WindowStart:      WindowStartHead,
		HeadTrimZ:        2,
		HeadTrimMinRel:   0.005,
		HeadTrimMaxFrac:  0.25,
		TailCutEps:       0.05,
		TailCutDelta:     0.05,
		FixedWarmupPct:   10,
		FixedCooldownPct: 10,
	}
}

// DefaultParams returns steadysweep's own defaults: the reference's
// numbers with our detector behaviour, and the min-duration floor taken
// from the run's own configured minimum duration (the reference always
// uses 600 s).
func DefaultParams() Params {
	p := ReferenceParams()
	p.Compat = CompatSteadysweep
	p.MinDurFloorS = 0
	return p
}

// Validate reports every invalid field, naming it and the valid choices.
func (p Params) Validate() error {
	var errs []error
	check := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	nonNeg := func(name string, v float64) {
		if !(v >= 0) {
			errs = append(errs, fmt.Errorf("%s: must be ≥ 0, got %v", name, v))
		}
	}
	positive := func(name string, v float64) {
		if !(v > 0) {
			errs = append(errs, fmt.Errorf("%s: must be > 0, got %v", name, v))
		}
	}
	atLeast := func(name string, v, lo int) {
		if v < lo {
			errs = append(errs, fmt.Errorf("%s: must be ≥ %d, got %d", name, lo, v))
		}
	}
	_, err := ParseCompat(string(p.Compat))
	check(err)
	_, err = ParseMethod(string(p.Method))
	check(err)
	if p.Profile != "" {
		// "" (derive from the run) is valid but no name to offer.
		_, err = parseEnum("profile", p.Profile, ProfileNames())
		check(err)
	}
	_, err = ParseWarmupMode(string(p.WarmupMode))
	check(err)
	if MetricIndex(p.WarmupDriver) < 0 { // the key list only for the error (Validate runs per analysis)
		_, err = parseEnum("warmup_driver", p.WarmupDriver, MetricKeys())
		check(err)
	}
	_, err = ParseTrendGate(string(p.TrendGate))
	check(err)
	if p.SuperpassSize < 0 {
		errs = append(errs, fmt.Errorf("superpass_size: must be ≥ 0 (0 = dataset size), got %d", p.SuperpassSize))
	}
	atLeast("warmup_fixed", p.WarmupFixed, 0)
	nonNeg("warmup_band", p.WarmupBand)
	if !(p.WarmupMaxFrac >= 0 && p.WarmupMaxFrac <= 1) {
		errs = append(errs, fmt.Errorf("warmup_max_frac: must be in [0, 1], got %v", p.WarmupMaxFrac))
	}
	if len(p.WindowSizes) == 0 {
		errs = append(errs, errors.New("window_sizes: need at least one size"))
	}
	for _, w := range p.WindowSizes {
		if w < 1 {
			errs = append(errs, fmt.Errorf("window_sizes: sizes must be ≥ 1, got %d", w))
		}
	}
	for _, b := range p.CovBounds {
		if !(b > 0) {
			errs = append(errs, fmt.Errorf("cov_bounds: bounds must be > 0, got %v", b))
		}
	}
	if !(p.Alpha > 0 && p.Alpha < 1) {
		errs = append(errs, fmt.Errorf("alpha: must be in (0, 1), got %v", p.Alpha))
	}
	nonNeg("trend_rel_drift_min", p.TrendRelDriftMin)
	atLeast("min_trend_n", p.MinTrendN, 3)
	positive("min_dur_eps", p.MinDurEps)
	nonNeg("min_dur_relax_mult", p.MinDurRelaxMult)
	nonNeg("min_dur_floor_s", p.MinDurFloorS)
	atLeast("min_dur_kstar_floor", p.MinDurKstarFloor, 1)
	nonNeg("level_shift_band", p.LevelShiftBand)
	atLeast("tail_shift_min_sp", p.TailShiftMinSP, 1)
	positive("tail_shift_sds", p.TailShiftSDs)
	_, err = ParseWindowStart(string(p.WindowStart))
	check(err)
	positive("head_trim_z", p.HeadTrimZ)
	nonNeg("head_trim_min_rel", p.HeadTrimMinRel)
	if !(p.HeadTrimMaxFrac >= 0 && p.HeadTrimMaxFrac < 1) {
		errs = append(errs, fmt.Errorf("head_trim_max_frac: must be in [0, 1), got %v", p.HeadTrimMaxFrac))
	}
	nonNeg("tail_cut_eps", p.TailCutEps)
	nonNeg("tail_cut_delta", p.TailCutDelta)
	nonNeg("submission_min_duration_s", p.SubmissionMinDurationS)
	if !(p.FixedWarmupPct >= 0 && p.FixedCooldownPct >= 0 && p.FixedWarmupPct+p.FixedCooldownPct < 100) {
		errs = append(errs, fmt.Errorf("fixed_warmup_pct + fixed_cooldown_pct: each ≥ 0 and together < 100, got %v + %v",
			p.FixedWarmupPct, p.FixedCooldownPct))
	}
	return errors.Join(errs...)
}
