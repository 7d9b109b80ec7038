package resultjson

import (
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// EarliestStop is the earliest_stop block: whether and when the run could
// have stopped with a certified answer (core.Run.EarliestStopOf under
// Target), the share of its wall time saved, whether the full run's
// numbers lie inside the stop's intervals, the stop's values with their
// 95 % intervals, and the rule. Without a stop its numbers are null and
// reason says why; stop_agrees and withdrawn are null too while there is
// no full run to compare with (`watch`: the run is in progress, and
// stop_saved_frac is unknown). `watch` writes the same block.
func EarliestStop(e *core.EarliestStop) pyjson.Object {
	target := e.Target
	var agrees, withdrawn any
	var stop any
	if e.Found {
		stop = StopCheck(e.Stop)
		if e.Compared {
			agrees, withdrawn = e.Agrees, e.Withdrawn
		}
	}
	return pyjson.Object{
		{Key: "found", Value: e.Found},
		{Key: "reason", Value: str(e.Reason)},
		{Key: "stop_at_s", Value: num(e.StopAtS)},
		{Key: "stop_saved_frac", Value: num(e.SavedFrac)},
		{Key: "stop_saved_s", Value: savedS(e)},
		{Key: "stop_agrees", Value: agrees},
		{Key: "withdrawn", Value: withdrawn},
		{Key: "stop", Value: stop},
		{Key: "rule", Value: pyjson.Object{
			{Key: "max_rel_half_width", Value: target.MaxRelHalfWidth},
			{Key: "confirm", Value: target.Confirm},
			{Key: "max_prefixes", Value: target.MaxPrefixes},
		}},
		{Key: "prefixes_analysed", Value: e.Evaluated},
		{Key: "prefix_step", Value: e.Step},
		{Key: "prefix_grid", Value: prefixGrid(e)},
	}
}

// prefixGrid names the prefixes searched: every prefix_step-th ("linear"),
// or a geometric grid on a run of more than 512 super-passes
// ("geometric", core's geometricStop, D39).
func prefixGrid(e *core.EarliestStop) string {
	if e.Geometric {
		return "geometric"
	}
	return "linear"
}

// StopCheck is one prefix's certification: its size, cut, verdict, the
// system TPS and TPOT p50 with their 95 % intervals and relative
// half-widths, and what keeps it from certifying (null when it does).
func StopCheck(c core.StopCheck) pyjson.Object {
	val := func(v float64, ci [2]float64) pyjson.Object {
		return pyjson.Object{{Key: "value", Value: num(v)}, {Key: "ci95", Value: interval(ci)},
			{Key: "rel_half_width", Value: num(core.RelHalfWidth(v, ci))}}
	}
	return pyjson.Object{
		{Key: "n_super_passes", Value: c.NSuperPasses},
		{Key: "cut_ns", Value: c.CutNs},
		{Key: "status", Value: string(c.Status)},
		{Key: "verdict", Value: string(c.Verdict)},
		{Key: "certified", Value: c.Certified},
		{Key: "blocked_by", Value: str(c.Reason)},
		{Key: "tps_system", Value: val(c.TPSSystem, c.TPSSystemCI)},
		{Key: "tpot_p50_ns", Value: val(c.TPOTP50Ns, c.TPOTP50CI)},
		{Key: "window_duration_s", Value: num(c.WindowDurationS)},
		{Key: "min_duration_s", Value: num(c.MinDurationS)},
	}
}

func savedS(e *core.EarliestStop) any {
	if !e.Found {
		return nil
	}
	return float64(e.SavedNs()) / 1e9
}
