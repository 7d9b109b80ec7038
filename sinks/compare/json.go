package compare

import (
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// JSON is the comparison as a JSON tree with top-level keys a, b and diff:
// each side's identity, outcome, window and reported values, and per
// metric the difference, its interval and significance (null numbers with
// a reason when the metric cannot be compared). Units are the rows': ns
// for latencies, tok/s for throughputs.
func (c *Comparison) JSON() pyjson.Object {
	return pyjson.Object{{Key: "a", Value: sideJSON(&c.A)}, {Key: "b", Value: sideJSON(&c.B)}, {Key: "diff", Value: c.diffJSON()}}
}

func (c *Comparison) diffJSON() pyjson.Object {
	ms := pyjson.Object{}
	for _, d := range c.Metrics {
		ms = append(ms, pyjson.Field{Key: d.Metric.Key, Value: pyjson.Object{
			{Key: "unit", Value: d.Metric.Unit},
			{Key: "a", Value: num(d.A)}, {Key: "b", Value: num(d.B)},
			{Key: "diff", Value: num(d.Diff)}, {Key: "diff_pct", Value: num(d.DiffPct)},
			{Key: "ci_lo", Value: num(d.CILo)}, {Key: "ci_hi", Value: num(d.CIHi)},
			{Key: "k_a", Value: d.KA}, {Key: "k_b", Value: d.KB}, {Key: "df", Value: num(d.DF)},
			{Key: "comparable", Value: d.Comparable},
			{Key: "significant", Value: d.Comparable && d.Significant},
			{Key: "better", Value: d.Comparable && d.Better},
			{Key: "reason", Value: str(d.Reason)},
		}})
	}
	return pyjson.Object{
		{Key: "outcome", Value: c.Outcome()},
		{Key: "status", Value: change(c.A.Status, c.B.Status)},
		{Key: "verdict", Value: change(c.A.Verdict, c.B.Verdict)},
		{Key: "metrics", Value: ms},
	}
}

func change(a, b string) pyjson.Object {
	return pyjson.Object{{Key: "a", Value: str(a)}, {Key: "b", Value: str(b)}, {Key: "changed", Value: a != b}}
}

func sideJSON(s *Side) pyjson.Object {
	var window any
	if s.WindowStart >= 0 {
		window = pyjson.Object{{Key: "start_sp", Value: s.WindowStart}, {Key: "end_sp", Value: s.WindowEnd},
			{Key: "superpass_size", Value: s.SuperpassSize}}
	}
	values := pyjson.Object{}
	for i, m := range Metrics() {
		values = append(values, pyjson.Field{Key: m.Key, Value: num(s.Values[i])})
	}
	return pyjson.Object{
		{Key: "label", Value: s.Label}, {Key: "config_id", Value: str(s.ConfigID)}, {Key: "config", Value: str(s.Config)},
		{Key: "status", Value: str(s.Status)}, {Key: "verdict", Value: str(s.Verdict)}, {Key: "reason", Value: str(s.Reason)},
		{Key: "window", Value: window}, {Key: "steady", Value: values},
	}
}

// num is x, or nil (null) when NaN or infinite.
func num(x float64) any {
	if isNaN(x) {
		return nil
	}
	return x
}

// str is s, or nil (null) when empty.
func str(s string) any {
	if s == "" {
		return nil
	}
	return s
}
