package sinks

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// StopTotal is what the runs of one model at one concurrency could have
// saved by stopping at their earliest certified stop (rows' stop_saved_s,
// core.Run.EarliestStopOf) under one parameter set: their wall time, the
// share after the stop, and how many stops the full runs agree with.
// `calibrate` and the sweep page both show it, from StopTotals.
type StopTotal struct {
	Model string
	// Concurrency is the target concurrency (0: none or unknown).
	Concurrency int
	// Runs counts the rows; Stopped those with a stop; Agree those whose
	// full run's system TPS and TPOT p50 lie in the stop's intervals.
	Runs, Stopped, Agree int
	// RunS is the runs' total wall time (run_duration_s) and SavedS the
	// part after their stops (s); NaN durations are left out of the sums.
	RunS, SavedS float64
}

// StopRow is what StopTotals reads of one rows row: model, concurrency
// (0: null), run_duration_s and stop_saved_s (NaN: null; a null
// stop_saved_s is a run without a stop) and stop_agrees.
type StopRow struct {
	Model        string
	Concurrency  int
	RunDurationS float64
	StopSavedS   float64
	StopAgrees   bool
}

// StopColumns are the rows columns the totals read; rows files written
// before they existed have none, and then there are no totals.
var StopColumns = []string{"model", "concurrency", "run_duration_s", "stop_saved_s", "stop_agrees"}

// HasStopColumns reports whether r's part file has every StopColumns
// column.
func HasStopColumns(r *Row) bool {
	for _, c := range StopColumns {
		if !r.Has(c) {
			return false
		}
	}
	return true
}

// StopTotals sums rows (of one config) by model and concurrency, sorted
// by model, then concurrency: every row counts in Runs and RunS, a row
// with a stop (non-NaN StopSavedS) in Stopped, SavedS and, when its full
// run agrees, Agree. Nil for no rows.
func StopTotals(rows []StopRow) []StopTotal {
	by := map[[2]string]*StopTotal{}
	var out []*StopTotal
	for i := range rows {
		r := &rows[i]
		key := [2]string{r.Model, fmt.Sprint(r.Concurrency)}
		t := by[key]
		if t == nil {
			t = &StopTotal{Model: r.Model, Concurrency: r.Concurrency}
			by[key] = t
			out = append(out, t)
		}
		t.Runs++
		if !math.IsNaN(r.RunDurationS) {
			t.RunS += r.RunDurationS
		}
		if !math.IsNaN(r.StopSavedS) {
			t.Stopped++
			t.SavedS += r.StopSavedS
			if r.StopAgrees {
				t.Agree++
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortFunc(out, func(a, b *StopTotal) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Concurrency, b.Concurrency))
	})
	res := make([]StopTotal, len(out))
	for i, t := range out {
		res[i] = *t
	}
	return res
}

// StopTotalsHead are the columns of the "could have stopped" table, the
// same in `calibrate`'s text and Markdown and on the sweep page: wall
// and saved time in hours, saved as a percentage of the wall time.
var StopTotalsHead = []string{"model", "concurrency", "runs", "stops", "agree", "run h", "saved h", "saved"}

// StopTotalsCells renders totals as the table's rows (StopTotalsHead),
// one per total and a last "total" row summing them: model ("(unknown)"
// when empty), concurrency ("n/a" when 0), counts, hours to 2 decimals
// and the saved share to 0.1 % ("n/a" without wall time).
func StopTotalsCells(totals []StopTotal) [][]string {
	var out [][]string
	row := func(model, conc string, runs, stops, agree int, runS, savedS float64) {
		frac := "n/a"
		if runS > 0 {
			frac = fmt.Sprintf("%.1f%%", 100*savedS/runS)
		}
		out = append(out, []string{model, conc, fmt.Sprint(runs), fmt.Sprint(stops), fmt.Sprint(agree),
			fmt.Sprintf("%.2f", runS/3600), fmt.Sprintf("%.2f", savedS/3600), frac})
	}
	var run, saved float64
	nRuns, nStops, nAgree := 0, 0, 0
	for _, t := range totals {
		conc := "n/a"
		if t.Concurrency > 0 {
			conc = fmt.Sprint(t.Concurrency)
		}
		model := t.Model
		if model == "" {
			model = "(unknown)"
		}
		row(model, conc, t.Runs, t.Stopped, t.Agree, t.RunS, t.SavedS)
		run, saved = run+t.RunS, saved+t.SavedS
		nRuns, nStops, nAgree = nRuns+t.Runs, nStops+t.Stopped, nAgree+t.Agree
	}
	row("total", "", nRuns, nStops, nAgree, run, saved)
	return out
}
