package calibrate

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// StopTotal is what the runs of one model at one concurrency could have
// saved by stopping at their earliest certified stop (rows' stop_saved_s,
// core.Run.EarliestStopOf) under one parameter set: their wall time, the
// share after the stop, and how many stops the full runs agree with.
type StopTotal struct {
	Model string
	// Concurrency is the target concurrency (0: none or unknown).
	Concurrency int
	// Runs counts the rows; Stopped those with a stop; Agree those whose
	// full run's system TPS and TPOT p50 lie in the stop's intervals.
	Runs, Stopped, Agree int
	// RunS is the runs' total wall time (run_duration_s) and SavedS the
	// part after their stops (s); NaN when no row records it.
	RunS, SavedS float64
}

// stopColumns are the rows columns the totals read; rows files written
// before they existed have none, and then there are no totals.
var stopColumns = []string{"model", "concurrency", "run_duration_s", "stop_saved_s", "stop_agrees"}

// stopTotals sums the rows of config id by model and concurrency (sorted
// by model, then concurrency); nil when no row of it has the stop columns.
func stopTotals(rows []row, id string) []StopTotal {
	by := map[[2]string]*StopTotal{}
	var out []*StopTotal
	for i := range rows {
		r := &rows[i]
		if r.ConfigID != id || !r.HasStopColumns {
			continue
		}
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
	slices.SortFunc(out, func(a, b *StopTotal) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Concurrency, b.Concurrency))
	})
	res := make([]StopTotal, len(out))
	for i, t := range out {
		res[i] = *t
	}
	return res
}

// stopsConfig is the config the totals are taken under: steadysweep's
// defaults when the sweep ran them, else the recommended one.
func (r *Report) stopsConfig() string {
	if id := sinks.ConfigID(core.DefaultParams()); r.Config(id) != nil {
		return id
	}
	return r.Recommended
}

// WriteStops writes the "could have stopped" table: per model and
// concurrency, the runs, the stops, the wall time and the part of it
// after the earliest certified stop. Nothing when there are no totals.
func (r *Report) WriteStops(w io.Writer, markdown bool) error {
	if len(r.Stops) == 0 {
		return nil
	}
	var errs []error
	p := func(format string, a ...any) { _, err := fmt.Fprintf(w, format, a...); errs = append(errs, err) }
	label := r.StopsConfig
	if c := r.Config(r.StopsConfig); c != nil {
		label = c.Label
	}
	var run, saved float64
	if markdown {
		p("\n## Could have stopped\n\nGPU time after each run's earliest certified stop (`stop_saved_s`), config %s:\n\n", mdEscape(label))
		p("| model | concurrency | runs | stops | agree | run h | saved h | saved |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	} else {
		p("\ncould have stopped: GPU time after each run's earliest certified stop\n  config %s\n", clip(label, 70))
		p("%-20s %5s %5s %5s %5s %8s %8s %6s\n", "model", "conc", "runs", "stops", "agree", "run h", "saved h", "saved")
	}
	row := func(model, conc string, runs, stops, agree int, runS, savedS float64) {
		frac := "n/a"
		if runS > 0 {
			frac = fmt.Sprintf("%.1f%%", 100*savedS/runS)
		}
		if markdown {
			p("| %s | %s | %d | %d | %d | %.2f | %.2f | %s |\n", mdEscape(model), conc, runs, stops, agree, runS/3600, savedS/3600, frac)
		} else {
			p("%-20s %5s %5d %5d %5d %8.2f %8.2f %6s\n", clip(model, 20), conc, runs, stops, agree, runS/3600, savedS/3600, frac)
		}
	}
	nRuns, nStops, nAgree := 0, 0, 0
	for _, t := range r.Stops {
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
	return errors.Join(errs...)
}
