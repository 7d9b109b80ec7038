package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Zero-flag analyze of a synth run (the demo's corpus): its config.yaml
// declares tokenizer_name: words, so no --tokenizer is needed (it used to
// exit 2 looking for openai/gpt-oss-120b in the Hugging Face cache); the
// report names where the tokenizer came from.
func TestAnalyzeSynthRunZeroFlags(t *testing.T) {
	dir := presetRun(t, filepath.Join(t.TempDir(), "run"), "clean_ramp", 1, nil)
	t.Setenv("HF_HOME", t.TempDir()) // an empty Hugging Face cache
	t.Setenv("HF_HUB_CACHE", "")
	stdout, _ := mustRun(t, "analyze", dir, "--no-cache")
	if !strings.Contains(stdout, "(the run's tokenizer_name: words)") {
		t.Errorf("report does not name the tokenizer's source:\n%s", stdout)
	}
}
