package htmlpage

import (
	"math"
	"sort"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// stopTables are the sweep page's "could have stopped" tables: the GPU
// time after each run's earliest certified stop, per model and
// concurrency, summed by sinks.StopTotals and laid out by
// sinks.StopTotalsCells exactly as `calibrate` prints them. Like
// calibrate, the totals are taken under steadysweep's defaults when the
// sweep ran them; otherwise each config gets its own table (the sweep
// page has no recommended config). Nil when the rows lack the stop
// columns (written before schema 4).
func stopTables(rows []sinks.Row, cols map[string]bool, configName func(*sinks.Row) string) []table {
	for _, c := range sinks.StopColumns {
		if !cols[c] {
			return nil
		}
	}
	byConfig := map[string][]sinks.StopRow{}
	labels := map[string]string{}
	for i := range rows {
		r := &rows[i]
		id := r.ConfigID
		labels[id] = configName(r)
		byConfig[id] = append(byConfig[id], sinks.StopRow{
			Model:        r.Meta.Model,
			Concurrency:  max(r.Meta.Concurrency, 0),
			RunDurationS: nanUnlessFinite(r.Meta.RunDurationS),
			StopSavedS:   nanUnlessFinite(r.Outcome.StopSavedS),
			StopAgrees:   r.Outcome.StopAgrees && r.Outcome.HasStop(),
		})
	}
	ids := make([]string, 0, len(byConfig))
	for id := range byConfig {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if def := sinks.ConfigID(core.DefaultParams()); byConfig[def] != nil {
		ids = []string{def}
	}
	var out []table
	for _, id := range ids {
		t := table{ID: "stops-" + id, Caption: "config " + labels[id], Head: sinks.StopTotalsHead}
		for _, line := range sinks.StopTotalsCells(sinks.StopTotals(byConfig[id])) {
			cells := make([]cell, len(line))
			for i, s := range line {
				cells[i] = cell{Value: value{Text: s}}
				if i > 0 {
					cells[i].Class = "num"
				}
			}
			t.Rows = append(t.Rows, cells)
		}
		for i := range t.Rows[len(t.Rows)-1] { // the "total" row
			t.Rows[len(t.Rows)-1][i].Bold = true
		}
		out = append(out, t)
	}
	return out
}

// nanUnlessFinite is x, NaN (the rows' null) when x is ±Inf.
func nanUnlessFinite(x float64) float64 {
	if !finite(x) {
		return math.NaN()
	}
	return x
}
