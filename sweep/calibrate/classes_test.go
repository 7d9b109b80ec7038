package calibrate

import (
	"testing"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestClassOf: synth.AccuracySuite names its runs NNN_CLASS_cC_nN (closed
// loop) or NNN_CLASS_qQPS_nN (Poisson); the class is the middle part.
// GenerateCorpus names a run's truth by its preset, kept whole.
func TestClassOf(t *testing.T) {
	for name, want := range map[string]string{
		"003_clean_exp_c8_n50":       "clean_exp",
		"041_clean_poisson_q1.2_n64": "clean_poisson",
		"100_drift_shortslow_c16_n8": "drift_shortslow",
		"late_staircase":             "late_staircase",
	} {
		if got := classOf(&synth.Truth{Name: name}); got != want {
			t.Errorf("classOf(%q) = %q, want %q", name, got, want)
		}
	}
	for _, r := range synth.AccuracySuite(1) {
		if got := classOf(&synth.Truth{Name: r.Name}); got != r.Class {
			t.Errorf("suite run %s: class %q, want %q", r.Name, got, r.Class)
		}
	}
}
