package resultjson

import (
	"math"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// Record is one run's result as both of its renderings read it: the JSON
// (Object, exactly --json's bytes) and the HTML run page
// (sinks/htmlpage). It holds the analysis in its own types and what the
// renderings derive from it, each computed once here: the diagnostic
// tables, the window and the level shift in absolute super-passes, and
// the throughput block. A renderer reads fields, never keys of the
// JSON, so a renamed field is a compile error in both.
type Record struct {
	// Result is the analysis.
	Result *core.Result
	// Diagnostics are the cov and drift tables by window size (§9); nil
	// on the NATL path.
	Diagnostics []core.WindowDiagnostics
}

// New returns the record of r. The error is the run's Stop hook ending
// the diagnostic tables.
func New(r *core.Result) (*Record, error) {
	rec := &Record{Result: r}
	if rec.NATL() == nil {
		d, err := r.Diagnostics()
		if err != nil {
			return nil, err
		}
		rec.Diagnostics = d
	}
	return rec, nil
}

// NATL is the agentic path's result when the record's reference part is
// the NATL dict (§13), nil on the window path.
func (rec *Record) NATL() *core.NATLResult {
	if r := rec.Result; r.Path == core.PathNATL && r.NATL != nil {
		return r.NATL
	}
	return nil
}

// SteadyState is the reference's steady_state block (§10), nil on the
// NATL path (whose dict has none).
func (rec *Record) SteadyState() *core.SteadyState {
	if rec.NATL() != nil {
		return nil
	}
	return &rec.Result.Steady
}

// Warmup is the number of warmup super-passes, 0 on the NATL path (its
// dict has none).
func (rec *Record) Warmup() int {
	if rec.NATL() != nil {
		return 0
	}
	return rec.Result.Warmup
}

// Assessment is steadysweep's assessment, nil under compat reference.
func (rec *Record) Assessment() *core.Assessment { return rec.Result.Assessment }

// Window is the reported window in absolute super-passes, first..last
// inclusive (the convention of the text, the rows and the submission
// block): under steadysweep the assessment's (selection.window_sp), under
// the reference its post-warmup steady_state.window [sp_lo, sp_hi)
// shifted by the warmup. ok is false when there is none.
func (rec *Record) Window() (first, last int, ok bool) {
	if as := rec.Assessment(); as != nil {
		if !as.Window.Ok() {
			return 0, 0, false
		}
		return int(as.Window.Lo), int(as.Window.Last()), true
	}
	ss := rec.SteadyState()
	if ss == nil || ss.Window == nil {
		return 0, 0, false
	}
	w := rec.Warmup()
	return w + ss.Window.SPLo, w + ss.Window.SPHi - 1, true
}

// ChangePointSP is the first super-pass after a detected level shift,
// absolute; ok is false when no shift was detected.
func (rec *Record) ChangePointSP() (sp int, ok bool) {
	ss := rec.SteadyState()
	if ss == nil || !ss.Anomaly.Detected {
		return 0, false
	}
	if rec.Assessment() != nil {
		return rec.Result.Warmup + ss.Anomaly.ChangePointSP, true
	}
	if ss.Anomaly.ChangePointSP < 0 {
		return 0, false
	}
	return rec.Warmup() + ss.Anomaly.ChangePointSP, true
}

// Throughput is the reported throughput with its intervals and the reason
// for every unsupported value, and what it was measured over.
type Throughput struct {
	// Basis is "issue_time_window", "token_rate_plateau" (an offline
	// run) or "" (no window).
	Basis string
	// System and PerUser are the two rates (tok/s, tok/s/user).
	System, PerUser Rate
}

// Rate is one reported rate: its value and 95 % interval (NaN when the
// data cannot support them) and the reason they are missing.
type Rate struct {
	Value  float64
	CI95   [2]float64
	Reason string
}

// Throughput is the record's throughput block; only under steadysweep
// (ok false under the reference).
func (rec *Record) Throughput() (t Throughput, ok bool) {
	r := rec.Result
	as := r.Assessment
	if as == nil {
		return Throughput{}, false
	}
	t.Basis = "issue_time_window"
	switch {
	case as.Offline != nil:
		t.Basis = "token_rate_plateau"
	case r.Steady.TPS == nil:
		t.Basis = ""
	}
	nan := math.NaN()
	tps := core.TPS{PerUser: nan, PerUserCI: [2]float64{nan, nan}, System: nan, SystemCI: [2]float64{nan, nan},
		SystemReason: "no window", PerUserReason: "no window"}
	if r.Steady.TPS != nil {
		tps = *r.Steady.TPS
	}
	t.System = Rate{Value: tps.System, CI95: tps.SystemCI, Reason: tps.SystemReason}
	t.PerUser = Rate{Value: tps.PerUser, CI95: tps.PerUserCI, Reason: tps.PerUserReason}
	return t, true
}

// Object is the record's JSON tree: the reference's keys (§11.1 or the
// NATL dict of §13), then the assessment's when there is one.
func (rec *Record) Object() pyjson.Object {
	var obj pyjson.Object
	if n := rec.NATL(); n != nil {
		obj = natl(n)
	} else {
		obj = window(rec)
	}
	if rec.Assessment() != nil {
		obj = append(obj, assessment(rec)...)
	}
	return obj
}
