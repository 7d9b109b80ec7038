package htmlpage

import (
	"context"
	"fmt"
	"github.com/steadysweep/steadysweep/sinks"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// Sweep is a finished sweep's output as its page shows it: every row of
// OUT/rows and the per-super-pass series of OUT/series, columns by name.
type Sweep struct {
	// Out is the sweep output directory.
	Out    string
	Rows   *Table
	Series *Table
}

// ReadSweep reads OUT/rows and OUT/series; it is an error for OUT to have
// no rows.
func ReadSweep(ctx context.Context, out string, mem memory.Allocator) (*Sweep, error) {
	rows, err := ReadRowsTable(ctx, filepath.Join(out, "rows"), mem)
	if err != nil {
		return nil, err
	}
	if len(rows.Rows) == 0 {
		return nil, fmt.Errorf("no rows under %s: not a sweep output directory, or the sweep wrote nothing", filepath.Join(out, "rows"))
	}
	series, err := ReadSeriesTable(ctx, filepath.Join(out, "series"), mem)
	if err != nil {
		return nil, err
	}
	return &Sweep{Out: out, Rows: rows, Series: series}, nil
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
	rec, err := sweepRecord(s, st)
	if err != nil {
		return err
	}
	u, err := uniformStopping(rec, st)
	if err != nil {
		return err
	}
	v, err := sweepViewOf(u, s.Out, o, st)
	if err != nil {
		return err
	}
	return writePageStopping(w, "sweep", "steadysweep sweep · "+filepath.Base(filepath.Clean(s.Out)), stoppingRecord(rec, "rows", st), v, st)
}

// seriesKey identifies a run's series: the run and its input bytes.
func seriesKey(runID, sha string) string { return runID + "/" + sha }

func sweepRecord(s *Sweep, st *stopper) (pyjson.Object, error) {
	rows := make([]any, len(s.Rows.Rows))
	for i, r := range s.Rows.Rows {
		if err := st.poll(); err != nil {
			return nil, err
		}
		o := make(pyjson.Object, 0, len(s.Rows.Columns))
		for _, c := range s.Rows.Columns {
			o = append(o, pyjson.Field{Key: c, Value: r[c]})
		}
		rows[i] = o
	}
	type run struct {
		id, sha string
		size    int64
		tpot    map[int64]any
		maxSP   int64
	}
	byKey := map[string]*run{}
	var order []string
	for _, r := range s.Series.Rows {
		if err := st.poll(); err != nil {
			return nil, err
		}
		id, _ := r["run_id"].(string)
		sha, _ := r["events_sha256"].(string)
		k := seriesKey(id, sha)
		ru := byKey[k]
		if ru == nil {
			size, _ := r["superpass_size"].(int64)
			ru = &run{id: id, sha: sha, size: size, tpot: map[int64]any{}, maxSP: -1}
			byKey[k] = ru
			order = append(order, k)
		}
		sp, ok := r["sp"].(int64)
		if !ok || sp < 0 || sp > 1<<20 {
			continue
		}
		ru.tpot[sp] = r["tpot_p50_ns"]
		ru.maxSP = max(ru.maxSP, sp)
	}
	sort.Strings(order)
	series := make([]any, len(order))
	for i, k := range order {
		ru := byKey[k]
		vals := make([]any, ru.maxSP+1)
		for sp := range vals {
			vals[sp] = ru.tpot[int64(sp)]
		}
		series[i] = pyjson.Object{{Key: "run_id", Value: ru.id}, {Key: "events_sha256", Value: ru.sha},
			{Key: "superpass_size", Value: ru.size}, {Key: "tpot_p50_ns", Value: vals}}
	}
	return pyjson.Object{
		{Key: "page", Value: "sweep"}, {Key: "out", Value: s.Out}, {Key: "columns", Value: s.Rows.Columns},
		{Key: "rows", Value: rows}, {Key: "series", Value: series},
	}, nil
}

// sweepView is the sweep page as the template draws it.
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
// (older part files lack some): their attribute name and label. Status and
// verdict always get a filter, the others when they take two values or
// more.
var filterColumns = []struct{ col, name, label string }{
	{"status", "status", "status"},
	{"verdict", "verdict", "verdict"},
	{"model", "model", "model"},
	{"config_label", "config", "config"},
	{"preset", "preset", "preset"},
	{"load_pattern", "load", "load pattern"},
	{"concurrency", "concurrency", "concurrency"},
	{"compat", "compat", "compat"},
	{"source_format", "format", "format"},
}

func sweepViewOf(rec node, out string, o SweepOptions, st *stopper) (sweepView, error) {
	cols := map[string]bool{}
	for _, c := range list(get(rec, "columns")) {
		if s, ok := c.(string); ok {
			cols[s] = true
		}
	}
	v := sweepView{Out: out}
	series := map[string]node{}
	for _, s := range list(get(rec, "series")) {
		series[seriesKey(stringAt(s, "run_id"), stringAt(s, "events_sha256"))] = s
	}
	runs, configs := map[string]bool{}, map[string]bool{}
	statusN, missing := map[string]int{}, map[string]int{}
	values := map[string]map[string]bool{}
	rows := list(get(rec, "rows"))
	labels := configLabels(rows)
	configName := func(r node) string {
		if cols["config_label"] {
			if s := cellText(get(r, "config_label")); s != "" {
				return s
			}
		}
		if s := labels[stringAt(r, "config_id")]; s != "" {
			return s
		}
		return stringAt(r, "config_id")
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
	for _, r := range rows {
		if err := st.poll(); err != nil {
			return v, err
		}
		id, cfg := stringAt(r, "run_id"), stringAt(r, "config_id")
		runs[id], configs[cfg] = true, true
		status, verdict := stringAt(r, "status"), stringAt(r, "verdict")
		statusN[status]++
		line := sweepRow{Key: id + "|" + cfg, RunID: id, Run: stringAt(r, "run_rel"), Config: configName(r),
			Status: badge{orNA(status), statusTone(status)}, Verdict: badge{orNA(verdict), verdictTone(verdict)},
			Reason: stringAt(r, "reason")}
		if line.Run == "" {
			line.Run = stringAt(r, "run_path")
		}
		for _, f := range filterColumns {
			if !cols[f.col] {
				continue
			}
			val := cellText(get(r, f.col))
			if f.col == "config_label" {
				val = line.Config
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
		s := series[seriesKey(id, stringAt(r, "events_sha256"))]
		if s == nil {
			missing[missingSeriesCause(r)]++
		} else {
			line.Spark = sparkOf(s, r)
		}
		line.Model = text(cellText(get(r, "model")))
		win := na("")
		if lo, ok := number(get(r, "window_start_sp")); ok {
			hi, _ := number(get(r, "window_end_sp"))
			win = text(spRange(int(lo), int(hi)))
		}
		wc := cell{Value: win, Sort: sortKey(get(r, "window_start_sp"))}
		if !win.NA && !boolAt(r, "found") {
			// The row's window and steady values are the detector's best
			// effort, as the text report prints them; say so beside them.
			wc.Sub = []string{"not certified"}
		}
		line.Cells = append(line.Cells, wc)
		for _, m := range []string{"tpot_p50_ns", "ttft_p50_ns", "tps_system"} {
			c := numCell(r, "steady_"+m)
			if m == "tps_system" {
				c.Sub = append(c.Sub, "CI "+ciCell(r, "steady_"+m).Value.Text)
			}
			c.Sub = append(c.Sub, "total "+leafValue(r, "total_"+m, get(r, "total_"+m)).Text)
			line.Cells = append(line.Cells, c)
		}
		if failures {
			fc := numCell(r, "failed_frac")
			if n, ok := number(get(r, "n_failed")); ok && !fc.Value.NA {
				fc.Value.Text = count(n).Text + " (" + fc.Value.Text + ")"
			}
			line.Cells = append(line.Cells, fc)
		}
		v.Lines = append(v.Lines, line)
	}
	v.Rows, v.Runs, v.Configs = len(rows), len(runs), len(configs)
	for _, cause := range sortedKeys(missing) {
		v.MissingSeries = append(v.MissingSeries, sinks.Count(missing[cause], "row")+" without a series: "+cause)
	}
	v.Stops = stopTables(rows, cols, configName)
	for _, s := range sortedKeys(statusN) {
		v.Tally = append(v.Tally, tally{Text: orNA(s), Tone: statusTone(s), N: statusN[s]})
	}
	for _, f := range append(filterColumns, struct{ col, name, label string }{"", "config", "config"}) {
		vals := values[f.name]
		always := f.name == "status" || f.name == "verdict"
		if len(vals) == 0 || (len(vals) < 2 && !always) || slices.ContainsFunc(v.Filters, func(x filter) bool { return x.Name == f.name }) {
			continue
		}
		v.Filters = append(v.Filters, filter{Name: f.name, Label: f.label, Options: sortedKeys(vals)})
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
func missingSeriesCause(r node) string {
	if stringAt(r, "status") == "error" {
		return "the run failed (status error): it could not be read or analysed, as the row's reason says; no sparkline."
	}
	if n, ok := number(get(r, "dataset_size")); !ok || n <= 0 {
		return "the run's dataset size was unknown, so there is no super-pass size to draw it at; no sparkline."
	}
	return "the output holds none for the run; no sparkline."
}

// configLabels names each config_id of rows by its compat mode (and
// method) and its values on the parameters that differ between the
// configs, for rows written before the config_label column existed.
func configLabels(rows []any) map[string]string {
	byID := map[string]node{}
	var ids []string
	for _, r := range rows {
		id := stringAt(r, "config_id")
		if _, ok := byID[id]; !ok {
			byID[id] = r
			ids = append(ids, id)
		}
	}
	var axes []string
	for _, n := range core.Names() {
		if n == "compat" || n == "method" {
			continue
		}
		vals := map[string]bool{}
		for _, id := range ids {
			vals[cellText(get(byID[id], n))] = true
		}
		if len(vals) > 1 {
			axes = append(axes, n)
		}
	}
	out := map[string]string{}
	for _, id := range ids {
		r := byID[id]
		name := cellText(get(r, "compat"))
		if m := cellText(get(r, "method")); m != "" && m != "steady" {
			name += "/" + m
		}
		for _, a := range axes {
			name += " " + a + "=" + orEmpty(cellText(get(r, a)))
		}
		out[id] = strings.TrimSpace(name)
	}
	return out
}

// cellText is a row value as text ("" for null).
func cellText(v node) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return general(x).Text
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// sortKey is a numeric sort key for a row value ("" when not a number).
func sortKey(v node) string {
	if x, ok := number(v); ok && finite(x) {
		return f64(x)
	}
	return ""
}

// numCell formats row column c by its name's unit, n/a with the reason
// column c_reason gives when null.
func numCell(r node, c string) cell {
	return cell{Value: leafValue(r, c, get(r, c)), Class: "num", Sort: sortKey(get(r, c))}
}

// ciCell is the [lo, hi] of columns c_ci_lo and c_ci_hi.
func ciCell(r node, c string) cell {
	lo, ok1 := number(get(r, c+"_ci_lo"))
	hi, ok2 := number(get(r, c+"_ci_hi"))
	if !ok1 || !ok2 {
		return cell{Value: na(reasonFor(r, c+"_ci")), Class: "num"}
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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

func sparkOf(s, r node) *sparkline {
	vals := list(get(s, "tpot_p50_ns"))
	n := len(vals)
	sp := &sparkline{W: sparkW, H: sparkH}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if x, ok := number(v); ok && finite(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
			sp.Points++
		}
	}
	sp.Title = "TPOT p50 over " + sinks.Count(n, "super-pass") + " of " + sinks.Count(intAt(s, 0, "superpass_size"), "sample")
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
	sameSize := intAt(r, -1, "superpass_size_used") == intAt(s, -2, "superpass_size")
	if w := intAt(r, 0, "warmup_sp"); sameSize && w > 0 {
		sp.Bands = append(sp.Bands, band{X: 0, W: float64(min(w, n)) * step, Class: "warmup"})
	}
	if wlo, whi := intAt(r, -1, "window_start_sp"), intAt(r, -1, "window_end_sp"); sameSize && boolAt(r, "found") && wlo >= 0 && whi >= wlo {
		sp.Bands = append(sp.Bands, band{X: float64(wlo) * step, W: float64(min(whi, n-1)-wlo+1) * step, Class: "window"})
	}
	ys := make([]float64, n)
	for i, v := range vals {
		ys[i] = math.NaN()
		if x0, ok := number(v); ok {
			ys[i] = x0
		}
	}
	sp.D = linePath(ys, x, y)
	return sp
}
