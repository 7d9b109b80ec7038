package calibration

import (
	"math"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/sinks"
)

// Report is a calibration: every config's score, ranked, and the
// recommendation.
type Report struct {
	// Out is the sweep output directory read.
	Out string
	// Intro is Markdown printed under the report's title (the corpus,
	// the sweep); empty for none.
	Intro string
	// Configs are the scores, best first (Rank 1 first).
	Configs []ConfigScore
	// Recommended is the config_id of the first-ranked config; Why says
	// what ranked it first and how it compares with the presets.
	Recommended string
	Why         string
	// Axes are the parameters whose values differ between configs, in
	// core.Names() order.
	Axes []string
	// Presets maps a preset name ("default", "reference", and the same
	// with "/no-min-duration" for min_duration=false) to the config_id
	// that has exactly its parameters, when the sweep ran it.
	Presets map[string]string

	// Rows is the number of rows read; Runs the number of distinct runs.
	Rows, Runs int
	// NoTruthRuns are the runs skipped for lack of a truth.json (their
	// paths, sorted); BadTruth maps runs whose truth.json could not be
	// read to the error (also skipped).
	NoTruthRuns []string
	BadTruth    map[string]string
	// ErrorRuns are the runs with at least one status=error row.
	ErrorRuns []ErrorRun

	// Stops are the "could have stopped" totals per model and concurrency
	// under config StopsConfig (stopTotals); empty for rows without the
	// stop columns.
	Stops       []StopTotal
	StopsConfig string

	// ReportPath, PlotPath, ParquetPath and HTMLPath are the files written
	// ("" when skipped).
	ReportPath, PlotPath, ParquetPath, HTMLPath string
}

// ErrorRun is a run whose analysis failed under some configs.
type ErrorRun struct {
	RunPath string
	// Configs is the number of configs with an error row; Reason the
	// first row's reason.
	Configs int
	Reason  string
}

// Config returns the score of config id (nil when absent).
func (r *Report) Config(id string) *ConfigScore {
	for i := range r.Configs {
		if r.Configs[i].ConfigID == id {
			return &r.Configs[i]
		}
	}
	return nil
}

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
	// largest TPOT errors; each largest error first, at most MaxListed.
	Wrong, Worst []RowError
}

// Disagreement is a kind of disagreement with truth: runs of a preset
// whose truth label and row label differ (without the gate's leniency).
type Disagreement struct{ Preset, Truth, Label string }

// ConfusionCount returns the count of scored rows with truth label want
// and row label pred (0 for labels outside the vocabulary).
func (c *ConfigScore) ConfusionCount(want, pred string) int {
	i, j := slices.Index(TruthLabels, want), slices.Index(PredLabels, pred)
	if i < 0 || j < 0 {
		return 0
	}
	return c.Confusion[i][j]
}

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

// RowError is one scored row kept for the report's lists: what truth
// planted and what the row reported.
type RowError struct {
	RunPath string
	// Truth is expected_verdict.verdict, Preset the run's synth preset
	// (truth name), Label the row's label.
	Truth, Preset, Label string
	Found                bool
	// WindowStart and WindowEnd are the row's window (absolute
	// super-passes of its size, end inclusive; −1 none).
	WindowStart, WindowEnd int
	// PlantedNs is the planted TPOT level of the window, TPOTNs the row's
	// steady TPOT p50, Err their relative difference (NaN when either is
	// missing).
	PlantedNs, TPOTNs, Err float64
}

// errPct formats a relative error as a percentage for the lists.
func errPct(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return pct(x)
}

// StopTotal is sinks.StopTotal: the sweep page shows the same totals.
type StopTotal = sinks.StopTotal

// Labels of a row's outcome that truth never uses.
const (
	// LabelShort: admissible plateaus exist but all are shorter than the
	// min-duration floor (status insufficient_duration).
	LabelShort = "short"
	// LabelError: the run could not be analysed (status error).
	LabelError = "error"
)

// TruthLabels are synth's expected verdicts, in report order.
var TruthLabels = []string{"steady", "anomaly", "drifting_up", "drifting_down", "not_found",
	"insufficient_passes", "partial_dataset", "not_supported"}

// PredLabels are the labels a scored row can get, in report order:
// TruthLabels and LabelShort (a literal, laid out by the linker, not
// appended at every start; TestPredLabels holds them to it).
var PredLabels = []string{"steady", "anomaly", "drifting_up", "drifting_down", "not_found",
	"insufficient_passes", "partial_dataset", "not_supported", LabelShort}
