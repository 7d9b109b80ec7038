package core_test

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// readTruth reads a generated run's truth.json.
func readTruth(dir string) (synth.Truth, error) {
	var tr synth.Truth
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		return tr, err
	}
	return tr, json.Unmarshal(b, &tr)
}
