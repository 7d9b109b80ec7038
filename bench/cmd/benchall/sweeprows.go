package main

import (
	"fmt"

	"github.com/steadysweep/steadysweep/bench"
)

// sweepRowsSection measures issue 32's per-config target through a whole
// sweep: bench.SweepRowsCost over bench.PerConfigSpec's run (60
// super-passes of 1000 samples), the CPU of a 1001-config sweep of the
// default preset minus that of a 1-config sweep, over 1000, rows and the
// earliest-stop search included. The sweep section measures the same
// (kept in e, so a run of both measures it once).
func sweepRowsSection(e *env) (string, error) {
	rows, err := sweepRowsCosts(e)
	if err != nil {
		return "", err
	}
	e.addTarget(sweepRowsTarget(rows))
	return fmt.Sprintf("## Per config through a whole sweep (issue 32; `benchall -sections sweeprows`)\n\n"+
		"`bench.SweepRowsCost`: `sweep.Run` of synth clean_ramp at 60 passes × 1000 samples (`bench.PerConfigSpec`) with "+
		"`sweep.DefaultAnalyzer` — the earliest-stop search included — on one job, column cache warm, rows to Parquet, under "+
		"1001 alpha values of the default preset (`bench.AlphaConfigs`: every trend verdict decided again) and under the first "+
		"alone; the CPU of the 1001-config sweep minus that of the 1-config one, over 1000, %d repetitions, median (min–max). "+
		"Also `go test -run '^$' -bench SweepPerConfig -benchtime 1x -cpu 1 ./bench/`.\n\n"+
		"| µs CPU/config | goal |\n|---:|---|\n| %s | ≤ %d |\n\n",
		len(rows), fmtRange(rows, "%.0f"), bench.SweepRowsTargetUs), nil
}

// sweepRowsTarget is the summary row of the per-config sweep cost rows
// (µs of CPU per config, one per repetition).
func sweepRowsTarget(rows []float64) target {
	m := bench.Median(rows)
	return target{
		key:      "i32-sweeprows",
		name:     "per config through a sweep, rows included (60 super-passes of 1000 samples, alpha × 1001 minus 1)",
		goal:     fmt.Sprintf("≤ %d µs CPU/config", bench.SweepRowsTargetUs),
		measured: fmt.Sprintf("%s µs CPU/config", fmtRange(rows, "%.0f")),
		ratio:    fmt.Sprintf("%.2f× the budget", m/bench.SweepRowsTargetUs),
		verdict:  verdict(bench.SweepRowsTargetUs/m, 1, ""),
	}
}
