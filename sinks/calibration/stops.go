package calibration

import (
	"io"

	"github.com/steadysweep/steadysweep/sinks"
)

// WriteStops writes the "could have stopped" table (sinks.StopTotalsHead
// and StopTotalsCells, as the sweep page shows it): per model and
// concurrency, the runs, the stops, the wall time and the part of it
// after the earliest certified stop. Nothing when there are no totals.
func (r *Report) WriteStops(w io.Writer, markdown bool) error {
	if len(r.Stops) == 0 {
		return nil
	}
	pr := &printer{w: w}
	p := pr.printf
	label := r.StopsConfig
	if c := r.Config(r.StopsConfig); c != nil {
		label = c.Label
	}
	h := sinks.StopTotalsHead
	if markdown {
		p("\n## Could have stopped\n\nGPU time after each run's earliest certified stop (`stop_saved_s`), config %s:\n\n", mdEscape(label))
		p("| %s | %s | %s | %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---:|---:|---:|---:|\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
	} else {
		p("\ncould have stopped: GPU time after each run's earliest certified stop\n  config %s\n", clip(label, 70))
		p("%-20s %11s %5s %5s %5s %8s %8s %6s\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
	}
	for _, c := range sinks.StopTotalsCells(r.Stops) {
		if markdown {
			p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", mdEscape(c[0]), c[1], c[2], c[3], c[4], c[5], c[6], c[7])
		} else {
			p("%-20s %11s %5s %5s %5s %8s %8s %6s\n", clip(c[0], 20), c[1], c[2], c[3], c[4], c[5], c[6], c[7])
		}
	}
	return pr.err()
}
