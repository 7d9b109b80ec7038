package calibrate

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// ClassScore is one config's score over the runs of one truth class (the
// truth's preset name, synth.Truth.Name): the head-to-head table's cell.
type ClassScore struct {
	// Runs are the scored rows of the class; PlateauRuns those whose
	// truth plants a plateau (found_no_min_duration), FoundPlateau of
	// them found; Found counts every found row (on a class without a
	// plateau, each is a false find).
	Runs, PlateauRuns, FoundPlateau, Found int
	// ErrN rows have a TPOT error (the package doc's definition);
	// ErrMedian and ErrP95 are its quantiles.
	ErrN              int
	ErrMedian, ErrP95 float64
	// ConfidentWrong counts the class's confident-but-wrong rows.
	ConfidentWrong int
	// Shifts counts rows reporting a level shift (anomaly_detected),
	// Drifts rows whose verdict is drifting_up or drifting_down.
	Shifts, Drifts int

	errs []float64
}

// addClass scores row r (scored, truth t) into c's class table; relErr
// is its TPOT error (NaN when none) and wrong whether it is
// confident-but-wrong.
func (c *ConfigScore) addClass(r *row, t *synth.Truth, relErr float64, wrong bool) {
	if c.ByClass == nil {
		c.ByClass = map[string]*ClassScore{}
	}
	k := c.ByClass[classOf(t)]
	if k == nil {
		k = &ClassScore{}
		c.ByClass[classOf(t)] = k
	}
	k.Runs++
	if hasPlateau(t) {
		k.PlateauRuns++
		if r.Found {
			k.FoundPlateau++
		}
	}
	if r.Found {
		k.Found++
	}
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

// suiteName is a run name of synth.AccuracySuite: NNN_CLASS_cC_nN or
// NNN_CLASS_qQPS_nN.
var suiteName = regexp.MustCompile(`^\d{3}_(.+)_(c\d+|q[0-9.]+)_n\d+$`)

// classOf is t's truth class: the class of an accuracy-suite run (its
// name without the index and sizes), else the truth's name (synth's
// preset for GenerateCorpus runs).
func classOf(t *synth.Truth) string {
	if m := suiteName.FindStringSubmatch(t.Name); m != nil {
		return m[1]
	}
	return t.Name
}

// finishClasses computes the class quantiles.
func (c *ConfigScore) finishClasses() {
	for _, k := range c.ByClass {
		k.ErrN = len(k.errs)
		k.ErrMedian, k.ErrP95 = Quantile(k.errs, 0.5), Quantile(k.errs, 0.95)
	}
}

// Classes returns the truth classes scored by any config, sorted.
func (r *Report) Classes() []string {
	var out []string
	for i := range r.Configs {
		for name := range r.Configs[i].ByClass {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// DetectorName names config c in the head-to-head table: the preset it
// equals (Report.Presets), else its label.
func (r *Report) DetectorName(c *ConfigScore) string {
	var names []string
	for name, id := range r.Presets {
		if id == c.ConfigID {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return c.Label
	}
	slices.Sort(names)
	return strings.Join(names, " = ")
}

// presetNamed reports whether a preset names c.
func (r *Report) presetNamed(c *ConfigScore) bool {
	for _, id := range r.Presets {
		if id == c.ConfigID {
			return true
		}
	}
	return false
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

// headToHead are the head-to-head table's configs: those a preset names,
// and the recommended one, in rank order.
func (r *Report) headToHead() []*ConfigScore {
	var out []*ConfigScore
	for i := range r.Configs {
		c := &r.Configs[i]
		if c.ConfigID == r.Recommended || r.presetNamed(c) {
			out = append(out, c)
		}
	}
	return out
}

// headToHeadTable is the per-class table: a row per truth class and
// detector (headToHead), with the class's found share on planted
// plateaus, its TPOT error quantiles, confident-but-wrong, level-shift
// and drift counts.
func (r *Report) headToHeadTable() htmlpage.CalibrationTable {
	t := htmlpage.CalibrationTable{Caption: "per truth class, detectors in rank order", Align: "llrrrrrr",
		Head: []string{"class", "detector", "runs", "found (plateau runs)", "TPOT err p50", "TPOT err p95",
			"confident-but-wrong", "shifts / drifts"}}
	cs := r.headToHead()
	for _, class := range r.Classes() {
		for _, c := range cs {
			k := c.ByClass[class]
			if k == nil {
				continue
			}
			found := fmt.Sprintf("%d/%d", k.FoundPlateau, k.PlateauRuns)
			if k.PlateauRuns == 0 {
				found = fmt.Sprintf("— (%d found)", k.Found)
			}
			t.Rows = append(t.Rows, []string{class, r.DetectorName(c), strconv.Itoa(k.Runs), found,
				pct(k.ErrMedian), pct(k.ErrP95), strconv.Itoa(k.ConfidentWrong),
				fmt.Sprintf("%d / %d", k.Shifts, k.Drifts)})
		}
	}
	return t
}

// writeHeadToHead writes the head-to-head table as Markdown.
func (r *Report) writeHeadToHead(p func(string, ...any)) {
	t := r.headToHeadTable()
	if len(t.Rows) == 0 {
		return
	}
	p("## Head-to-head by truth class\n\n%s\n\n", headToHeadText)
	p("| %s |\n|", strings.Join(t.Head, " | "))
	for i := range t.Head {
		if t.Align[i] == 'r' {
			p("---:|")
		} else {
			p("---|")
		}
	}
	p("\n")
	for _, row := range t.Rows {
		p("| %s |\n", strings.Join(row, " | "))
	}
	p("\n")
}

// headToHeadText explains the head-to-head table.
const headToHeadText = "The detectors a preset names (the peers' methods among them: aiperf, vllm-bench, sglang, guidellm) " +
	"and the recommended config, on each truth class (the truth's preset). found: rows found among the class's runs " +
	"with a planted plateau (— when it plants none; then every find is false); TPOT err: |window TPOT p50 − planted| / " +
	"planted, as in the ranking; confident-but-wrong: found and wrong by the ranking's rule; shifts: rows reporting a " +
	"level shift (anomaly_detected); drifts: rows with verdict drifting_up or drifting_down. A peer's window is judged " +
	"by steadysweep's assessment like every baseline: found is false when that window drifts."
