package htmlpage

import (
	"errors"
	"io"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// RunInput is one analysis to show as a page.
type RunInput struct {
	Result *core.Result
	// RunPath is the run's directory or events file (the title names the
	// run after it, as the text report does).
	RunPath string
	// Derived are the settings the analysis derived and where each came
	// from (the text report's settings).
	Derived []sinks.Derivation
	// Back, when set, is a relative link shown at the top (the sweep page
	// a run page was written for).
	Back string
}

// WriteRun writes the page of one analysis to w: the headline (status,
// verdict, window, steady vs total with confidence intervals), the
// per-super-pass TPOT and TTFT charts, the diagnostic tables and the
// settings. Every number on it is read from its record (RunRecord), which
// the page embeds; the record's "result" is the tree --json writes.
func WriteRun(w io.Writer, in RunInput) error {
	rec, err := RunRecord(in)
	if err != nil {
		return err
	}
	v := runViewOf(uniform(rec))
	v.Back = in.Back
	return writePage(w, "run", "steadysweep · "+v.Name, rec, v)
}

// RunRecord is the record a run page embeds and is drawn from:
//
//	page          "run"
//	run           {name, path}
//	certified     the found flag of the run's sweep row (core.Outcome):
//	              whether the window is reported as a steady state
//	settings      {derived: [{name, value, source}], params: {name: text}}
//	super_passes  every super-pass, warmup included (i absolute), with the
//	              keys of the result's per_super_pass rows and latency_p99
//	result        resultjson.Tree: exactly what --json writes
func RunRecord(in RunInput) (pyjson.Object, error) {
	r := in.Result
	if r == nil {
		return nil, errors.New("htmlpage: run page: nil result")
	}
	tree, err := resultjson.Tree(r)
	if err != nil {
		return nil, err
	}
	derived := make([]any, len(in.Derived))
	for i, d := range in.Derived {
		derived[i] = pyjson.Object{{Key: "name", Value: d.Name}, {Key: "value", Value: d.Value}, {Key: "source", Value: d.Source}}
	}
	params := pyjson.Object{}
	for _, n := range core.Names() {
		s, err := r.Params.Get(n)
		if err != nil {
			return nil, err
		}
		params = append(params, pyjson.Field{Key: n, Value: s})
	}
	sps := r.SuperPasses()
	rows := make([]any, len(sps))
	for i, d := range sps {
		rows[i] = superPassRow(d)
	}
	return pyjson.Object{
		{Key: "page", Value: "run"},
		{Key: "run", Value: pyjson.Object{{Key: "name", Value: sinks.RunName(in.RunPath)}, {Key: "path", Value: in.RunPath}}},
		{Key: "certified", Value: r.Outcome().Found},
		{Key: "settings", Value: pyjson.Object{{Key: "derived", Value: derived}, {Key: "params", Value: params}}},
		{Key: "super_passes", Value: rows},
		{Key: "result", Value: tree},
	}, nil
}

// Indices of the charted metrics in core.Metrics.
var (
	ttftP50, ttftP90 = core.MetricIndex("ttft_p50"), core.MetricIndex("ttft_p90")
	tpotP50, tpotP90 = core.MetricIndex("tpot_p50"), core.MetricIndex("tpot_p90")
)

// superPassRow is one super-pass as the result's per_super_pass writes it
// (null where the super-pass has no TTFT or TPOT), plus its p99 latency.
func superPassRow(d core.SuperPassDigest) pyjson.Object {
	val := func(m int) any {
		if !d.Has[m] {
			return nil
		}
		return d.Value[m]
	}
	var lat any
	if finite(d.LatencyP99) {
		lat = d.LatencyP99
	}
	return pyjson.Object{
		{Key: "i", Value: d.I}, {Key: "n_issued", Value: d.NIssued}, {Key: "out_tokens", Value: d.OutTokens},
		{Key: "first_issue_ns", Value: d.FirstIssueNs}, {Key: "last_issue_ns", Value: d.LastIssueNs},
		{Key: "last_event_ns", Value: d.LastEventNs},
		{Key: "ttft_p50", Value: val(ttftP50)}, {Key: "ttft_p90", Value: val(ttftP90)},
		{Key: "tpot_p50", Value: val(tpotP50)}, {Key: "tpot_p90", Value: val(tpotP90)},
		{Key: "latency_p99", Value: lat},
	}
}
