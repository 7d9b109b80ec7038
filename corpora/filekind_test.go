package corpora

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// write creates dir/name with body.
func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	aiperfRecord = `{"metadata":{"timestamp_ns":1},"metrics":{"ttft":{"value":1,"unit":"ms"}},"error":null}` + "\n"
	vllmDetailed = `{"date": "20260102-030405", "backend": "vllm", "model_id": "m", "num_prompts": 1, "ttfts": [0.1], "latencies": [0.2], "start_times": [5.0]}`
)

// guidellmReport is a report with n benchmarks.
func guidellmReport(n int) string {
	b := make([]string, n)
	for i := range b {
		b[i] = `{"config":{"strategy":{"type_":"synchronous"}},"requests":{"successful":[],"errored":[],"incomplete":[]}}`
	}
	return `{"metadata":{"guidellm_version":"0.5"},"benchmarks":[` + strings.Join(b, ",") + `]}`
}

// TestDiscoverForeignLogs: beside endpoints runs, discovery finds AIPerf
// directories, vLLM results and each benchmark of a GuideLLM report (its
// index after "#"), by content: other JSON and YAML files are no runs,
// and an endpoints run directory's sidecars are never taken for logs.
func TestDiscoverForeignLogs(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, "endpoints/run1/events.jsonl", "endpoints/run1/config.yaml")
	write(t, dir, "endpoints/run1/result_summary.json", vllmDetailed) // a sidecar name: never sniffed
	write(t, dir, "aiperf/c100/profile_export.jsonl", aiperfRecord)
	write(t, dir, "aiperf/c100/profile_export_aiperf.json", `{"records":{},"input_config":{}}`)
	write(t, dir, "aiperf/c100/profile_export_raw.jsonl", aiperfRecord)
	write(t, dir, "guidellm/sweep.json", guidellmReport(3))
	write(t, dir, "guidellm/sync.yaml", "benchmarks:\n- config: {}\n")
	write(t, dir, "vllm/a-1qps.json", vllmDetailed)
	write(t, dir, "vllm/b-2qps.json.gz", "")
	write(t, dir, "vllm/b-4qps.json", vllmDetailed)
	write(t, dir, "mixed/profile_export.jsonl", aiperfRecord)
	write(t, dir, "mixed/vllm.json", vllmDetailed)
	write(t, dir, "other/package.json", `{"name":"x"}`)
	write(t, dir, "other/values.yaml", "replicas: 3\n")
	runs, errs := Discover([]string{dir}, nil, nil)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := []string{
		"aiperf/c100",
		"endpoints/run1",
		"guidellm/sweep.json#0", "guidellm/sweep.json#1", "guidellm/sweep.json#2",
		"guidellm/sync.yaml#0",
		"mixed/profile_export.jsonl", "mixed/vllm.json",
		"vllm/a-1qps.json", "vllm/b-4qps.json",
	}
	if got := rels(runs); !slices.Equal(got, want) {
		t.Fatalf("runs\n%q\nwant\n%q", got, want)
	}
	ids := map[string]bool{}
	for _, r := range runs {
		ids[r.RunID()] = true
		switch r.Rel {
		case "aiperf/c100":
			if filepath.Base(r.EventsPath) != "profile_export.jsonl" || r.Path != filepath.Join(dir, "aiperf", "c100") {
				t.Errorf("aiperf run %+v", r)
			}
		case "guidellm/sweep.json#2":
			if r.Path != filepath.Join(dir, "guidellm", "sweep.json")+"#2" || r.EventsPath != filepath.Join(dir, "guidellm", "sweep.json") {
				t.Errorf("guidellm run %+v", r)
			}
		}
	}
	if len(ids) != len(runs) {
		t.Errorf("run ids collide: %d ids for %d runs", len(ids), len(runs))
	}
	// A report given as the root is its benchmarks.
	runs, errs = Discover([]string{filepath.Join(dir, "guidellm", "sweep.json")}, nil, nil)
	if len(errs) > 0 || !slices.Equal(rels(runs), []string{"sweep.json#0", "sweep.json#1", "sweep.json#2"}) {
		t.Errorf("report root: %q, %v", rels(runs), errs)
	}
	if _, errs := Discover([]string{filepath.Join(dir, "other", "package.json")}, nil, nil); len(errs) != 1 || !strings.Contains(errs[0].Error(), "another tool's log") {
		t.Errorf("a non-log root: %v", errs)
	}
}
