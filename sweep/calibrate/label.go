package calibrate

import "github.com/steadysweep/steadysweep/core"

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

// PredLabels are the labels a scored row can get, in report order.
var PredLabels = append(append([]string(nil), TruthLabels...), LabelShort)

// Label maps a row's status and verdict to the truth vocabulary (see the
// package doc's table). An unknown verdict is returned unchanged.
func Label(status, verdict string) string {
	switch core.Status(status) {
	case core.StatusError:
		return LabelError
	case core.StatusPartialDataset, core.StatusInsufficientPasses, core.StatusNotSupported:
		return status
	case core.StatusInsufficientDuration:
		return LabelShort
	}
	switch core.Verdict(verdict) {
	case core.VerdictSteadyState:
		return "steady"
	case core.VerdictNotFound:
		return "not_found"
	case core.VerdictAnomaly, core.VerdictDriftingUp, core.VerdictDriftingDown:
		return verdict
	}
	return verdict
}

// agrees reports whether a row labelled pred agrees with truth label
// want (package doc, "Verdict vocabulary"). gated is the config's
// min_duration; gateOnly is true when truth's plateau is rejected only by
// the min-duration gate (found_no_min_duration and not found).
func agrees(pred, want string, gated, gateOnly bool) bool {
	if pred == want {
		return true
	}
	return gated && gateOnly && (want == "steady" || want == "anomaly") &&
		(pred == LabelShort || pred == "not_found")
}
