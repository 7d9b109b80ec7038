package calibrate

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// configAcc accumulates one config's score over its rows: the record
// (calibration.ConfigScore, what the report renders) and the samples its
// quantiles are taken over once every row is in (finish).
type configAcc struct {
	calibration.ConfigScore
	errs, plateauErrs, starts []float64
	// byClass accumulates ByClass (classes.go).
	byClass map[string]*classAcc
}

// newConfigScore returns an empty score for the config of r.
func newConfigScore(r *row) *configAcc {
	c := &configAcc{ConfigScore: calibration.ConfigScore{ConfigID: r.ConfigID, Params: r.Params, MinDuration: r.Params["min_duration"] == "true",
		Disagreements: map[calibration.Disagreement]int{}, WrongByPreset: map[string]int{}}}
	c.Confusion = make([][]int, len(calibration.TruthLabels))
	for i := range c.Confusion {
		c.Confusion[i] = make([]int, len(calibration.PredLabels))
	}
	return c
}

// add scores one row; t is its run's truth (nil: none).
func (c *configAcc) add(r *row, t *synth.Truth) {
	c.Rows++
	pred := Label(r.Status, r.Verdict)
	if pred == calibration.LabelError {
		c.Errors++
		return
	}
	if t == nil {
		c.NoTruth++
		return
	}
	c.Scored++
	ev := t.ExpectedVerdict
	ti, pj := slices.Index(calibration.TruthLabels, ev.Verdict), slices.Index(calibration.PredLabels, pred)
	if ti >= 0 && pj >= 0 {
		c.Confusion[ti][pj]++
	} else {
		c.Other++
	}
	if agrees(pred, ev.Verdict, c.MinDuration, ev.FoundNoMinDuration && !ev.Found) {
		c.Agree++
	} else {
		c.Disagreements[calibration.Disagreement{Preset: t.Name, Truth: ev.Verdict, Label: pred}]++
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
	tallyFound(t, r.Found, &c.PlateauRuns, &c.FoundPlateau, &c.Found)

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
	wrong := r.Found && (noSteadyState(t) || relErr > calibration.MaxErr)
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
	case relErr > calibration.MaxErr:
	default:
		return
	}
	c.ConfidentWrong++
	c.WrongByPreset[t.Name]++
	c.Wrong = keepWorst(c.Wrong, rowError(r, t, planted, relErr))
}

// finish computes the rates and quantiles.
func (c *configAcc) finish() {
	c.AgreeRate = ratio(c.Agree, c.Scored)
	c.FoundRate = ratio(c.FoundEligible, c.Eligible)
	c.PlateauFoundRate = ratio(c.FoundPlateau, c.PlateauRuns)
	c.ConfidentWrongRate = ratio(c.ConfidentWrong, c.Found)
	c.ErrN = len(c.errs)
	c.ErrMedian, c.ErrP95 = calibration.Quantile(c.errs, 0.5), calibration.Quantile(c.errs, 0.95)
	c.PlateauErrN = len(c.plateauErrs)
	c.PlateauErrMedian, c.PlateauErrP95 = calibration.Quantile(c.plateauErrs, 0.5), calibration.Quantile(c.plateauErrs, 0.95)
	c.StartN = len(c.starts)
	c.StartErrMedian = calibration.Quantile(c.starts, 0.5)
	abs := make([]float64, len(c.starts))
	for i, d := range c.starts {
		abs[i] = math.Abs(d)
	}
	c.StartAbsErrMedian = calibration.Quantile(abs, 0.5)
	c.finishClasses()
}

func ratio(num, den int) float64 {
	if den == 0 {
		return math.NaN()
	}
	return float64(num) / float64(den)
}
