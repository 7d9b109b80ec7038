package core_test

import (
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
		s, info, err := decodeRun(filepath.Join(shared, "parity", "runs", name))
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		res, err := core.NewRun(s, info).Analyze(core.ReferenceParams())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := res.Outcome().Status; got != status {
			t.Errorf("%s: status %q, want %q (reason %q)", name, got, status, res.Steady.Reason)
		}
	}
}
