package htmlpage

import (
	"context"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
)

// Sweep is a finished sweep's output as its page shows it: every row of
// OUT/rows and the per-super-pass series of OUT/series, typed as the
// rows reader reads them (sinks.ReadRows, sinks.ReadSeries: a column an
// older part file lacks reads as its field's null value, and Has says
// so).
type Sweep struct {
	// Out is the sweep output directory.
	Out    string
	Rows   []sinks.Row
	Series []sinks.SeriesRow
}

// ReadSweep reads OUT/rows and OUT/series; it is an error for OUT to have
// no rows. A missing OUT/series is no series.
func ReadSweep(ctx context.Context, out string) (*Sweep, error) {
	o := sinks.ReadOptions{}
	rows, err := collect(sinks.ReadRows(ctx, filepath.Join(out, "rows"), o))
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows under %s: not a sweep output directory, or the sweep wrote nothing", filepath.Join(out, "rows"))
	}
	series, err := collect(sinks.ReadSeries(ctx, filepath.Join(out, "series"), o))
	if err != nil {
		return nil, err
	}
	return &Sweep{Out: out, Rows: rows, Series: series}, nil
}

// collect is every value of seq, or its first error.
func collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// RunPagesDir is where a sweep writes its per-run pages: OUT/pages.
func RunPagesDir(out string) string { return filepath.Join(out, "pages") }

// RunPageName is the file name of the page of one row: run id and config
// id, the row's key within one input.
func RunPageName(runID, configID string) string { return runID + "-" + configID + ".html" }

// SweepOptions place a sweep page.
type SweepOptions struct {
	// PageDir is the directory the page is written to; links to per-run
	// pages are relative to it.
	PageDir string
	// RunPages reports whether the page of a row exists (a file name in
	// RunPagesDir); nil: no links.
	RunPages func(name string) bool
	// Stop, when set, is polled while the page is built (stop.go); its
	// error ends WriteSweep at once, before anything is written to w.
	Stop func() error
}

// WriteSweep writes the page of a sweep: every row once, with a TPOT
// sparkline of its run's series, status and verdict badges, steady vs
// total, filters by status, verdict, model, config (and the other
// identity columns the rows have), sortable columns, and a link to the
// row's run page when there is one. The page embeds its record:
//
//	page     "sweep"
//	out      the output directory
//	columns  the rows' column names
//	rows     every row, each an object keyed by column
//	series   per run: run_id, events_sha256, superpass_size, tpot_p50_ns
//	         (one value per super-pass; null where a super-pass has none)
func WriteSweep(w io.Writer, s *Sweep, o SweepOptions) error {
	return writeSweep(w, s, o, &stopper{stop: o.Stop})
}

func writeSweep(w io.Writer, s *Sweep, o SweepOptions, st *stopper) error {
	cols := presentColumns(s.Rows)
	series, err := seriesRuns(s.Series, st)
	if err != nil {
		return err
	}
	rec, err := sweepRecord(s, cols, series, st)
	if err != nil {
		return err
	}
	v, err := sweepViewOf(s.Rows, cols, series, s.Out, o, st)
	if err != nil {
		return err
	}
	return writePageStopping(w, "sweep", "steadysweep sweep · "+filepath.Base(filepath.Clean(s.Out)), stoppingRecord(rec, "rows", st),
		func(p *pageWriter) { p.sweepBody(&v) }, st)
}

// seriesKey identifies a run's series: the run and its input bytes.
func seriesKey(runID, sha string) string { return runID + "/" + sha }

// column is one rows column some row's part file has: its name and its
// index in sinks.RowsColumns.
type column struct {
	name string
	i    int
}

// presentColumns are the rows columns some row has (Row.Has), in schema
// order: a column every part file lacks (written before it existed) is
// left off the page and its record.
func presentColumns(rows []sinks.Row) []column {
	var out []column
	for i, c := range sinks.RowsColumns() {
		if slices.ContainsFunc(rows, func(r sinks.Row) bool { return r.Has(c.Name) }) {
			out = append(out, column{c.Name, i})
		}
	}
	return out
}

// seriesRun is one run's TPOT p50 series, as the page draws it and its
// record embeds it.
type seriesRun struct {
	id, sha string
	size    int
	// tpot is one value per super-pass 0…max, NaN where there is none.
	tpot []float64
}

// seriesRuns gathers the series rows by run (seriesKey), in key order.
func seriesRuns(rows []sinks.SeriesRow, st *stopper) ([]seriesRun, error) {
	type run struct {
		seriesRun
		bySP  map[int]float64
		maxSP int
	}
	byKey := map[string]*run{}
	var order []string
	for i := range rows {
		if err := st.poll(); err != nil {
			return nil, err
		}
		r := &rows[i]
		k := seriesKey(r.RunID, r.EventsSHA256)
		ru := byKey[k]
		if ru == nil {
			ru = &run{seriesRun: seriesRun{id: r.RunID, sha: r.EventsSHA256, size: r.SuperpassSize}, bySP: map[int]float64{}, maxSP: -1}
			byKey[k] = ru
			order = append(order, k)
		}
		if !r.Has("sp") || r.SP < 0 || r.SP > 1<<20 {
			continue
		}
		ru.bySP[r.SP] = math.NaN()
		if r.Has("tpot_p50_ns") {
			ru.bySP[r.SP] = r.TPOTP50Ns
		}
		ru.maxSP = max(ru.maxSP, r.SP)
	}
	sort.Strings(order)
	out := make([]seriesRun, len(order))
	for i, k := range order {
		ru := byKey[k]
		ru.tpot = make([]float64, ru.maxSP+1)
		for sp := range ru.tpot {
			x, ok := ru.bySP[sp]
			if !ok {
				x = math.NaN()
			}
			ru.tpot[sp] = x
		}
		out[i] = ru.seriesRun
	}
	return out, nil
}

// nullable is x as a record value: nil (null) when it is not finite, as
// the rows table stores it.
func nullable(x float64) any {
	if !finite(x) {
		return nil
	}
	return x
}

func sweepRecord(s *Sweep, cols []column, series []seriesRun, st *stopper) (pyjson.Object, error) {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	rows := make([]any, len(s.Rows))
	for i := range s.Rows {
		if err := st.poll(); err != nil {
			return nil, err
		}
		cells := sinks.RowCells(&s.Rows[i])
		o := make(pyjson.Object, len(cols))
		for j, c := range cols {
			o[j] = pyjson.Field{Key: c.name, Value: cells[c.i]}
		}
		rows[i] = o
	}
	recs := make([]any, len(series))
	for i, ru := range series {
		vals := make([]any, len(ru.tpot))
		for sp, x := range ru.tpot {
			vals[sp] = nullable(x)
		}
		recs[i] = pyjson.Object{{Key: "run_id", Value: ru.id}, {Key: "events_sha256", Value: ru.sha},
			{Key: "superpass_size", Value: int64(ru.size)}, {Key: "tpot_p50_ns", Value: vals}}
	}
	return pyjson.Object{
		{Key: "page", Value: "sweep"}, {Key: "out", Value: s.Out}, {Key: "columns", Value: names},
		{Key: "rows", Value: rows}, {Key: "series", Value: recs},
	}, nil
}

// sweepView is the sweep page as sweepBody draws it.
type sweepView struct {
	Out        string
	Rows, Runs int
	Configs    int
	Tally      []tally
	Filters    []filter
	Head       []string
	HasModel   bool
	Lines      []sweepRow
	// MissingSeries says which rows have no series, one line per cause.
	MissingSeries  []string
	MissingColumns []string

	// Stops are the "could have stopped" tables (stopTables).
	Stops []table
}

type tally struct {
	Text, Tone string
	N          int
}

// filter is a select over one column's values.
type filter struct {
	Name, Label string
	Options     []string
}

type sweepRow struct {
	Key, RunID        string
	Attrs             []attr
	Run, Link, Config string
	Model             value
	Status, Verdict   badge
	Spark             *sparkline
	Cells             []cell
	Reason            string
}

type attr struct{ Name, Value string }

// filterColumns are the row columns the page filters by, when present
// (older part files lack some): their attribute name, label and value.
// Status and verdict always get a filter, the others when they take two
// values or more. The config's value is the row's config name.
var filterColumns = []struct {
	col, name, label string
	get              func(r *sinks.Row) string
}{
	{"status", "status", "status", func(r *sinks.Row) string { return string(r.Outcome.Status) }},
	{"verdict", "verdict", "verdict", func(r *sinks.Row) string { return string(r.Outcome.Verdict) }},
	{"model", "model", "model", func(r *sinks.Row) string { return r.Meta.Model }},
	{"config_label", "config", "config", nil},
	{"preset", "preset", "preset", func(r *sinks.Row) string { return r.Preset }},
	{"load_pattern", "load", "load pattern", func(r *sinks.Row) string { return r.Meta.LoadPattern }},
	{"concurrency", "concurrency", "concurrency", func(r *sinks.Row) string { return positive(r.Meta.Concurrency) }},
	{"compat", "compat", "compat", func(r *sinks.Row) string { return string(r.Params.Compat) }},
	{"source_format", "format", "format", func(r *sinks.Row) string { return r.Provenance.SourceFormat }},
}

// positive is a count where 0 means none (the rows' null): "" then.
func positive(n int) string {
	if n <= 0 {
		return ""
	}
	return count(float64(n)).Text
}

func sweepViewOf(rows []sinks.Row, present []column, series []seriesRun, out string, o SweepOptions, st *stopper) (sweepView, error) {
	cols := map[string]bool{}
	for _, c := range present {
		cols[c.name] = true
	}
	v := sweepView{Out: out}
	byKey := map[string]*seriesRun{}
	for i := range series {
		byKey[seriesKey(series[i].id, series[i].sha)] = &series[i]
	}
	runs, configs := map[string]bool{}, map[string]bool{}
	statusN, missing := map[string]int{}, map[string]int{}
	values := map[string]map[string]bool{}
	labels := configLabels(rows)
	configName := func(r *sinks.Row) string {
		if cols["config_label"] && r.ConfigLabel != "" {
			return r.ConfigLabel
		}
		if s := labels[r.ConfigID]; s != "" {
			return s
		}
		return r.ConfigID
	}
	v.Head = []string{"run", "config"}
	if v.HasModel = cols["model"]; v.HasModel {
		v.Head = append(v.Head, "model")
	}
	v.Head = append(v.Head, "status · verdict", "TPOT p50 series", "window", "TPOT p50", "TTFT p50", "system TPS")
	failures := cols["failed_frac"] || cols["n_failed"]
	if failures {
		v.Head = append(v.Head, "failed")
	}
	for i := range rows {
		if err := st.poll(); err != nil {
			return v, err
		}
		r := &rows[i]
		oc := &r.Outcome
		id, cfg := r.RunID, r.ConfigID
		runs[id], configs[cfg] = true, true
		status, verdict := string(oc.Status), string(oc.Verdict)
		statusN[status]++
		line := sweepRow{Key: id + "|" + cfg, RunID: id, Run: sinks.OneLine(r.RunRel), Config: configName(r),
			Status: badge{orNA(status), statusTone(status)}, Verdict: badge{orNA(verdict), verdictTone(verdict)},
			Reason: oc.Reason}
		if line.Run == "" {
			line.Run = sinks.OneLine(r.RunPath)
		}
		for _, f := range filterColumns {
			if !cols[f.col] {
				continue
			}
			val := line.Config
			if f.get != nil {
				val = f.get(r)
			}
			line.Attrs = append(line.Attrs, attr{f.name, val})
			if values[f.name] == nil {
				values[f.name] = map[string]bool{}
			}
			values[f.name][val] = true
		}
		if !cols["config_label"] {
			line.Attrs = append(line.Attrs, attr{"config", line.Config})
			if values["config"] == nil {
				values["config"] = map[string]bool{}
			}
			values["config"][line.Config] = true
		}
		if o.RunPages != nil {
			name := RunPageName(id, cfg)
			if o.RunPages(name) {
				line.Link = relLink(o.PageDir, filepath.Join(RunPagesDir(out), name))
			}
		}
		s := byKey[seriesKey(id, r.Provenance.EventsSHA256)]
		if s == nil {
			missing[missingSeriesCause(r)]++
		} else {
			line.Spark = sparkOf(s, r)
		}
		line.Model = text(r.Meta.Model)
		win, winSort := na(""), ""
		if lo := oc.WindowStartSP; lo >= 0 {
			win, winSort = text(spRange(lo, max(oc.WindowEndSP, 0))), f64(float64(lo))
		}
		wc := cell{Value: win, Sort: winSort}
		if !win.NA && !oc.Found {
			// The row's window and steady values are the detector's best
			// effort, as the text report prints them; say so beside them.
			wc.Sub = []string{"not certified"}
		}
		line.Cells = append(line.Cells, wc)
		for _, m := range []struct {
			key           string
			steady, total float64
		}{
			{"tpot_p50_ns", oc.SteadyTPOTP50Ns, oc.TotalTPOTP50Ns},
			{"ttft_p50_ns", oc.SteadyTTFTP50Ns, oc.TotalTTFTP50Ns},
			{"tps_system", oc.SteadyTPSSystem, oc.TotalTPSSystem},
		} {
			c := numCell("steady_"+m.key, m.steady)
			if m.key == "tps_system" {
				c.Sub = append(c.Sub, "CI "+ciCell("steady_"+m.key, oc.SteadyTPSSystemCILo, oc.SteadyTPSSystemCIHi).Value.Text)
			}
			c.Sub = append(c.Sub, "total "+numCell("total_"+m.key, m.total).Value.Text)
			line.Cells = append(line.Cells, c)
		}
		if failures {
			// The failures are known for a run that was read (the rows'
			// n_failed and failed_frac are null otherwise).
			frac := math.NaN()
			if r.Meta.Loaded {
				frac = oc.FailedFrac
			}
			fc := numCell("failed_frac", frac)
			if r.Meta.Loaded && !fc.Value.NA {
				fc.Value.Text = count(float64(oc.NFailed)).Text + " (" + fc.Value.Text + ")"
			}
			line.Cells = append(line.Cells, fc)
		}
		v.Lines = append(v.Lines, line)
	}
	v.Rows, v.Runs, v.Configs = len(rows), len(runs), len(configs)
	for _, cause := range slices.Sorted(maps.Keys(missing)) {
		v.MissingSeries = append(v.MissingSeries, sinks.Count(missing[cause], "row")+" without a series: "+cause)
	}
	v.Stops = stopTables(rows, cols, configName)
	for _, s := range slices.Sorted(maps.Keys(statusN)) {
		v.Tally = append(v.Tally, tally{Text: orNA(s), Tone: statusTone(s), N: statusN[s]})
	}
	for _, f := range append(filterColumns, struct {
		col, name, label string
		get              func(r *sinks.Row) string
	}{"", "config", "config", nil}) {
		vals := values[f.name]
		always := f.name == "status" || f.name == "verdict"
		if len(vals) == 0 || (len(vals) < 2 && !always) || slices.ContainsFunc(v.Filters, func(x filter) bool { return x.Name == f.name }) {
			continue
		}
		v.Filters = append(v.Filters, filter{Name: f.name, Label: f.label, Options: slices.Sorted(maps.Keys(vals))})
	}
	for _, c := range []string{"model", "config_label", "preset", "load_pattern", "concurrency"} {
		if !cols[c] {
			v.MissingColumns = append(v.MissingColumns, c)
		}
	}
	return v, st.now()
}

// missingSeriesCause says why row r has no series in the sweep's output:
// its run failed (the row's reason says how), or the sweep had no
// super-pass size to draw it at.
func missingSeriesCause(r *sinks.Row) string {
	if r.Outcome.Status == core.StatusError {
		return "the run failed (status error): it could not be read or analysed, as the row's reason says; no sparkline."
	}
	if r.Meta.DatasetSize <= 0 {
		return "the run's dataset size was unknown, so there is no super-pass size to draw it at; no sparkline."
	}
	return "the output holds none for the run; no sparkline."
}

// configLabels names each config_id of rows by its compat mode (and
// method) and its values on the parameters that differ between the
// configs, for rows written before the config_label column existed.
func configLabels(rows []sinks.Row) map[string]string {
	byID := map[string]*sinks.Row{}
	var ids []string
	for i := range rows {
		id := rows[i].ConfigID
		if _, ok := byID[id]; !ok {
			byID[id] = &rows[i]
			ids = append(ids, id)
		}
	}
	var axes []core.ParamSpec
	var compat, method core.ParamSpec
	for _, s := range core.ParamSpecs() {
		switch s.Name {
		case "compat":
			compat = s
			continue
		case "method":
			method = s
			continue
		}
		vals := map[string]bool{}
		for _, id := range ids {
			vals[paramText(byID[id], s)] = true
		}
		if len(vals) > 1 {
			axes = append(axes, s)
		}
	}
	out := map[string]string{}
	for _, id := range ids {
		r := byID[id]
		name := paramText(r, compat)
		if m := paramText(r, method); m != "" && m != string(core.MethodSteady) {
			name += "/" + m
		}
		for _, a := range axes {
			name += " " + a.Name + "=" + orEmpty(paramText(r, a))
		}
		out[id] = strings.TrimSpace(name)
	}
	return out
}

// paramText is the value of parameter s in row r as the page writes a
// row's value: numbers by general, "" for null or a column r's part file
// lacks.
func paramText(r *sinks.Row, s core.ParamSpec) string {
	if !r.Has(s.Name) {
		return ""
	}
	switch s.Kind {
	case core.KindInteger:
		return general(float64(*s.Int(&r.Params))).Text
	case core.KindNumber:
		if x := *s.Float(&r.Params); finite(x) {
			return general(x).Text
		}
		return ""
	case core.KindBool:
		return strconv.FormatBool(*s.Bool(&r.Params))
	}
	return s.Text(&r.Params)
}

// numCell formats the value x of row column c by its name's unit
// (numberValue), n/a when null; its sort key is x.
func numCell(c string, x float64) cell {
	if !finite(x) {
		return cell{Value: na(""), Class: "num"}
	}
	return cell{Value: numberValue(c, x), Class: "num", Sort: f64(x)}
}

// ciCell is the [lo, hi] of row column c's interval (c_ci_lo, c_ci_hi).
func ciCell(c string, lo, hi float64) cell {
	if !finite(lo) || !finite(hi) {
		return cell{Value: na(""), Class: "num"}
	}
	f, _ := unitOf(c)
	return cell{Value: text("[" + f(lo).Text + ", " + f(hi).Text + "]"), Class: "num"}
}

// relLink is target relative to dir, slash-separated, for an href.
func relLink(dir, target string) string {
	if dir == "" {
		return filepath.ToSlash(target)
	}
	rel, err := filepath.Rel(dir, target)
	if err != nil {
		return filepath.ToSlash(target)
	}
	return filepath.ToSlash(rel)
}

// sparkline is a row's TPOT p50 series drawn small: warmup shaded and the
// row's window when it is reported and at the series' super-pass size.
type sparkline struct {
	W, H   float64
	D      string
	Bands  []band
	Title  string
	Points int
}

const (
	sparkW = 120.0
	sparkH = 28.0
)

func sparkOf(s *seriesRun, r *sinks.Row) *sparkline {
	vals := s.tpot
	n := len(vals)
	sp := &sparkline{W: sparkW, H: sparkH}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range vals {
		if finite(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
			sp.Points++
		}
	}
	sp.Title = "TPOT p50 over " + sinks.Count(n, "super-pass") + " of " + sinks.Count(s.size, "sample")
	if sp.Points == 0 {
		sp.Title = "no TPOT in this run's series"
		return sp
	}
	sp.Title += fmt.Sprintf(": %s to %s", msOf(lo).Text, msOf(hi).Text) + " ms"
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	step := sparkW / float64(n)
	x := func(i int) float64 { return (float64(i) + 0.5) * step }
	y := func(v float64) float64 { return 2 + (hi-v)/(hi-lo)*(sparkH-4) }
	oc := &r.Outcome
	used := -1 // the row's super-pass size; none in a part file without it
	if r.Has("superpass_size_used") {
		used = oc.SuperpassSize
	}
	sameSize := used == s.size
	if w := oc.Warmup; sameSize && w > 0 {
		sp.Bands = append(sp.Bands, band{X: 0, W: float64(min(w, n)) * step, Class: "warmup"})
	}
	if wlo, whi := oc.WindowStartSP, oc.WindowEndSP; sameSize && oc.Found && wlo >= 0 && whi >= wlo {
		sp.Bands = append(sp.Bands, band{X: float64(wlo) * step, W: float64(min(whi, n-1)-wlo+1) * step, Class: "window"})
	}
	sp.D = linePath(vals, x, y)
	return sp
}
