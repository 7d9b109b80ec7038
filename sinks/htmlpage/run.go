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
// settings. Every number on it is read from its typed record (runRecord,
// whose result is the resultjson.Record --json renders), which the page
// embeds as JSON (RunRecord).
func WriteRun(w io.Writer, in RunInput) error {
	rec, err := newRunRecord(in)
	if err != nil {
		return err
	}
	v := runViewOf(rec)
	v.Back = in.Back
	return writePage(w, "run", "steadysweep · "+v.Name, rec.object(), func(p *pageWriter) { p.runBody(&v) })
}

// runRecord is what a run page shows, typed: the page's view is drawn
// from its fields, its JSON (object) is embedded in the page.
type runRecord struct {
	// Name and Path are the run's name and directory or events file.
	Name, Path string
	// Certified is the found flag of the run's sweep row (core.Outcome):
	// whether the window is reported as a steady state.
	Certified bool
	// Derived are the settings the analysis derived and their sources.
	Derived []sinks.Derivation
	// Params are the detector parameters as text, in core.Names order.
	Params []param
	// SuperPasses are every super-pass, warmup included.
	SuperPasses []core.SuperPassDigest
	// Result is the analysis as --json renders it; tree is its JSON.
	Result *resultjson.Record
	tree   pyjson.Object
}

// param is one detector parameter and its value as text.
type param struct{ Name, Value string }

func newRunRecord(in RunInput) (*runRecord, error) {
	r := in.Result
	if r == nil {
		return nil, errors.New("htmlpage: run page: nil result")
	}
	res, err := resultjson.New(r)
	if err != nil {
		return nil, err
	}
	rec := &runRecord{Name: sinks.RunName(in.RunPath), Path: in.RunPath, Certified: r.Outcome().Found,
		Derived: in.Derived, SuperPasses: r.SuperPasses(), Result: res, tree: res.Object()}
	for _, n := range core.Names() {
		s, err := r.Params.Get(n)
		if err != nil {
			return nil, err
		}
		rec.Params = append(rec.Params, param{n, s})
	}
	return rec, nil
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
	rec, err := newRunRecord(in)
	if err != nil {
		return nil, err
	}
	return rec.object(), nil
}

// object is the record's JSON (RunRecord).
func (rec *runRecord) object() pyjson.Object {
	derived := make([]any, len(rec.Derived))
	for i, d := range rec.Derived {
		derived[i] = pyjson.Object{{Key: "name", Value: d.Name}, {Key: "value", Value: d.Value}, {Key: "source", Value: d.Source}}
	}
	params := pyjson.Object{}
	for _, p := range rec.Params {
		params = append(params, pyjson.Field{Key: p.Name, Value: p.Value})
	}
	rows := make([]any, len(rec.SuperPasses))
	for i, d := range rec.SuperPasses {
		rows[i] = superPassRow(d)
	}
	return pyjson.Object{
		{Key: "page", Value: "run"},
		{Key: "run", Value: pyjson.Object{{Key: "name", Value: rec.Name}, {Key: "path", Value: rec.Path}}},
		{Key: "certified", Value: rec.Certified},
		{Key: "settings", Value: pyjson.Object{{Key: "derived", Value: derived}, {Key: "params", Value: params}}},
		{Key: "super_passes", Value: rows},
		{Key: "result", Value: rec.tree},
	}
}

// Indices of the charted metrics in core.Metrics: constants, as calls of
// core.MetricIndex at package level would run in every process's init
// (issue 32); TestChartedMetricIndices holds them to core.MetricIndex.
const (
	ttftP50, ttftP90 = 0, 1
	tpotP50, tpotP90 = 2, 3
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
