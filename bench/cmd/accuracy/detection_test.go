package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadDetectionObs: the scorer's reading of a steadysweep result (the
// certified found needs status windowable and a non-drifting verdict; the
// window is selection.window_sp, absolute and inclusive) and of a
// reference-schema one (steady_state.found; post-warmup [sp_lo, sp_hi)
// shifted by the warmup, change point likewise).
func TestReadDetectionObs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ours := write("ours.json", `{"warmup": 2, "status": "windowable", "verdict": "anomaly",
		"steady_state": {"found": true, "window": {"sp_lo": 0, "sp_hi": 10}, "tpot": {"p50": 12345.5},
		"anomaly": {"detected": true, "change_point_sp": 10, "delta_pct": 3.1}},
		"selection": {"window_sp": [2, 11]}}`)
	o, err := readDetectionObs(ours)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Found || o.WindowLo != 2 || o.WindowHi != 11 || o.TPOTP50Ns != 12345.5 || !o.Anomaly || o.DeltaPct != 3.1 ||
		o.ChangePointSP != 12 {
		t.Errorf("ours: %+v", o)
	}
	drift := write("drift.json", `{"warmup": 1, "status": "windowable", "verdict": "drifting_up",
		"steady_state": {"found": true, "window": {"sp_lo": 0, "sp_hi": 10}}, "selection": {"window_sp": [1, 10]}}`)
	if o, err := readDetectionObs(drift); err != nil || o.Found {
		t.Errorf("drifting: %+v %v, want not found", o, err)
	}
	ref := write("ref.json", `{"warmup": 3, "steady_state": {"found": true, "window": {"sp_lo": 1, "sp_hi": 9},
		"tpot": {"p50": 7}, "anomaly": {"detected": false, "change_point_sp": null}}}`)
	if o, err := readDetectionObs(ref); err != nil || !o.Found || o.WindowLo != 4 || o.WindowHi != 11 || o.Anomaly {
		t.Errorf("reference: %+v %v", o, err)
	}
}
