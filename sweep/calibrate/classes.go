package calibrate

import (
	"math"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// classAcc accumulates one config's score on one truth class: the
// record (calibration.ClassScore) and its TPOT errors.
type classAcc struct {
	calibration.ClassScore
	errs []float64
}

// tallyFound counts a scored row into the tallies both a config's and a
// class's score keep: the runs whose truth plants a plateau, how many of
// those were found, and how many were found at all.
func tallyFound(t *synth.Truth, found bool, plateauRuns, foundPlateau, foundAll *int) {
	if hasPlateau(t) {
		*plateauRuns++
		if found {
			*foundPlateau++
		}
	}
	if found {
		*foundAll++
	}
}

// addClass scores row r (scored, truth t) into c's class table; relErr
// is its TPOT error (NaN when none) and wrong whether it is
// confident-but-wrong.
func (c *configAcc) addClass(r *row, t *synth.Truth, relErr float64, wrong bool) {
	if c.byClass == nil {
		c.byClass = map[string]*classAcc{}
	}
	k := c.byClass[classOf(t)]
	if k == nil {
		k = &classAcc{}
		c.byClass[classOf(t)] = k
	}
	k.Runs++
	tallyFound(t, r.Found, &k.PlateauRuns, &k.FoundPlateau, &k.Found)
	if !math.IsNaN(relErr) {
		k.errs = append(k.errs, relErr)
	}
	if wrong {
		k.ConfidentWrong++
	}
	if r.Shift {
		k.Shifts++
	}
	if v := r.Verdict; v == string(core.VerdictDriftingUp) || v == string(core.VerdictDriftingDown) {
		k.Drifts++
	}
}

// classOf is t's truth class: the class of an accuracy-suite run (its
// name without the index and sizes), else the truth's name (synth's
// preset for GenerateCorpus runs).
func classOf(t *synth.Truth) string {
	if class, ok := suiteClass(t.Name); ok {
		return class
	}
	return t.Name
}

// finishClasses computes the class quantiles.
func (c *configAcc) finishClasses() {
	if c.byClass == nil {
		return
	}
	c.ByClass = make(map[string]*calibration.ClassScore, len(c.byClass))
	for name, k := range c.byClass {
		k.ErrN = len(k.errs)
		k.ErrMedian, k.ErrP95 = calibration.Quantile(k.errs, 0.5), calibration.Quantile(k.errs, 0.95)
		c.ByClass[name] = &k.ClassScore
	}
}

// methodPresets are the sweep presets that differ from the default only
// in core.Params.Method (the peer baselines and detectors), by name.
func methodPresets() map[string]core.Params {
	out := map[string]core.Params{}
	for _, m := range core.Methods() {
		if m == core.MethodSteady {
			continue
		}
		p := core.DefaultParams()
		p.Method = m
		out[string(m)] = p
	}
	return out
}

// presetIDs adds to ids the configs of cs equal to a method preset.
func presetIDs(ids map[string]string, byID map[string]bool) {
	for name, p := range methodPresets() {
		if id := sinks.ConfigID(p); byID[id] {
			ids[name] = id
		}
	}
}
