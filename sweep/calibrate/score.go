package calibrate

import (
	"math"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// MaxErr is the relative TPOT error above which a found result is
// confident-but-wrong.
const MaxErr = 0.05

// ConfigScore is one parameter set's calibration against truth (package
// doc, "Metrics per config"). Rates are NaN when their denominator is 0.
type ConfigScore struct {
	ConfigID string
	// Label names the config by its compat mode and its values on the
	// swept axes (Report.Axes), e.g. "steadysweep warmup_band=0.05".
	Label string
	// Params are every parameter's value as text, by core.Names() name.
	Params map[string]string
	// MinDuration is the config's min_duration gate.
	MinDuration bool

	// Rows is the number of rows of this config; Errors those with status
	// error; NoTruth those whose run has no (readable) truth.json; Scored
	// the others, which every metric below is computed over.
	Rows, Errors, NoTruth, Scored int

	// Confusion[i][j] counts scored rows with truth label TruthLabels[i]
	// and row label PredLabels[j]; Other counts row labels outside
	// PredLabels (an unknown verdict).
	Confusion [][]int
	Other     int
	// Agree counts rows agreeing with truth; AgreeRate = Agree / Scored.
	Agree     int
	AgreeRate float64

	// Eligible runs must be reported found under this config's gate;
	// FoundEligible of them are. FoundRate = FoundEligible / Eligible.
	Eligible, FoundEligible int
	FoundRate               float64
	// PlateauRuns have found_no_min_duration; FoundPlateau of them are
	// found. PlateauFoundRate = FoundPlateau / PlateauRuns.
	PlateauRuns, FoundPlateau int
	PlateauFoundRate          float64
	// Found counts found rows.
	Found int

	// ErrN rows reported a window and a steady TPOT with a planted level;
	// ErrMedian and ErrP95 are quantiles of their relative |error|.
	ErrN              int
	ErrMedian, ErrP95 float64
	// PlateauErrN, PlateauErrMedian and PlateauErrP95 are the same over
	// the runs with a planted plateau (found_no_min_duration) only: the
	// accuracy of the value where there is one to measure.
	PlateauErrN                     int
	PlateauErrMedian, PlateauErrP95 float64
	// ConfidentWrong found rows are wrong (error > MaxErr, or no steady
	// state in truth); ConfidentWrongRate = ConfidentWrong / Found. Of
	// them, FalseFound are found where truth has no steady state.
	ConfidentWrong, FalseFound int
	ConfidentWrongRate         float64

	// StartN found rows have a planted warmup end; StartErrMedian is the
	// median of window start − ⌈warmup end⌉ (truth super-passes),
	// StartAbsErrMedian the median of its absolute value.
	StartN                            int
	StartErrMedian, StartAbsErrMedian float64

	// Rank is the 1-based position in the ranking (package doc).
	Rank int

	// Disagreements counts the scored rows that disagree with truth by
	// (preset, truth label, row label); WrongByPreset the
	// confident-but-wrong rows by preset (truth name).
	Disagreements map[Disagreement]int
	WrongByPreset map[string]int

	// ByClass is the head-to-head table's row of this config: its score
	// on each truth class (classes.go).
	ByClass map[string]*ClassScore

	// Wrong are the confident-but-wrong rows, Worst the rows with the
	// largest TPOT errors; each largest error first, at most maxListed.
	Wrong, Worst []RowError

	errs, plateauErrs, starts []float64
}

// newConfigScore returns an empty score for the config of r.
func newConfigScore(r *row) *ConfigScore {
	c := &ConfigScore{ConfigID: r.ConfigID, Params: r.Params, MinDuration: r.Params["min_duration"] == "true",
		Disagreements: map[Disagreement]int{}, WrongByPreset: map[string]int{}}
	c.Confusion = make([][]int, len(TruthLabels))
	for i := range c.Confusion {
		c.Confusion[i] = make([]int, len(PredLabels))
	}
	return c
}

// add scores one row; t is its run's truth (nil: none).
func (c *ConfigScore) add(r *row, t *synth.Truth) {
	c.Rows++
	pred := Label(r.Status, r.Verdict)
	if pred == LabelError {
		c.Errors++
		return
	}
	if t == nil {
		c.NoTruth++
		return
	}
	c.Scored++
	ev := t.ExpectedVerdict
	ti, pj := indexOf(TruthLabels, ev.Verdict), indexOf(PredLabels, pred)
	if ti >= 0 && pj >= 0 {
		c.Confusion[ti][pj]++
	} else {
		c.Other++
	}
	if agrees(pred, ev.Verdict, c.MinDuration, ev.FoundNoMinDuration && !ev.Found) {
		c.Agree++
	} else {
		c.Disagreements[Disagreement{Preset: t.Name, Truth: ev.Verdict, Label: pred}]++
	}
	eligible := ev.FoundNoMinDuration
	if c.MinDuration {
		eligible = ev.Found
	}
	if eligible {
		c.Eligible++
		if r.Found {
			c.FoundEligible++
		}
	}
	if hasPlateau(t) {
		c.PlateauRuns++
		if r.Found {
			c.FoundPlateau++
		}
	}
	if r.Found {
		c.Found++
	}

	planted, relErr := math.NaN(), math.NaN()
	if r.WindowStart >= 0 && r.WindowEnd >= r.WindowStart {
		lo, hi := truthSPs(t, r.WindowStart, r.WindowEnd, r.SuperpassSize)
		planted, _ = plantedTPOTNs(t, lo, hi)
	}
	if !math.IsNaN(planted) && !math.IsNaN(r.TPOTP50Ns) {
		relErr = math.Abs(r.TPOTP50Ns-planted) / planted
		c.errs = append(c.errs, relErr)
		if hasPlateau(t) {
			c.plateauErrs = append(c.plateauErrs, relErr)
		}
		c.Worst = keepWorst(c.Worst, rowError(r, t, planted, relErr))
	}
	wrong := r.Found && (noSteadyState(t) || relErr > MaxErr)
	c.addClass(r, t, relErr, wrong)
	if !r.Found {
		return
	}
	if hasPlateau(t) && t.Planted.WarmupEndSP != nil && r.WindowStart >= 0 {
		d := startTruthSP(t, r.WindowStart, r.SuperpassSize) - math.Ceil(*t.Planted.WarmupEndSP)
		c.starts = append(c.starts, d)
	}
	switch {
	case noSteadyState(t):
		c.FalseFound++
	case relErr > MaxErr:
	default:
		return
	}
	c.ConfidentWrong++
	c.WrongByPreset[t.Name]++
	c.Wrong = keepWorst(c.Wrong, rowError(r, t, planted, relErr))
}

// finish computes the rates and quantiles.
func (c *ConfigScore) finish() {
	c.AgreeRate = ratio(c.Agree, c.Scored)
	c.FoundRate = ratio(c.FoundEligible, c.Eligible)
	c.PlateauFoundRate = ratio(c.FoundPlateau, c.PlateauRuns)
	c.ConfidentWrongRate = ratio(c.ConfidentWrong, c.Found)
	c.ErrN = len(c.errs)
	c.ErrMedian, c.ErrP95 = Quantile(c.errs, 0.5), Quantile(c.errs, 0.95)
	c.PlateauErrN = len(c.plateauErrs)
	c.PlateauErrMedian, c.PlateauErrP95 = Quantile(c.plateauErrs, 0.5), Quantile(c.plateauErrs, 0.95)
	c.StartN = len(c.starts)
	c.StartErrMedian = Quantile(c.starts, 0.5)
	abs := make([]float64, len(c.starts))
	for i, d := range c.starts {
		abs[i] = math.Abs(d)
	}
	c.StartAbsErrMedian = Quantile(abs, 0.5)
	c.finishClasses()
}

// Disagreement is a kind of disagreement with truth: runs of a preset
// whose truth label and row label differ (without the gate's leniency).
type Disagreement struct{ Preset, Truth, Label string }

// ConfusionCount returns the count of scored rows with truth label want
// and row label pred (0 for labels outside the vocabulary).
func (c *ConfigScore) ConfusionCount(want, pred string) int {
	i, j := indexOf(TruthLabels, want), indexOf(PredLabels, pred)
	if i < 0 || j < 0 {
		return 0
	}
	return c.Confusion[i][j]
}

func ratio(num, den int) float64 {
	if den == 0 {
		return math.NaN()
	}
	return float64(num) / float64(den)
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
