package foreign_test

import (
	"context"
	"github.com/steadysweep/steadysweep/columnar/internal/coltest"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
)

// FuzzYAMLReport: any bytes as a GuideLLM YAML report: the alias budget
// holds (no expansion beyond it), counting benchmarks and reading the
// first never panic, and a refusal is ErrYAMLAliases or a YAML error.
func FuzzYAMLReport(f *testing.F) {
	f.Add([]byte(guidellmYAMLAliased(20, 3)))
	f.Add([]byte("a: &a [x, x]\nb: &b [*a, *a]\nbenchmarks: [*b, *b]\n"))
	f.Add([]byte("benchmarks:\n  - requests:\n      successful:\n        - request_start_time: 1.5\n          request_latency: 1\n"))
	f.Add([]byte("a: &a [*a]\nbenchmarks: []\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 1<<16 {
			return
		}
		v, err := foreign.DecodeYAMLBounded(doc)
		if err == nil {
			_ = foreign.Jsonable(v)
		}
		path := filepath.Join(t.TempDir(), "report.yaml")
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		n, _ := foreign.GuideLLMBenchmarks(context.Background(), path)
		if n > 0 {
			run := &contract.Run{EventsPath: path, Format: contract.FormatGuideLLM, Part: 0}
			var d contract.Decoded
			_, _ = foreign.GuideLLMReader{}.Read(context.Background(), run, contract.IngestOptions{}, &d)
		}
	})
}

// FuzzMultiBenchmark: a report of three benchmarks and a fourth of fuzzed
// bytes: indexing it and reading every indexed benchmark from its offset
// never panics (a damaged one is an error or a truncated run).
func FuzzMultiBenchmark(f *testing.F) {
	f.Add([]byte(`{"requests": {"successful": [{"request_start_time": 1.5, "request_latency": 1}]}}`))
	f.Add([]byte(`{"requests": {"successful": [`))
	f.Add([]byte(`"x"`))
	f.Add([]byte(`{"requests": {"errored": [{}], "incomplete": null}}, {}`))
	f.Fuzz(func(t *testing.T, bench []byte) {
		if len(bench) > 1<<16 {
			return
		}
		doc := []byte(`{"args": {}, "benchmarks": [` + coltest.MultiBenchmarkReport(3)[len(`{"metadata": {"guidellm_version": "0.5.0"}, "args": {"model": "m"}, "benchmarks": [`):])
		doc = append(append(append(doc[:len(doc)-2:len(doc)-2], ", "...), bench...), "]}"...)
		path := filepath.Join(t.TempDir(), "report.json")
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		n, _ := foreign.GuideLLMBenchmarks(context.Background(), path)
		for p := range n {
			run := &contract.Run{EventsPath: path, Format: contract.FormatGuideLLM, Part: p}
			var d contract.Decoded
			if _, err := (foreign.GuideLLMReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err == nil {
				if d.Samples.Len() < 0 {
					t.Fatal("negative samples")
				}
			}
		}
	})
}
