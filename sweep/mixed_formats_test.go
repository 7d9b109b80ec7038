package sweep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora"
)

// copyTree copies the regular files of src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mixedArchive lays out one run of every format the readers know
// (columnar/testdata): an endpoints run, the same run in the pre-April-2026
// format, an AIPerf run, a GuideLLM report with two load levels and a
// vLLM result.
func mixedArchive(t *testing.T) string {
	td := filepath.Join(repoRoot(t), "columnar", "testdata")
	arch := t.TempDir()
	copyTree(t, filepath.Join(td, "small_run"), filepath.Join(arch, "endpoints", "small_run"))
	copyTree(t, filepath.Join(td, "legacy_run"), filepath.Join(arch, "endpoints-2026-02", "small_run"))
	copyTree(t, filepath.Join(td, "aiperf_burst"), filepath.Join(arch, "aiperf", "burst100"))
	copyTree(t, filepath.Join(td, "vllm_result"), filepath.Join(arch, "vllm"))
	b, err := os.ReadFile(filepath.Join(td, "guidellm_sync", "benchmarks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	bench := doc["benchmarks"].([]any)
	second, _ := json.Marshal(bench[0])
	var level2 map[string]any
	_ = json.Unmarshal(second, &level2)
	level2["config"].(map[string]any)["strategy"] = map[string]any{"type_": "concurrent", "streams": 2}
	doc["benchmarks"] = append(bench, level2)
	report, _ := json.Marshal(doc)
	if err := os.MkdirAll(filepath.Join(arch, "guidellm"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(arch, "guidellm", "report.json"), report, 0o644); err != nil {
		t.Fatal(err)
	}
	return arch
}

// TestSweepMixedFormats: a sweep over an archive mixing every format
// finds each run (one per GuideLLM load level), writes its rows, none an
// error, each saying its source format.
func TestSweepMixedFormats(t *testing.T) {
	arch := mixedArchive(t)
	runs, errs := corpora.Discover([]string{arch}, nil, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantFormat := map[string]string{
		"aiperf/burst100":             "aiperf",
		"endpoints/small_run":         "endpoints",
		"endpoints-2026-02/small_run": "endpoints-legacy",
		"guidellm/report.json#0":      "guidellm",
		"guidellm/report.json#1":      "guidellm",
		"vllm/openai-infqps-concurrency2-Llama-3.1-8B-Instruct-20260102-030405.json": "vllm",
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Rel)
	}
	want := make([]string, 0, len(wantFormat))
	for rel := range wantFormat {
		want = append(want, rel)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("runs %q, want %q", got, want)
	}
	realSweep(t, runs) // rows = runs × configs, none with status error

	out := t.TempDir()
	cs := grid3x3(t)
	if _, err := Run(t.Context(), Options{Runs: runs, Configs: cs, Out: out, Load: DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}}),
		Analyze: DefaultAnalyzer, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, r := range runs {
		byID[r.RunID()] = wantFormat[r.Rel]
	}
	for _, r := range readRows(t, filepath.Join(out, "rows"), memory.DefaultAllocator) {
		if r.sourceFormat != byID[r.runID] || r.status == StatusError {
			t.Errorf("run %s: source_format %q (want %q), status %s %s", r.runPath, r.sourceFormat, byID[r.runID], r.status, r.reason)
		}
	}
}
