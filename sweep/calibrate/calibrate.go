package calibrate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// Options configure Calibrate.
type Options struct {
	// Out is the sweep output directory (rows are read from Out/rows).
	Out string
	// ReportPath, PlotPath and ParquetPath are where the Markdown report,
	// the PNG and the per-config table go; empty means
	// Out/calibration.md, Out/calibration.png, Out/calibration.parquet.
	// "-" skips that output.
	ReportPath, PlotPath, ParquetPath string
	// HTMLPath, when set, is where the HTML page goes (calibration.Report.WriteHTML);
	// empty writes none.
	HTMLPath string
}

// Calibrate reads Out/rows, scores every config against each run's
// truth.json, ranks them, and writes the report, plot and Parquet table
// (Options). A run without truth is skipped and counted; an error row is
// counted and listed. Each row's run_path is used as written: a sweep run
// with relative archive paths is calibrated from the same directory.
func Calibrate(ctx context.Context, o Options) (*calibration.Report, error) {
	if o.Out == "" {
		return nil, errors.New("calibrate: no sweep output directory")
	}
	rows, err := readRows(ctx, filepath.Join(o.Out, "rows"))
	if err != nil {
		return nil, fmt.Errorf("calibrate %s: %w", o.Out, err)
	}
	r := score(rows)
	r.Out = o.Out
	if err := ctx.Err(); err != nil {
		return r, fmt.Errorf("calibrate %s: %w", o.Out, err)
	}
	out := func(p, def string) string {
		switch p {
		case "-":
			return ""
		case "":
			return filepath.Join(o.Out, def)
		}
		return p
	}
	r.ReportPath, r.PlotPath, r.ParquetPath = out(o.ReportPath, "calibration.md"), out(o.PlotPath, "calibration.png"), out(o.ParquetPath, "calibration.parquet")
	if r.ParquetPath != "" {
		if err := r.WriteParquet(r.ParquetPath); err != nil {
			return r, fmt.Errorf("calibrate: %w", err)
		}
	}
	if r.PlotPath != "" {
		if err := r.WritePlot(r.PlotPath); err != nil {
			return r, fmt.Errorf("calibrate: %w", err)
		}
	}
	if r.ReportPath != "" {
		if err := calibration.WriteFile(r.ReportPath, r.WriteMarkdown); err != nil {
			return r, fmt.Errorf("calibrate: report: %w", err)
		}
	}
	if o.HTMLPath != "" {
		if err := calibration.WriteFile(o.HTMLPath, r.WriteHTML); err != nil {
			return r, fmt.Errorf("calibrate: html: %w", err)
		}
		r.HTMLPath = o.HTMLPath
	}
	return r, nil
}

// score builds the report of rows (no files).
func score(rows []row) *calibration.Report {
	r := &calibration.Report{Rows: len(rows), BadTruth: map[string]string{}, Presets: map[string]string{}}
	truths := map[string]*synth.Truth{}
	seen := map[string]bool{}
	byConfig := map[string]*configAcc{}
	var order []*configAcc
	errRuns := map[string]*calibration.ErrorRun{}
	for i := range rows {
		row := &rows[i]
		if !seen[row.RunPath] {
			seen[row.RunPath] = true
			t, err := loadTruth(row.RunPath)
			switch {
			case err != nil:
				r.BadTruth[row.RunPath] = err.Error()
			case t == nil:
				r.NoTruthRuns = append(r.NoTruthRuns, row.RunPath)
			}
			truths[row.RunPath] = t
		}
		c := byConfig[row.ConfigID]
		if c == nil {
			c = newConfigScore(row)
			byConfig[row.ConfigID] = c
			order = append(order, c)
		}
		c.add(row, truths[row.RunPath])
		if row.Status == string(core.StatusError) {
			e := errRuns[row.RunPath]
			if e == nil {
				e = &calibration.ErrorRun{RunPath: row.RunPath, Reason: row.Reason}
				errRuns[row.RunPath] = e
			}
			e.Configs++
		}
	}
	r.Runs = len(seen)
	sort.Strings(r.NoTruthRuns)
	for _, e := range errRuns {
		r.ErrorRuns = append(r.ErrorRuns, *e)
	}
	slices.SortFunc(r.ErrorRuns, func(a, b calibration.ErrorRun) int { return strings.Compare(a.RunPath, b.RunPath) })

	scores := make([]*calibration.ConfigScore, len(order))
	for i, c := range order {
		c.finish()
		scores[i] = &c.ConfigScore
	}
	r.Axes = sweptAxes(scores)
	for _, c := range scores {
		c.Label = sinks.ConfigLabel(c.Params, r.Axes)
	}
	rankConfigs(scores)
	r.Configs = make([]calibration.ConfigScore, len(scores))
	for i, c := range scores {
		r.Configs[i] = *c
	}
	r.Presets = presetConfigs(scores)
	if len(r.Configs) > 0 {
		r.Recommended = r.Configs[0].ConfigID
		r.Why = calibration.ExplainRecommendation(r)
	}
	r.StopsConfig = stopsConfig(r)
	r.Stops = stopTotals(rows, r.StopsConfig)
	return r
}

// sweptAxes are the parameters with more than one value across cs, except
// those where every config keeps its compat's default (the reference's
// fixed 600 s min-duration floor against our run-derived one): the label's
// compat already says those.
func sweptAxes(cs []*calibration.ConfigScore) []string {
	params := make([]map[string]string, len(cs))
	for i, c := range cs {
		params[i] = c.Params
	}
	return sinks.SweptAxes(params)
}

// presetConfigs finds the configs equal to the default and reference
// presets, and to the same with min_duration=false ("/no-min-duration").
func presetConfigs(cs []*calibration.ConfigScore) map[string]string {
	byID := map[string]bool{}
	for _, c := range cs {
		byID[c.ConfigID] = true
	}
	ids := map[string]string{}
	presetIDs(ids, byID)
	for name, p := range map[string]core.Params{"default": core.DefaultParams(), "reference": core.ReferenceParams()} {
		q := p
		q.MinDuration = false
		for key, params := range map[string]core.Params{name: p, name + "/no-min-duration": q} {
			if id := sinks.ConfigID(params); byID[id] {
				ids[key] = id
			}
		}
	}
	return ids
}
