package calibration

import (
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// WriteHTML writes the calibration as one self-contained HTML page
// (sinks/htmlpage): the recommendation, the ranking (sortable), the
// error plots (the PNG's panels as SVG, a mark per config with its value
// on hover), the confusion matrices of the recommended config and the
// presets, where the recommended config goes wrong, and the definitions.
// The page embeds the report's figures as its record (HTMLRecord).
func (r *Report) WriteHTML(w io.Writer) error {
	c := htmlpage.Calibration{Title: "calibration", Record: r.HTMLRecord()}
	if r.Intro != "" {
		c.Intro = append(c.Intro, strings.TrimSpace(r.Intro))
	}
	line := fmt.Sprintf("%d rows over %d runs and %d configs", r.Rows, r.Runs, len(r.Configs))
	if r.Out != "" {
		line += fmt.Sprintf(" (sweep output `%s`)", r.Out)
	}
	c.Intro = append(c.Intro, line+fmt.Sprintf(". Runs skipped without truth.json: %d; with an unreadable one: %d. Runs with error rows: %d.",
		len(r.NoTruthRuns), len(r.BadTruth), len(r.ErrorRuns)))
	best := r.Config(r.Recommended)
	if best == nil {
		c.Sections = append(c.Sections, htmlpage.CalibrationSection{Title: "Ranking", Text: []string{"No config to rank."}})
		return htmlpage.WriteCalibration(w, c)
	}
	rec := htmlpage.CalibrationSection{Title: "Recommendation",
		Text: []string{fmt.Sprintf("**%s** (config_id `%s`).", best.Label, best.ConfigID), r.Why}}
	if len(r.Axes) > 0 {
		rec.Tables = append(rec.Tables, r.axesTable(best))
	}
	c.Sections = append(c.Sections, rec,
		htmlpage.CalibrationSection{Title: "Ranking", Tables: []htmlpage.CalibrationTable{r.rankingTable()},
			Text: []string{"Click a column header to sort. TPOT error is over the scored rows that report a window and a steady TPOT, plateau error over those whose truth plants a plateau."}},
		htmlpage.CalibrationSection{Title: "Head-to-head by truth class", Tables: []htmlpage.CalibrationTable{r.headToHeadTable()},
			Text: []string{headToHeadText}},
		htmlpage.CalibrationSection{Title: "Error against each swept parameter", Plots: r.errorPlots(),
			Text: []string{"One mark per config, coloured by compat mode; hover a mark for its config and value. The dashed line joins the median over the configs sharing a value (the other parameters pooled)."}})
	conf := htmlpage.CalibrationSection{Title: "Confusion matrices",
		Text: []string{"Rows: truth (`expected_verdict.verdict`); columns: the row's status/verdict mapped to the same words."}}
	seen := map[string]bool{}
	add := func(title, id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		conf.Tables = append(conf.Tables, confusionTable(title, r.Config(id)))
	}
	add("Recommended", r.Recommended)
	for _, name := range presetOrder {
		if id, ok := r.Presets[name]; ok {
			add("Preset "+name, id)
		}
	}
	c.Sections = append(c.Sections, conf,
		htmlpage.CalibrationSection{Title: "Where the recommended config goes wrong", Tables: []htmlpage.CalibrationTable{
			disagreementTable(best),
			rowErrorTable("Confident-but-wrong results", best.Wrong, best.ConfidentWrong),
			rowErrorTable("Largest TPOT errors (found or not)", best.Worst, best.ErrN),
		}})
	if t, ok := r.skippedTable(); ok {
		c.Sections = append(c.Sections, htmlpage.CalibrationSection{Title: "Runs with errors or without truth", Tables: []htmlpage.CalibrationTable{t}})
	}
	c.Sections = append(c.Sections, htmlpage.CalibrationSection{Title: "Definitions", Text: definitionItems()})
	return htmlpage.WriteCalibration(w, c)
}

func (r *Report) axesTable(best *ConfigScore) htmlpage.CalibrationTable {
	t := htmlpage.CalibrationTable{Caption: "swept parameters", Head: []string{"parameter", "recommended"}}
	var presets []string
	for _, name := range presetOrder {
		if _, ok := r.Presets[name]; ok {
			presets = append(presets, name)
			t.Head = append(t.Head, name)
		}
	}
	for _, a := range r.Axes {
		row := []string{a, "`" + best.Params[a] + "`"}
		for _, name := range presets {
			row = append(row, "`"+r.Config(r.Presets[name]).Params[a]+"`")
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (r *Report) rankingTable() htmlpage.CalibrationTable {
	t := htmlpage.CalibrationTable{Caption: "configs, best first", Sortable: true, Align: "rlrrrrrrrrrr",
		Head: []string{"rank", "config", "found rate", "plateau found", "agreement", "TPOT err p50", "TPOT err p95",
			"plateau err p50 / p95", "confident-but-wrong", "false found", "start err p50 (abs)", "error rows"}}
	for i := range r.Configs {
		c := &r.Configs[i]
		label := c.Label
		if c.ConfigID == r.Recommended {
			label = "**" + label + "**"
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(c.Rank), label,
			fmt.Sprintf("%s (%d/%d)", pct(c.FoundRate), c.FoundEligible, c.Eligible),
			fmt.Sprintf("%s (%d/%d)", pct(c.PlateauFoundRate), c.FoundPlateau, c.PlateauRuns),
			pct(c.AgreeRate), pct(c.ErrMedian), pct(c.ErrP95), pct(c.PlateauErrMedian) + " / " + pct(c.PlateauErrP95),
			fmt.Sprintf("%s (%d/%d)", pct(c.ConfidentWrongRate), c.ConfidentWrong, c.Found), strconv.Itoa(c.FalseFound),
			fmt.Sprintf("%s (%s)", num(c.StartErrMedian, 2), num(c.StartAbsErrMedian, 2)), strconv.Itoa(c.Errors)})
	}
	return t
}

// compatClass colours configs by compat mode, as the PNG does.
func compatClass(compat string) string {
	switch compat {
	case "steadysweep":
		return "c0"
	case "reference":
		return "c1"
	}
	return "c5"
}

// errorPlots are the PNG's panels (plotMetrics) for every swept axis: a
// mark per config and metric, in percent, and the per-value median of the
// first metric (over log10 values on a log panel, as the PNG draws it).
func (r *Report) errorPlots() []htmlpage.ScatterPlot {
	axes := r.Axes
	if len(axes) == 0 {
		axes = []string{"compat"}
	}
	var compats []string
	for i := range r.Configs {
		if c := r.Configs[i].Params["compat"]; !slices.Contains(compats, c) {
			compats = append(compats, c)
		}
	}
	slices.Sort(compats)
	var out []htmlpage.ScatterPlot
	for _, a := range axes {
		values := axisValues(r.Configs, a)
		pos := map[string]int{}
		for i, v := range values {
			pos[v] = i
		}
		cats := make([]string, len(values))
		for i, v := range values {
			cats[i] = shown(v)
		}
		for _, m := range plotMetrics {
			p := htmlpage.ScatterPlot{Title: m.title + " against " + a, YLabel: "%", Log: m.log, Categories: cats,
				LineName: "median over configs (" + m.names[m.medianSeries] + ")"}
			perValue := make([][]float64, len(values))
			for _, compat := range compats {
				for k := range 2 {
					class := compatClass(compat)
					if k == 1 {
						class += " hollow"
					}
					s := htmlpage.ScatterSeries{Name: compat + " " + m.names[k], Class: class}
					for i := range r.Configs {
						c := &r.Configs[i]
						y := m.values[k](c)
						if c.Params["compat"] != compat || math.IsNaN(y) || math.IsInf(y, 0) {
							continue
						}
						y *= 100
						cat := pos[c.Params[a]]
						s.Points = append(s.Points, htmlpage.ScatterPoint{Category: cat, Offset: jitter(c.ConfigID), Y: y,
							Hover: fmt.Sprintf("%s\n%s %s %%", c.Label, m.names[k], num(y, 3))})
						if k == m.medianSeries {
							if m.log {
								y = math.Log10(max(y, logFloor))
							}
							perValue[cat] = append(perValue[cat], y)
						}
					}
					p.Series = append(p.Series, s)
				}
			}
			p.Line = make([]float64, len(values))
			for i, ys := range perValue {
				p.Line[i] = math.NaN()
				if len(ys) > 0 {
					if p.Line[i] = Quantile(ys, 0.5); m.log {
						p.Line[i] = math.Pow(10, p.Line[i])
					}
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// confusionTable is c's confusion matrix over the labels that occur, the
// diagonal bold.
func confusionTable(title string, c *ConfigScore) htmlpage.CalibrationTable {
	t := htmlpage.CalibrationTable{Caption: title + " — " + c.Label}
	var rows, cols []int
	for i := range TruthLabels {
		for j := range PredLabels {
			if c.Confusion[i][j] > 0 {
				rows, cols = appendOnce(rows, i), appendOnce(cols, j)
			}
		}
	}
	if len(rows) == 0 {
		t.Note = "No scored rows."
		return t
	}
	slices.Sort(rows)
	slices.Sort(cols)
	t.Head = []string{"truth \\ row"}
	t.Align = "l"
	for _, j := range cols {
		t.Head = append(t.Head, PredLabels[j])
		t.Align += "r"
	}
	for _, i := range rows {
		row := []string{TruthLabels[i]}
		for _, j := range cols {
			s := strconv.Itoa(c.Confusion[i][j])
			if TruthLabels[i] == PredLabels[j] {
				s = "**" + s + "**"
			}
			row = append(row, s)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Note = fmt.Sprintf("Agreement %s (%d of %d scored rows)", pct(c.AgreeRate), c.Agree, c.Scored)
	if c.Other > 0 {
		t.Note += fmt.Sprintf("; %d rows with a verdict outside the vocabulary", c.Other)
	}
	t.Note += "."
	return t
}

// disagreementTable lists c's disagreements with truth by preset, most
// frequent first.
func disagreementTable(c *ConfigScore) htmlpage.CalibrationTable {
	t := htmlpage.CalibrationTable{Caption: "disagreements with truth, by preset", Head: []string{"preset", "truth", "row", "runs"},
		Align: "lllr", Sortable: true}
	ds := make([]Disagreement, 0, len(c.Disagreements))
	for d := range c.Disagreements {
		ds = append(ds, d)
	}
	slices.SortFunc(ds, func(a, b Disagreement) int {
		if n := c.Disagreements[b] - c.Disagreements[a]; n != 0 {
			return n
		}
		return strings.Compare(a.Preset+a.Truth+a.Label, b.Preset+b.Truth+b.Label)
	})
	for _, d := range ds {
		t.Rows = append(t.Rows, []string{d.Preset, d.Truth, d.Label, strconv.Itoa(c.Disagreements[d])})
	}
	if len(ds) == 0 {
		t.Note = "None."
	}
	return t
}

func rowErrorTable(title string, rows []RowError, total int) htmlpage.CalibrationTable {
	t := htmlpage.CalibrationTable{Caption: title, Align: "llllllrrr", Sortable: true,
		Head: []string{"run", "preset", "truth", "row", "found", "window", "planted TPOT", "steady TPOT p50", "error"}}
	for _, e := range rows {
		win := "—"
		if e.WindowStart >= 0 {
			win = fmt.Sprintf("%d–%d", e.WindowStart, e.WindowEnd)
		}
		t.Rows = append(t.Rows, []string{"`" + filepath.Base(e.RunPath) + "`", e.Preset, e.Truth, e.Label, strconv.FormatBool(e.Found), win,
			num(e.PlantedNs/1e6, 3) + " ms", num(e.TPOTNs/1e6, 3) + " ms", errPct(e.Err)})
	}
	switch {
	case len(rows) == 0:
		t.Note = "None."
	case total > len(rows):
		t.Note = fmt.Sprintf("%d of %d shown.", len(rows), total)
	}
	return t
}

// skippedTable lists the runs with error rows and those skipped for lack
// of a (readable) truth.json.
func (r *Report) skippedTable() (htmlpage.CalibrationTable, bool) {
	t := htmlpage.CalibrationTable{Head: []string{"run", "why", "configs"}, Align: "llr", Sortable: true}
	for _, e := range r.ErrorRuns {
		t.Rows = append(t.Rows, []string{"`" + e.RunPath + "`", "error: " + e.Reason, strconv.Itoa(e.Configs)})
	}
	for _, p := range r.NoTruthRuns {
		t.Rows = append(t.Rows, []string{"`" + p + "`", "no truth.json", ""})
	}
	for _, p := range slices.Sorted(maps.Keys(r.BadTruth)) {
		t.Rows = append(t.Rows, []string{"`" + p + "`", r.BadTruth[p], ""})
	}
	return t, len(t.Rows) > 0
}

// definitionItems are the bullets of the Markdown report's definitions,
// one paragraph each.
func definitionItems() []string {
	var out []string
	for _, l := range strings.Split(definitions, "\n") {
		switch {
		case strings.HasPrefix(l, "## ") || strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, "- "):
			out = append(out, l)
		case len(out) > 0:
			out[len(out)-1] += " " + strings.TrimSpace(l)
		}
	}
	return out
}

// HTMLRecord is the record the page embeds: the report's figures per
// config (rates and quantiles as fractions, null when undefined), the
// recommendation, the swept axes, the presets, and what was skipped.
func (r *Report) HTMLRecord() pyjson.Object {
	f := func(x float64) any {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return x
	}
	configs := make([]any, len(r.Configs))
	for i := range r.Configs {
		c := &r.Configs[i]
		params := pyjson.Object{}
		for _, k := range slices.Sorted(maps.Keys(c.Params)) {
			params = append(params, pyjson.Field{Key: k, Value: c.Params[k]})
		}
		conf := pyjson.Object{}
		for ti, tl := range TruthLabels {
			row := pyjson.Object{}
			for pj, pl := range PredLabels {
				if n := c.Confusion[ti][pj]; n > 0 {
					row = append(row, pyjson.Field{Key: pl, Value: n})
				}
			}
			if len(row) > 0 {
				conf = append(conf, pyjson.Field{Key: tl, Value: row})
			}
		}
		configs[i] = pyjson.Object{
			{Key: "rank", Value: c.Rank}, {Key: "config_id", Value: c.ConfigID}, {Key: "label", Value: c.Label},
			{Key: "rows", Value: c.Rows}, {Key: "errors", Value: c.Errors}, {Key: "no_truth", Value: c.NoTruth}, {Key: "scored", Value: c.Scored},
			{Key: "found_rate", Value: f(c.FoundRate)}, {Key: "found_eligible", Value: c.FoundEligible}, {Key: "eligible", Value: c.Eligible},
			{Key: "plateau_found_rate", Value: f(c.PlateauFoundRate)}, {Key: "agree_rate", Value: f(c.AgreeRate)},
			{Key: "tpot_err_p50", Value: f(c.ErrMedian)}, {Key: "tpot_err_p95", Value: f(c.ErrP95)},
			{Key: "plateau_err_p50", Value: f(c.PlateauErrMedian)}, {Key: "plateau_err_p95", Value: f(c.PlateauErrP95)},
			{Key: "confident_wrong_rate", Value: f(c.ConfidentWrongRate)}, {Key: "confident_wrong", Value: c.ConfidentWrong},
			{Key: "false_found", Value: c.FalseFound}, {Key: "found", Value: c.Found},
			{Key: "start_err_p50", Value: f(c.StartErrMedian)}, {Key: "start_abs_err_p50", Value: f(c.StartAbsErrMedian)},
			{Key: "confusion", Value: conf}, {Key: "params", Value: params},
		}
	}
	presets := pyjson.Object{}
	for _, k := range slices.Sorted(maps.Keys(r.Presets)) {
		presets = append(presets, pyjson.Field{Key: k, Value: r.Presets[k]})
	}
	axes := r.Axes
	if axes == nil {
		axes = []string{}
	}
	noTruth := r.NoTruthRuns
	if noTruth == nil {
		noTruth = []string{}
	}
	errRuns := make([]any, len(r.ErrorRuns))
	for i, e := range r.ErrorRuns {
		errRuns[i] = pyjson.Object{{Key: "run_path", Value: e.RunPath}, {Key: "configs", Value: e.Configs}, {Key: "reason", Value: e.Reason}}
	}
	return pyjson.Object{
		{Key: "page", Value: "calibration"}, {Key: "out", Value: r.Out}, {Key: "rows", Value: r.Rows}, {Key: "runs", Value: r.Runs},
		{Key: "recommended", Value: r.Recommended}, {Key: "why", Value: r.Why}, {Key: "axes", Value: axes}, {Key: "presets", Value: presets},
		{Key: "configs", Value: configs}, {Key: "no_truth_runs", Value: noTruth}, {Key: "error_runs", Value: errRuns},
	}
}
