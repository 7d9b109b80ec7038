package calibrate

import (
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// stopTotals sums the rows of config id by model and concurrency
// (sinks.StopTotals); nil when no row of it has the stop columns.
func stopTotals(rows []row, id string) []calibration.StopTotal {
	var in []sinks.StopRow
	for i := range rows {
		r := &rows[i]
		if r.ConfigID != id || !r.HasStopColumns {
			continue
		}
		in = append(in, sinks.StopRow{Model: r.Model, Concurrency: r.Concurrency,
			RunDurationS: r.RunDurationS, StopSavedS: r.StopSavedS, StopAgrees: r.StopAgrees})
	}
	return sinks.StopTotals(in)
}

// stopsConfig is the config the totals are taken under: steadysweep's
// defaults when the sweep ran them, else the recommended one.
func stopsConfig(r *calibration.Report) string {
	if id := sinks.ConfigID(core.DefaultParams()); r.Config(id) != nil {
		return id
	}
	return r.Recommended
}
