package resultjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// analyzeGoodrun analyses the committed run testdata/goodrun under p.
func analyzeGoodrun(t *testing.T, p core.Params) *core.Result {
	t.Helper()
	r, err := sinkstest.GoodRun(t).Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// keys are the top-level keys of a JSON object, in order.
func keys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token()
	var out []string
	for dec.More() {
		k, _ := dec.Token()
		out = append(out, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

var referenceKeys = []string{"n_super_passes", "superpass_size", "warmup", "warmup_mode", "n_post_warmup", "metrics",
	"gated_metrics", "trajectories", "cov", "drift", "steady_state", "per_super_pass"}

// TestTreeLayout: the reference's twelve keys (§11.1) in its order, then,
// under steadysweep, the assessment's keys; the encoded bytes are Tree's,
// and a failing writer's error is returned.
func TestTreeLayout(t *testing.T) {
	ref, err := resultjson.Marshal(analyzeGoodrun(t, core.ReferenceParams()))
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(t, ref); !slices.Equal(got, referenceKeys) {
		t.Errorf("reference keys %v (no source under --compat reference)", got)
	}
	r := analyzeGoodrun(t, core.DefaultParams())
	var b bytes.Buffer
	if err := resultjson.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(referenceKeys), "status", "partial", "reason", "verdict", "mode", "submission", "total",
		"steady", "gap", "tail_cut", "early_stopping", "selection", "throughput", "failures", "timing", "source", "certification", "peer_window")
	if got := keys(t, b.Bytes()); !slices.Equal(got, want) {
		t.Errorf("steadysweep keys %v,\nwant %v", got, want)
	}
	// source: the format and file the samples were read from (goodrun is an
	// endpoints run; the endpoints client records no version in its log).
	var doc struct {
		Source map[string]any `json:"source"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	events := filepath.Join("..", "..", "testdata", "goodrun", "events.jsonl")
	if s := doc.Source; s["format"] != "endpoints" || s["path"] != events || s["tool_version"] != nil || len(s) != 4 ||
		fmt.Sprint(s["recorded"]) != "[]" {
		t.Errorf("source %v, want format endpoints, path %s, tool_version null, recorded []", s, events)
	}
	if tree, err := resultjson.Tree(r); err != nil || len(tree) != len(want) {
		t.Errorf("Tree: %d keys, %v", len(tree), err)
	}
	boom := errors.New("disk full")
	if err := resultjson.Write(failing{boom}, r); !errors.Is(err, boom) {
		t.Errorf("Write to a failing writer: %v", err)
	}
}

type failing struct{ err error }

func (f failing) Write([]byte) (int, error) { return 0, f.err }

// TestSourceOtherTool: a GuideLLM report's source names its format, the
// benchmark (#0) and the version its metadata records.
func TestSourceOtherTool(t *testing.T) {
	path := filepath.Join("..", "..", "columnar", "testdata", "guidellm_sync", "benchmarks.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Metadata struct {
			Version string `json:"guidellm_version"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(raw, &report); err != nil || report.Metadata.Version == "" {
		t.Fatalf("report metadata: %v", err)
	}
	var doc struct {
		Source map[string]any `json:"source"`
	}
	if err := json.Unmarshal(analyzedJSON(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Source; s["format"] != "guidellm" || s["path"] != path+"#0" || s["tool_version"] != report.Metadata.Version {
		t.Errorf("source %v, want guidellm, %s#0, %s", s, path, report.Metadata.Version)
	}
}

// TestSourceRecorded: a vLLM result's queue_times reach the JSON's
// source.recorded as the raw file gives them: over the requests whose
// errors entry is empty (serve.py's successful ones), their count, sum,
// mean and max.
func TestSourceRecorded(t *testing.T) {
	src := filepath.Join("..", "..", "columnar", "testdata", "vllm_result", "openai-infqps-concurrency2-Llama-3.1-8B-Instruct-20260102-030405.json")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// Its queue times are zeros: ones that tell a sum from a max instead.
	raw = bytes.Replace(raw, []byte(`"queue_times": [0, 0, 0, 0]`), []byte(`"queue_times": [0.5, 0.25, 1.5, 0.0]`), 1)
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	var result struct {
		QueueTimes []float64 `json:"queue_times"`
		Errors     []string  `json:"errors"`
	}
	// The file writes p99_ttft_ms as Infinity (Python's json), which
	// encoding/json refuses.
	if err := json.Unmarshal(bytes.ReplaceAll(raw, []byte("Infinity"), []byte("null")), &result); err != nil {
		t.Fatal(err)
	}
	var n, sum, maxV float64
	for i, q := range result.QueueTimes {
		if result.Errors[i] == "" {
			n, sum, maxV = n+1, sum+q, max(maxV, q)
		}
	}
	var doc struct {
		Source struct {
			Recorded []map[string]any `json:"recorded"`
		} `json:"source"`
	}
	if err := json.Unmarshal(analyzedJSON(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"field": "vllm queue_times", "unit": "s", "n": n, "sum": sum, "mean": sum / n, "max": maxV}
	if rec := doc.Source.Recorded; n == 0 || sum == 0 || len(rec) != 1 || fmt.Sprint(rec[0]) != fmt.Sprint(want) {
		t.Errorf("recorded %v, want [%v]", rec, want)
	}
}

// analyzedJSON is the JSON record of the run at path (another tool's log)
// analysed with the default parameters.
func analyzedJSON(t *testing.T, path string) []byte {
	t.Helper()
	r, err := sinkstest.LoadRun(t, path).Analyze(core.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	tree, err := resultjson.Tree(r)
	if err != nil {
		t.Fatal(err)
	}
	return pyjson.Marshal(tree)
}

// BenchmarkWrite writes the JSON of the committed run testdata/goodrun,
// analysed under compat reference and under steadysweep, to io.Discard:
// the tree, the encoding and the diagnostic tables' text, without the
// file system (issue 32: a warm analyze's --json). Its diagnostic tables
// are computed before the timer starts, as analyze does before writing.
//
//	nice go test -run '^$' -bench Write -benchmem -cpu 1 -count 5 ./sinks/resultjson/
func BenchmarkWrite(b *testing.B) {
	for _, c := range []struct {
		name   string
		params core.Params
	}{{"reference", core.ReferenceParams()}, {"steadysweep", core.DefaultParams()}} {
		b.Run(c.name, func(b *testing.B) {
			r, err := sinkstest.GoodRun(b).Analyze(c.params)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Diagnostics(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := resultjson.Write(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
