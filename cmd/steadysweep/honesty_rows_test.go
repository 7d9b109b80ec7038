package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One computation behind the JSON and the rows: every named run of the
// table test (generated cases, the shared parity and accuracy runs) swept
// once with the defaults, each row checked column by column against
// `analyze --json` of the same run (a null row cell ⇔ a null JSON
// number; otherwise the same float64, bit for bit).
func TestHonestyRowsMatchJSON(t *testing.T) {
	runs := honestyRuns(t)
	arch := t.TempDir()
	for _, hr := range runs {
		if err := os.Symlink(hr.dir, filepath.Join(arch, archName(hr.name))); err != nil {
			t.Fatal(err)
		}
	}
	rows := sweepRowsOf(t, arch)
	byRun := map[string]map[string]any{}
	for _, r := range rows {
		rel, _ := r["run_rel"].(string)
		byRun[filepath.Base(rel)] = r // sweepRowsOf sweeps a directory holding arch
	}
	// row column → JSON path of the same number (steadysweep's keys).
	cols := []struct{ col, key string }{
		{"steady_tps_system", "throughput.system.value"},
		{"steady_tps_per_user", "throughput.per_user.value"},
		{"total_tps_system", "total.tps_system"},
		{"total_tps_per_user", "total.tps_per_user"},
		{"steady_ttft_p50_ns", "steady.ttft_ns.p50"},
		{"steady_ttft_p99_ns", "steady.ttft_ns.p99"},
		{"steady_tpot_p50_ns", "steady.tpot_ns.p50"},
		{"steady_tpot_p90_ns", "steady.tpot_ns.p90"},
		{"total_ttft_p99_ns", "total.ttft_ns.p99"},
		{"total_tpot_p50_ns", "total.tpot_ns.p50"},
		{"gap_tps_uplift_pct", "gap.tps_uplift_pct"},
		{"gap_ttft_p99_change_pct", "gap.ttft_p99_change_pct"},
		{"n_failed", "failures.n_failed"},
		{"failed_frac", "failures.failed_frac"},
	}
	for _, hr := range runs {
		t.Run(hr.name, func(t *testing.T) {
			row := byRun[archName(hr.name)]
			if row == nil {
				t.Fatalf("no row for %s among %d rows", hr.name, len(rows))
			}
			a := analyzeDefaults(t, hr.dir)
			j := a.json
			if row["status"] != get(j, "status") || row["verdict"] != get(j, "verdict") {
				t.Errorf("row status %v verdict %v, JSON %v %v", row["status"], row["verdict"], get(j, "status"), get(j, "verdict"))
			}
			if get(j, "mode.method") == "not_supported" {
				return // the agentic NATL path has no steadysweep throughput keys
			}
			ci := func(key string, i int) any {
				b, _ := get(j, key).([]any)
				if len(b) != 2 {
					return nil
				}
				return b[i]
			}
			checks := append([]struct{ col, key string }{}, cols...)
			for _, c := range checks {
				sameCell(t, c.col, row[c.col], get(j, c.key), c.key)
			}
			// The rows' estimate is the window's, else the whole run's (the
			// report says which); the key "99.0" holds the path's separator.
			es := "early_stopping.steady."
			if get(j, "early_stopping.steady") == nil {
				es = "early_stopping.total."
			}
			p99 := func(metric string) any {
				m, _ := get(j, es+metric+".percentiles").(map[string]any)
				return m["99.0"]
			}
			if over := map[bool]string{true: "window", false: "whole run"}[es == "early_stopping.steady."]; !strings.Contains(a.text,
				"early-stopping p99 over the "+over) {
				t.Errorf("report does not say the early-stopping estimate is over the %s", over)
			}
			sameCell(t, "early_stop_ttft_p99_ns", row["early_stop_ttft_p99_ns"], p99("ttft_ns"), "early_stopping…ttft p99")
			sameCell(t, "early_stop_tpot_p99_ns", row["early_stop_tpot_p99_ns"], p99("tpot_ns"), "early_stopping…tpot p99")
			if row["window_start_sp"] != nil {
				sameCell(t, "window_samples", row["window_samples"], get(j, "steady_state.window.n_samples"), "steady_state.window.n_samples")
				sameCell(t, "window_duration_s", row["window_duration_s"], get(j, "steady.duration_s"), "steady.duration_s")
			} else if row["window_samples"] != nil {
				t.Errorf("window_samples = %v without a window (window_start_sp null)", row["window_samples"])
			}
			sameCell(t, "steady_tps_system_ci_lo", row["steady_tps_system_ci_lo"], ci("throughput.system.ci95", 0), "ci95[0]")
			sameCell(t, "steady_tps_system_ci_hi", row["steady_tps_system_ci_hi"], ci("throughput.system.ci95", 1), "ci95[1]")
			sameCell(t, "steady_tps_per_user_ci_lo", row["steady_tps_per_user_ci_lo"], ci("throughput.per_user.ci95", 0), "ci95[0]")
			sameCell(t, "steady_tps_per_user_ci_hi", row["steady_tps_per_user_ci_hi"], ci("throughput.per_user.ci95", 1), "ci95[1]")
		})
	}
	if len(rows) != len(runs) {
		t.Errorf("%d rows for %d runs", len(rows), len(runs))
	}
}

// archName is a run's directory name in the swept archive.
func archName(name string) string { return strings.ReplaceAll(name, "/", "__") }

// sameCell: a row cell and a JSON number are both null, or the same value
// (a JSON integer beside an int64 column).
func sameCell(t *testing.T, col string, cell, js any, key string) {
	t.Helper()
	var c float64
	switch v := cell.(type) {
	case nil:
		if js != nil {
			t.Errorf("%s null, JSON %s = %v", col, key, js)
		}
		return
	case int64:
		c = float64(v)
	case float64:
		c = v
	default:
		t.Errorf("%s = %T %v", col, cell, cell)
		return
	}
	f, ok := number(js)
	if !ok || math.IsNaN(c) || c != f {
		t.Errorf("%s = %v, JSON %s = %v", col, cell, key, js)
	}
}
