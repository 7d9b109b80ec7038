package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeOtherFormats: analyze reads every format with no flags (no
// tokenizer for logs that record token counts), and the report's
// settings name the source and where the super-pass size came from.
func TestAnalyzeOtherFormats(t *testing.T) {
	td := filepath.Join("..", "..", "columnar", "testdata")
	for _, tc := range []struct {
		path string
		args []string
		want []string
	}{
		{filepath.Join(td, "aiperf_burst"), nil, []string{"source           aiperf", "none (token counts recorded in the log)", "super-pass size  64", "default for aiperf"}},
		{filepath.Join(td, "guidellm_sync", "benchmarks.json"), nil, []string{"source           guidellm 0.5.0.dev0", "benchmarks.json#0"}},
		{filepath.Join(td, "vllm_result"), nil, []string{"source           vllm", "default for vllm"}},
		{filepath.Join(td, "legacy_run"), []string{"--tokenizer", "words"}, []string{"source        endpoints-legacy", "tokenizer     words"}},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"analyze", tc.path, "--no-cache", "--write-report"}, tc.args...)
			// --write-report into a copy: the fixtures stay as they are.
			copied := filepath.Join(dir, filepath.Base(tc.path))
			copyRunTo(t, tc.path, copied)
			args[1] = copied
			stdout, _ := mustRun(t, args...)
			out := strings.Join(strings.Fields(stdout), " ")
			for _, w := range tc.want {
				if !strings.Contains(out, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("report lacks %q:\n%s", w, stdout)
				}
			}
			runDir := copied
			if st, _ := os.Stat(copied); !st.IsDir() {
				runDir = filepath.Dir(copied)
			}
			_, err := os.Stat(filepath.Join(runDir, "run_meta.json"))
			if hasMeta := err == nil; hasMeta != strings.Contains(tc.path, "legacy_run") {
				t.Errorf("run_meta.json present: %v", hasMeta)
			}
		})
	}
}
