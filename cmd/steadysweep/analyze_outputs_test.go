package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
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
			stdout, stderr := mustAnalyze(t, dir, append([]string{"--write-report", "--json", jsonPath}, tc.args...)...)
			if got, _ := os.ReadFile(filepath.Join(dir, "steady_state.txt")); string(got) != stdout {
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
			if !strings.Contains(stderr, "wrote "+filepath.Join(dir, "steady_state.json")) {
				t.Errorf("stderr does not say what was written: %q", stderr)
			}
		})
	}
}

// TestWriteReportGuideLLMBenchmarks: --write-report on benchmark N of a
// GuideLLM report writes steady_state.N.json and .txt beside it, so the
// benchmarks of one report keep their own files (issue 18's leftover:
// every benchmark overwrote one steady_state.json). The report is the
// committed one-benchmark fixture with a second benchmark whose TTFTs are
// doubled.
func TestWriteReportGuideLLMBenchmarks(t *testing.T) {
	path := twoBenchmarkReport(t)
	dir := filepath.Dir(path)
	var reports [2][]byte
	for n := range 2 {
		jsonPath := filepath.Join(t.TempDir(), "out.json")
		out, errOut, code := runCLI(t, "analyze", path+"#"+strconv.Itoa(n), "--no-cache", "--write-report", "--json", jsonPath)
		if code != exitOK {
			t.Fatalf("#%d: exit %d: %s", n, code, errOut)
		}
		stem := filepath.Join(dir, "steady_state."+strconv.Itoa(n))
		got, err := os.ReadFile(stem + ".json")
		want, _ := os.ReadFile(jsonPath)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("#%d: %s.json is not its --json output (%v)", n, stem, err)
		}
		if txt, _ := os.ReadFile(stem + ".txt"); string(txt) != out || !strings.Contains(out, "report.json#"+strconv.Itoa(n)) {
			t.Errorf("#%d: %s.txt is not its report", n, stem)
		}
		if !strings.Contains(errOut, "wrote "+stem+".json") {
			t.Errorf("#%d: stderr %q does not name the file", n, errOut)
		}
		reports[n] = got
	}
	if bytes.Equal(reports[0], reports[1]) {
		t.Error("the two benchmarks' results are the same; the fixture proves nothing")
	}
	if _, err := os.Stat(filepath.Join(dir, "steady_state.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("steady_state.json written (%v)", err)
	}
}

// twoBenchmarkReport writes the committed one-benchmark GuideLLM fixture
// with a second benchmark whose TTFTs are doubled into a temporary
// report.json and returns its path.
func twoBenchmarkReport(t *testing.T) string {
	t.Helper()
	var report map[string]any
	readJSON(t, filepath.Join("..", "..", "columnar", "testdata", "guidellm_sync", "benchmarks.json"), &report)
	benches := report["benchmarks"].([]any)
	var second map[string]any
	b, _ := json.Marshal(benches[0])
	json.Unmarshal(b, &second)
	for _, r := range second["requests"].(map[string]any)["successful"].([]any) {
		req := r.(map[string]any)
		req["time_to_first_token_ms"] = 2 * req["time_to_first_token_ms"].(float64)
	}
	report["benchmarks"] = append(benches, second)
	path := filepath.Join(t.TempDir(), "report.json")
	data, _ := json.Marshal(report)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A GuideLLM report's benchmark errors are one line naming the file once
// and saying what to pass (issue 20: a report of two benchmarks given
// whole ended in the contrary hint "pass a run directory holding
// events.jsonl", and benchmark 5 of it said "ingest R: R: no benchmark 5").
func TestGuideLLMBenchmarkErrors(t *testing.T) {
	path := twoBenchmarkReport(t)
	for _, c := range []struct {
		arg  string
		want []string
	}{
		{path, []string{"steadysweep: " + path + " holds 2 GuideLLM benchmarks", "pass " + path + "#0 … " + path + "#1"}},
		{path + "#5", []string{"steadysweep: ingest " + path + ": no benchmark 5 in the GuideLLM report (it holds 2)"}},
	} {
		_, errOut, code := runCLI(t, "analyze", c.arg, "--no-cache", "--tokenizer", "words")
		if code != exitFailure || strings.Count(errOut, "\n") != 1 || strings.Count(errOut, path) != strings.Count(strings.Join(c.want, " "), path) {
			t.Errorf("analyze %s: exit %d, stderr %q", c.arg, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("analyze %s: stderr %q lacks %q", c.arg, errOut, w)
			}
		}
		if strings.Contains(errOut, "events.jsonl") {
			t.Errorf("analyze %s: stderr %q talks of events.jsonl", c.arg, errOut)
		}
	}
}
