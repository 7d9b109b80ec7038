package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestGenerateCorpus_NamesRatesAndDeterminism(t *testing.T) {
	presetNames := []string{"clean_ramp", "late_staircase", "ramp_only"}
	dirA, dirB := t.TempDir(), t.TempDir()
	pathsA, err := GenerateCorpus(dirA, 6, 99, presetNames)
	if err != nil {
		t.Fatalf("GenerateCorpus: %v", err)
	}
	pathsB, err := GenerateCorpus(dirB, 6, 99, presetNames)
	if err != nil {
		t.Fatalf("GenerateCorpus: %v", err)
	}
	if len(pathsA) != 6 {
		t.Fatalf("%d runs, want 6", len(pathsA))
	}
	rates := map[float64]bool{}
	for i, path := range pathsA {
		raw, err := os.ReadFile(filepath.Join(path, "truth.json"))
		if err != nil {
			t.Fatal(err)
		}
		var truth Truth
		if err := json.Unmarshal(raw, &truth); err != nil {
			t.Fatalf("%s truth.json: %v", path, err)
		}
		want := filepath.Base(path)
		if got := corpusRunName(i, truth); got != want {
			t.Errorf("run %d dir %q, want %q", i, want, got)
		}
		if truth.Name != presetNames[i%3] {
			t.Errorf("run %d is preset %q, want %q (cycling)", i, truth.Name, presetNames[i%3])
		}
		if r := truth.ServiceRateTokS; r < corpusMinTokS || r > corpusMaxTokS {
			t.Errorf("run %d service rate %v outside [1e3, 3.3e6]", i, r)
		}
		rates[truth.ServiceRateTokS] = true
		for _, name := range runFiles {
			a, errA := os.ReadFile(filepath.Join(path, name))
			b, errB := os.ReadFile(filepath.Join(pathsB[i], name))
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Errorf("run %d %s differs between two corpora with seed 99 (%v %v)", i, name, errA, errB)
			}
		}
	}
	if len(rates) != 6 {
		t.Errorf("%d distinct service rates over 6 runs, want 6", len(rates))
	}
}

// corpusRunName rebuilds the documented subdirectory name from a run's truth.
func corpusRunName(i int, truth Truth) string {
	c := truth.Load.C
	if truth.Load.MaxBatch > 0 {
		c = truth.Load.MaxBatch
	}
	return fmt.Sprintf("%04d_%s_c%d", i, truth.Name, c)
}

func TestGenerateCorpus_UnknownPreset(t *testing.T) {
	if _, err := GenerateCorpus(t.TempDir(), 1, 1, []string{"nope"}); err == nil {
		t.Error("GenerateCorpus with preset \"nope\" returned no error")
	}
}
