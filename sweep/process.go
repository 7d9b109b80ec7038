package sweep

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"runtime/debug"
	"time"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// StatusError is the status of a row whose run could not be read or
// analysed (core.StatusError); its reason says why.
const StatusError = string(core.StatusError)

// safeProcess is process with a last-resort recover: a panic outside the
// loader and analyzer (already recovered there) still becomes error rows
// for every parameter set instead of killing the sweep.
func (e *engine) safeProcess(ctx context.Context, ref corpora.RunRef) (res runResult) {
	defer func() {
		if v := recover(); v != nil {
			e.debug.Printf("run %s: panic: %v\n%s", ref.Path, v, debug.Stack())
			res = runResult{}
			prov := sinks.Provenance{EventsPath: ref.EventsPath, ToolVersion: e.o.ToolVersion, ToolCommit: e.o.ToolCommit}
			for c := range e.o.Configs {
				res.rows = append(res.rows, e.newRow(ref, prov, c, ErrorOutcome(fmt.Sprintf("panic: %v", v))))
			}
		}
	}()
	return e.process(ctx, ref)
}

// process loads one run and analyses it under every parameter set not
// already done. It never panics and never fails: problems become error
// rows. A run cut short by ctx is abandoned whole, so resuming redoes it.
func (e *engine) process(ctx context.Context, ref corpora.RunRef) (res runResult) {
	if ctx.Err() != nil {
		return runResult{abandoned: true}
	}
	runID := ref.RunID()
	prov, perr := e.provenance(ref.EventsPath, runID)
	prov.ToolVersion, prov.ToolCommit = e.o.ToolVersion, e.o.ToolCommit

	// An unreadable events file has an empty hash: its error rows are
	// skipped on resume until the file becomes readable (a new hash), or
	// redone with RetryErrors.
	todo := make([]int, 0, len(e.o.Configs)) // indices into Configs
	for c := range e.o.Configs {
		if _, ok := e.done[sinks.Key{RunID: runID, ConfigID: e.ids[c], EventsSHA256: prov.EventsSHA256, SchemaVersion: sinks.SchemaVersion}]; ok {
			continue
		}
		todo = append(todo, c)
	}
	// The series is written once per run and input, whatever happened to
	// the rows (a sweep can publish one table and fail on the other).
	_, hasSeries := e.seriesDone[sinks.SeriesKey{RunID: runID, EventsSHA256: prov.EventsSHA256, SchemaVersion: sinks.SchemaVersion}]
	needSeries := e.o.Series != nil && !hasSeries && perr == nil
	// Whatever follows writes (or has) a row under this hash for every
	// config: rows of the log as it was are superseded. The series too,
	// once written under this hash.
	stale := e.superseded(runID, prov.EventsSHA256, hasSeries)
	if len(todo) == 0 && !needSeries {
		return runResult{skipped: true, stale: stale}
	}
	failAll := func(reason string, ingestNs int64) runResult {
		r := runResult{bytes: prov.EventsSize, skipped: len(todo) == 0, stale: stale}
		for _, c := range todo {
			row := e.newRow(ref, prov, c, ErrorOutcome(reason))
			row.IngestNs = ingestNs
			r.rows = append(r.rows, row)
		}
		return r
	}
	if perr != nil {
		return failAll(perr.Error(), 0)
	}

	t0 := time.Now()
	run, err := e.load(ctx, ref)
	ingestNs := time.Since(t0).Nanoseconds()
	if ctx.Err() != nil {
		return runResult{abandoned: true}
	}
	completeProvenance(&prov, run)
	if err != nil {
		return failAll("load: "+err.Error(), ingestNs)
	}
	rows := make([]sinks.Row, 0, len(todo))
	prov.Tokenizer, prov.SourceFormat = run.Tokenizer, run.Info.SourceFormat
	run.Stop = ctx.Err // a cancelled sweep ends an analysis mid-loop
	meta := RunMetaOf(run)
	var analyses []Analysis // kept for AfterRun only
	for _, c := range todo {
		if ctx.Err() != nil {
			return runResult{abandoned: true}
		}
		t := time.Now()
		r, err := e.analyze(ref, run, e.o.Configs[c], e.ids[c])
		var out core.Outcome
		if err == nil {
			out = OutcomeOf(r) // the row's digest is part of the analysis' time
		}
		analysisNs := time.Since(t).Nanoseconds()
		if ctx.Err() != nil {
			return runResult{abandoned: true} // stopped: not an error of the run
		}
		if err != nil {
			out = ErrorOutcome("analyze: " + err.Error())
			out.Partial = run.Info.Partial
		} else if e.o.AfterRun != nil {
			analyses = append(analyses, Analysis{Params: e.o.Configs[c], Result: r})
		}
		row := e.newRow(ref, prov, c, out)
		row.Meta, row.AnalysisNs, row.IngestNs = meta, analysisNs, ingestNs
		rows = append(rows, row)
	}
	// A run with every row present but no series is "skipped" for the
	// rows table and still gets its series.
	res = runResult{rows: rows, bytes: prov.EventsSize, skipped: len(todo) == 0, stale: stale, warnings: run.Warnings}
	if needSeries {
		series, err := e.series(ref, run)
		if ctx.Err() != nil {
			return runResult{abandoned: true}
		}
		if err != nil {
			e.debug.Printf("run %s: series: %v", ref.Path, err)
		}
		for i := range series {
			series[i].RunID, series[i].EventsSHA256 = runID, prov.EventsSHA256
		}
		res.series = series
		if len(series) > 0 {
			res.stale.series = e.superseded(runID, prov.EventsSHA256, true).series
		}
	}
	if e.o.AfterRun != nil {
		e.afterRun(ref, run, analyses)
	}
	return res
}

// afterRun calls the AfterRun hook; a panic is logged (recoverInto) and
// the run's rows stand.
func (e *engine) afterRun(ref corpora.RunRef, run *LoadedRun, analyses []Analysis) {
	var panicked error
	defer e.recoverInto(&panicked, ref, "after run")
	e.o.AfterRun(ref, run, analyses)
}

// newRow is the row of run ref under config c with outcome out (no run
// metadata or timings yet).
func (e *engine) newRow(ref corpora.RunRef, prov sinks.Provenance, c int, out core.Outcome) sinks.Row {
	r := sinks.Row{RunPath: ref.Path, RunRel: ref.Rel, RunID: ref.RunID(), Provenance: prov,
		ConfigID: e.ids[c], ConfigLabel: e.labels[c], Params: e.o.Configs[c], Outcome: out}
	if len(e.o.Presets) > 0 {
		r.Preset = e.o.Presets[c]
	}
	return r
}

// load calls the Loader, turning a panic into an error.
func (e *engine) load(ctx context.Context, ref corpora.RunRef) (run *LoadedRun, err error) {
	defer e.recoverInto(&err, ref, "load")
	run, err = e.o.Load(ctx, ref)
	if err == nil && run == nil {
		err = fmt.Errorf("loader returned no run")
	}
	return run, err
}

// analyze calls the Analyzer, turning a panic into an error, and a
// missing result too.
func (e *engine) analyze(ref corpora.RunRef, run *LoadedRun, p core.Params, id string) (r *core.Result, err error) {
	defer e.recoverInto(&err, ref, "analyze config "+id)
	r, err = e.o.Analyze(run, p)
	if err == nil && r == nil {
		err = fmt.Errorf("analyzer returned no result")
	}
	return r, err
}

func (e *engine) series(ref corpora.RunRef, run *LoadedRun) (rows []sinks.SeriesRow, err error) {
	defer e.recoverInto(&err, ref, "series")
	return e.o.Series(run)
}

// recoverInto converts a panic into *err and logs its stack to Debug.
func (e *engine) recoverInto(err *error, ref corpora.RunRef, what string) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("panic: %v", v)
		e.debug.Printf("run %s: %s: panic: %v\n%s", ref.Path, what, v, debug.Stack())
	}
}

// ErrorOutcome is the outcome of a failed analysis: status "error", the
// reason, every measurement NaN (null) and every super-pass index −1.
func ErrorOutcome(reason string) core.Outcome {
	out := core.Outcome{Status: core.StatusError, Reason: reason, Verdict: "", WindowStartSP: -1, WindowEndSP: -1, ChangePointSP: -1}
	v := reflect.ValueOf(&out).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Float64 {
			f.SetFloat(math.NaN())
		}
	}
	return out
}
