// Package submission renders the steady_state block that MLPerf endpoints
// submitters hand to MLCommons' tooling (core.Submission): the point.yaml
// mapping (WritePointYAML), the block as a JSON object (Block), and the
// endpoints result summary with the block and the early-stopping maps
// added (Augment).
package submission

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// ErrNoBlock is returned for a result of the reference compat, which
// computes no submission block or early stopping.
var ErrNoBlock = errors.New("the reference compat computes no submission block or early stopping; use --compat steadysweep")

// Finite maps NaN and ±Inf to 0 (the block never carries them).
func Finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// Block is the submission block as an ordered JSON object (never null, no
// NaN): status, verdict, window, state, and anomaly for a level shift.
func Block(s core.Submission) pyjson.Object {
	window, state := pyjson.Object{}, pyjson.Object{}
	if s.HasWindow {
		window = pyjson.Object{
			{Key: "super_pass_start", Value: s.Window.SuperPassStart}, {Key: "super_pass_end", Value: s.Window.SuperPassEnd},
			{Key: "super_pass_size", Value: s.Window.SuperPassSize}, {Key: "n_samples", Value: s.Window.NSamples},
			{Key: "duration_s", Value: Finite(s.Window.DurationS)},
		}
	}
	if hasState(s) {
		state = pyjson.Object{{Key: "tpot_p50", Value: string(s.StateTPOTP50)}, {Key: "tpot_p90", Value: string(s.StateTPOTP90)}}
	}
	obj := pyjson.Object{{Key: "status", Value: string(s.Status)}, {Key: "verdict", Value: string(s.Verdict)},
		{Key: "window", Value: window}, {Key: "state", Value: state}}
	if a := s.Anomaly; a != nil {
		pls := make([]any, len(a.Plateaus))
		for i, pl := range a.Plateaus {
			pls[i] = []int{pl[0], pl[1]}
		}
		obj = append(obj, pyjson.Field{Key: "anomaly", Value: pyjson.Object{
			{Key: "change_point_super_pass", Value: a.ChangePointSuperPass}, {Key: "delta_pct", Value: Finite(a.DeltaPct)},
			{Key: "plateaus", Value: pls},
		}})
	}
	return obj
}

// hasState reports a block with gating states: every block with a window,
// and a drifting window's block, which drops the window but keeps them.
func hasState(s core.Submission) bool {
	return s.HasWindow || s.StateTPOTP50 != "" && s.StateTPOTP90 != ""
}

// WritePointYAML writes the submission block of r as point.yaml's
// "steady_state:" mapping, keys in a fixed order, two-space indentation,
// ending with a newline. Without a window, window is "{}", and so is state
// unless the block keeps a drifting window's states.
// Under compat reference (no block) it writes nothing.
func WritePointYAML(w io.Writer, r *core.Result) error {
	if r == nil || r.Assessment == nil {
		return nil
	}
	_, err := io.WriteString(w, PointYAML(r.Assessment.Submission))
	return err
}

// PointYAML is the block s as point.yaml's "steady_state:" mapping.
func PointYAML(s core.Submission) string {
	var b strings.Builder
	b.WriteString("steady_state:\n")
	b.WriteString("  status: " + string(s.Status) + "\n")
	b.WriteString("  verdict: " + string(s.Verdict) + "\n")
	if s.HasWindow {
		w := s.Window
		b.WriteString("  window:\n")
		b.WriteString("    super_pass_start: " + strconv.Itoa(w.SuperPassStart) + "\n")
		b.WriteString("    super_pass_end: " + strconv.Itoa(w.SuperPassEnd) + "\n")
		b.WriteString("    super_pass_size: " + strconv.Itoa(w.SuperPassSize) + "\n")
		b.WriteString("    n_samples: " + strconv.Itoa(w.NSamples) + "\n")
		b.WriteString("    duration_s: " + pyjson.Float(Finite(w.DurationS)) + "\n")
	} else {
		b.WriteString("  window: {}\n")
	}
	if hasState(s) {
		b.WriteString("  state:\n")
		b.WriteString("    tpot_p50: " + string(s.StateTPOTP50) + "\n")
		b.WriteString("    tpot_p90: " + string(s.StateTPOTP90) + "\n")
	} else {
		b.WriteString("  state: {}\n")
	}
	if a := s.Anomaly; a != nil {
		b.WriteString("  anomaly:\n")
		b.WriteString("    change_point_super_pass: " + strconv.Itoa(a.ChangePointSuperPass) + "\n")
		b.WriteString("    delta_pct: " + pyjson.Float(Finite(a.DeltaPct)) + "\n")
		b.WriteString("    plateaus:\n")
		for _, pl := range a.Plateaus {
			b.WriteString("      - [" + strconv.Itoa(pl[0]) + ", " + strconv.Itoa(pl[1]) + "]\n")
		}
	}
	return b.String()
}
