package sinks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// analyzeParityRun analyses the shared parity run name the way the
// reference's expected outputs were made: whitespace-word token counts,
// core.ReferenceParams, the dataset size from the sidecars.
func analyzeParityRun(t testing.TB, name string) (*core.Result, *columnar.Run) {
	t.Helper()
	return analyzeRun(t, name, core.ReferenceParams())
}

// analyzeRun analyses the shared parity run name with whitespace-word
// token counts under params.
func analyzeRun(t testing.TB, name string, params core.Params) (*core.Result, *columnar.Run) {
	t.Helper()
	dir := filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs", name)
	run, d := sinkstest.DecodeEvents(t, dir)
	r, err := core.NewRun(&d.Samples, run.Info).Analyze(params)
	if err != nil {
		t.Fatalf("analyze %s: %v", name, err)
	}
	return r, run
}

// expectedSteady is the part of the reference's JSON for a parity run
// (shared/parity/expected/NAME.json) that the report's headline shows.
type expectedSteady struct {
	Warmup      int `json:"warmup"`
	SteadyState struct {
		Found  bool `json:"found"`
		Window struct {
			SPLo     int `json:"sp_lo"`
			SPHi     int `json:"sp_hi"`
			NSamples int `json:"n_samples"`
		} `json:"window"`
		TPS struct {
			PerUser   float64    `json:"per_user"`
			PerUserCI [2]float64 `json:"per_user_ci"`
			System    float64    `json:"system"`
			SystemCI  [2]float64 `json:"system_ci"`
		} `json:"tps"`
		TTFT struct {
			P50 float64 `json:"p50"`
		} `json:"ttft"`
		TPOT struct {
			P50 float64 `json:"p50"`
		} `json:"tpot"`
	} `json:"steady_state"`
}

func readExpected(t testing.TB, name string) expectedSteady {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "expected", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var e expectedSteady
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return e
}
