package core_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestReferenceStatus checks the status given to reference-compat results
// against the reference's own decision on the shared parity runs (the
// expected JSON's found/reason) and their planted truth: runs the
// reference finds are windowable, all-short runs insufficient_duration,
// the partial-dataset run partial_dataset and the agentic run (NATL path)
// not_supported.
func TestReferenceStatus(t *testing.T) {
	want := map[string]core.Status{
		"conc_clean_ramp":           core.StatusWindowable,
		"conc_staircase_late":       core.StatusWindowable,
		"conc_partial_dataset":      core.StatusPartialDataset,
		"conc_warmup_overlap_short": core.StatusInsufficientDuration,
		"conc_insufficient_passes":  core.StatusInsufficientPasses,
		"conc_ramp_only":            core.StatusInsufficientDuration,
		"agentic_tools":             core.StatusNotSupported,
	}
	shared := sharedDir(t)
	for name, status := range want {
		res := referenceResult(t, filepath.Join(shared, "parity", "runs", name))
		if got := res.Outcome().Status; got != status {
			t.Errorf("%s: status %q, want %q (reason %q)", name, got, status, res.Steady.Reason)
		}
	}
}

// TestReferenceRowReason: a reference-compat row without steady numbers
// says why. The reason is the reference's own (steady_state.reason of
// the run's expected JSON), except for the two statuses the reference
// does not decide: the partial dataset (truth.json: dataset of 400, 300
// samples issued) and the agentic NATL path. A found run has none.
func TestReferenceRowReason(t *testing.T) {
	shared := sharedDir(t)
	for _, name := range []string{"conc_clean_ramp", "conc_partial_dataset", "conc_insufficient_passes", "conc_ramp_only",
		"conc_warmup_overlap_short", "agentic_tools"} {
		b, err := os.ReadFile(filepath.Join(shared, "parity", "expected", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var expected struct {
			SteadyState struct {
				Found  bool    `json:"found"`
				Reason *string `json:"reason"`
			} `json:"steady_state"`
		}
		if err := json.Unmarshal(b, &expected); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := ""
		if expected.SteadyState.Reason != nil {
			want = *expected.SteadyState.Reason
		}
		switch name {
		case "conc_partial_dataset":
			want = "less than one full super-pass (300 of 400 samples)"
		case "agentic_tools":
			want = "agentic NATL path: per-trajectory throughput only, no steady window"
		}
		if !expected.SteadyState.Found && want == "" {
			t.Fatalf("%s: the reference finds nothing and gives no reason: the test is void", name)
		}
		res := referenceResult(t, filepath.Join(shared, "parity", "runs", name))
		if got := res.Outcome().Reason; got != want {
			t.Errorf("%s: row reason %q, want %q", name, got, want)
		}
		if res.Steady.Reason != "" && expected.SteadyState.Reason != nil && res.Steady.Reason != *expected.SteadyState.Reason {
			t.Errorf("%s: the reference JSON's reason changed: %q", name, res.Steady.Reason)
		}
	}
}

// referenceResult analyses the run in dir under --compat reference.
func referenceResult(t *testing.T, dir string) *core.Result {
	t.Helper()
	s, info, err := decodeRun(dir)
	if err != nil {
		t.Fatalf("%s: decode: %v", dir, err)
	}
	res, err := core.NewRun(s, info).Analyze(core.ReferenceParams())
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return res
}
