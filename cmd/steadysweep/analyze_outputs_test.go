package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteReport: --write-report puts steady_state.json (the --json
// output) and steady_state.txt (the stdout report) beside the events file,
// adds run_meta.json with the dataset size only when the run has none, and
// leaves the events file byte for byte as it was.
func TestWriteReport(t *testing.T) {
	for _, tc := range []struct {
		name        string
		without     []string
		args        []string
		wantRunMeta string // "" = the original file
	}{
		{"run_meta kept", nil, nil, ""},
		{"run_meta added", []string{"run_meta.json"}, []string{"--dataset-size", "8"}, "{\"dataset_size\": 8}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRun(t, filepath.Join("..", "..", "testdata", "goodrun"))
			for _, name := range tc.without {
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			events, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
			origMeta, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "goodrun", "run_meta.json"))
			jsonPath := filepath.Join(t.TempDir(), "out.json")
			var stdout, stderr bytes.Buffer
			args := append([]string{"analyze", dir, "--tokenizer", "words", "--no-cache", "--write-report", "--json", jsonPath}, tc.args...)
			if err := run(context.Background(), args, &stdout, &stderr); err != nil {
				t.Fatalf("analyze: %v (stderr %s)", err, stderr.String())
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "steady_state.txt")); string(got) != stdout.String() {
				t.Error("steady_state.txt differs from the report on stdout")
			}
			want, _ := os.ReadFile(jsonPath)
			if got, _ := os.ReadFile(filepath.Join(dir, "steady_state.json")); !bytes.Equal(got, want) || len(want) == 0 {
				t.Error("steady_state.json differs from the --json output")
			}
			meta, err := os.ReadFile(filepath.Join(dir, "run_meta.json"))
			wantMeta := tc.wantRunMeta
			if wantMeta == "" {
				wantMeta = string(origMeta)
			}
			if err != nil || string(meta) != wantMeta {
				t.Errorf("run_meta.json = %q (%v), want %q", meta, err, wantMeta)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, "events.jsonl")); !bytes.Equal(after, events) {
				t.Error("the events file changed")
			}
			if !strings.Contains(stderr.String(), "wrote "+filepath.Join(dir, "steady_state.json")) {
				t.Errorf("stderr does not say what was written: %q", stderr.String())
			}
		})
	}
}
