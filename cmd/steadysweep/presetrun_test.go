package main

import (
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// presetRun writes the synth preset at seed into dir, its spec changed
// by edit first (nil: the preset as it is), and returns dir.
func presetRun(t testing.TB, dir, preset string, seed uint64, edit func(*synth.Spec)) string {
	t.Helper()
	presetTruth(t, dir, preset, seed, edit)
	return dir
}

// presetTruth is presetRun returning the run's planted truth.
func presetTruth(t testing.TB, dir, preset string, seed uint64, edit func(*synth.Spec)) synth.Truth {
	t.Helper()
	spec, err := synth.PresetSpec(preset, seed)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&spec)
	}
	truth, err := synth.Generate(dir, spec)
	if err != nil {
		t.Fatalf("generate %s: %v", preset, err)
	}
	return truth
}

// synthRun writes the synth preset into a fresh directory.
func synthRun(t *testing.T, preset string, seed uint64) string {
	return presetRun(t, filepath.Join(t.TempDir(), preset), preset, seed, nil)
}
