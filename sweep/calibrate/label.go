package calibrate

import (
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// Label maps a row's status and verdict to the truth vocabulary (see the
// package doc's table). An unknown verdict is returned unchanged.
func Label(status, verdict string) string {
	switch core.Status(status) {
	case core.StatusError:
		return calibration.LabelError
	case core.StatusPartialDataset, core.StatusInsufficientPasses, core.StatusNotSupported:
		return status
	case core.StatusInsufficientDuration:
		return calibration.LabelShort
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
		(pred == calibration.LabelShort || pred == "not_found")
}
