package columnar

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// TestDetect: the format is read from the first bytes, whatever the file
// is called; what is not a log says what it is.
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name, head string
		want       contract.Format
		seen       string // part of the description when want is ""
	}{
		{"endpoints", lnStart + "\n" + lnIssue1 + "\n", contract.FormatEndpoints, ""},
		{"endpoints, damaged first line", `{"event_type":"sess` + "\n" + lnIssue1 + "\n", contract.FormatEndpoints, ""},
		{"endpoints-legacy", `{"approx_datetime_str":"2026-02-01T10:00:00.000000","event_type":"test_started","sample_uuid":"","timestamp_ns":5,"value":""}`, contract.FormatEndpointsLegacy, ""},
		{"endpoints-legacy, keys reordered", `{"event_type":"loadgen_issue_called","timestamp_ns":5}`, contract.FormatEndpointsLegacy, ""},
		{"aiperf", `{"metadata":{"x_request_id":"a","timestamp_ns":1},"metrics":{"ttft":{"value":1,"unit":"ms"}},"error":null}`, contract.FormatAIPerf, ""},
		{"aiperf, error record first", `{"metadata":{"request_start_ns":1},"error":{"code":499}}`, contract.FormatAIPerf, ""},
		{"guidellm", `{"metadata":{"guidellm_version":"0.5"},"args":{},"benchmarks":[{"requests":{}}]}`, contract.FormatGuideLLM, ""},
		{"guidellm, pretty and cut", "{\n  \"benchmarks\": [\n    {\n      \"type_\": \"generative_be", contract.FormatGuideLLM, ""},
		{"guidellm yaml", "# report\n---\nmetadata:\n  version: 1\nbenchmarks:\n- type_: generative_benchmark\n", contract.FormatGuideLLM, ""},
		{"vllm", `{"date": "20260102-030405", "endpoint_type": "openai", "backend": "openai", "label": null, "model_id": "m", "num_prompts": 4}`, contract.FormatVLLM, ""},
		{"vllm, only arrays", `{"ttfts": [0.1], "itls": [[]]}`, contract.FormatVLLM, ""},
		{"aiperf summary", `{"records": {}, "input_config": {}}`, "", "AIPerf summary"},
		{"other JSON", `{"name": "x", "version": "1.0.0"}`, "", `a JSON object with keys "name", "version"`},
		{"JSON list", `[1, 2, 3]`, "", `a JSON array, not an object`},
		{"other YAML", "apiVersion: v1\nkind: Pod\n", "", `a YAML document with keys "apiVersion", "kind"`},
		{"binary", "PK\x03\x04\x00\x00", "", `first bytes "PK\x03\x04\x00\x00"`},
		{"empty", " \n\t", "", "an empty file"},
	} {
		f, seen := Detect([]byte(tc.head))
		if f != tc.want || tc.want == "" && !strings.Contains(seen, tc.seen) {
			t.Errorf("%s: Detect = %q, %q; want %q, %q", tc.name, f, seen, tc.want, tc.seen)
		}
	}
}

// TestDetectFile: compressed logs are sniffed decompressed, and the name
// never decides against the content.
func TestDetectFile(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"approx_datetime_str":"x","event_type":"test_started","sample_uuid":"","timestamp_ns":5,"value":""}` + "\n"))
	zw.Close()
	for name, body := range map[string]string{
		"events.jsonl.gz": gz.String(),
		// An AIPerf log under an endpoints name is AIPerf.
		"a/events.jsonl": `{"metadata":{"timestamp_ns":1},"metrics":{}}` + "\n",
	} {
		writeTemp(t, dir, name, body)
	}
	for name, want := range map[string]contract.Format{"events.jsonl.gz": contract.FormatEndpointsLegacy, "a/events.jsonl": contract.FormatAIPerf} {
		if f, err := DetectFile(filepath.Join(dir, name)); f != want || err != nil {
			t.Errorf("%s: %q, %v; want %q", name, f, err, want)
		}
	}
	run, err := ResolveRun(context.Background(), filepath.Join(dir, "a"))
	if err != nil || run.Format != contract.FormatAIPerf {
		t.Errorf("ResolveRun: %+v, %v", run, err)
	}
}

// TestResolveUnknown: a file of no known format is an error naming it
// and what it holds; under an endpoints events name it is read as
// endpoints, whose decoder names each bad line.
func TestResolveUnknown(t *testing.T) {
	dir := t.TempDir()
	p := writeTemp(t, dir, "results.json", `{"name": "x"}`)
	_, err := ResolveRun(context.Background(), p)
	var u *UnknownFormatError
	if !errors.As(err, &u) || !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), p+": unknown log format: a JSON object with keys \"name\"") {
		t.Errorf("err = %v", err)
	}
	ev := writeTemp(t, dir, "run/events.jsonl", "garbage\n")
	if run, err := ResolveRun(context.Background(), filepath.Dir(ev)); err != nil || run.Format != contract.FormatEndpoints {
		t.Errorf("garbage events.jsonl: %+v, %v", run, err)
	}
	if _, err := ResolveRun(context.Background(), ev+"#1"); err == nil || !strings.Contains(err.Error(), "only GuideLLM reports and appended vLLM/SGLang results hold several runs") {
		t.Errorf("#1 on an events file: %v", err)
	}
}

// TestResolveForeignDirectory: a directory without events.jsonl resolves
// to its one per-request log (AIPerf preferring profile_export.jsonl);
// several reports are several runs, and the error lists them.
func TestResolveForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	rec := `{"metadata":{"timestamp_ns":1},"metrics":{}}` + "\n"
	writeTemp(t, dir, "aiperf/profile_export.jsonl", rec)
	writeTemp(t, dir, "aiperf/profile_export_raw.jsonl", rec)
	writeTemp(t, dir, "aiperf/profile_export_aiperf.json", `{"records": {}, "input_config": {}}`)
	writeTemp(t, dir, "aiperf/notes.json", `{"note": "not a log"}`)
	run, err := ResolveRun(context.Background(), filepath.Join(dir, "aiperf"))
	if err != nil || filepath.Base(run.EventsPath) != "profile_export.jsonl" || run.Format != contract.FormatAIPerf {
		t.Fatalf("aiperf dir: %+v, %v", run, err)
	}
	writeTemp(t, dir, "vllm/a.json", vllmResult)
	writeTemp(t, dir, "vllm/b.json", vllmResult)
	if _, err := ResolveRun(context.Background(), filepath.Join(dir, "vllm")); err == nil || !strings.Contains(err.Error(), "holds 2 benchmark logs") {
		t.Errorf("two results: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveRun(context.Background(), filepath.Join(dir, "empty")); err == nil || !strings.Contains(err.Error(), "nor another tool's log") {
		t.Errorf("empty dir: %v", err)
	}
}

// FuzzDetect: any first bytes: no panic, and a format or a description.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{lnIssue1, `{"metadata":{}}`, "benchmarks:\n- a", `{"ttfts":[`, "\xef\xbb\xbf{", "{{{{", `{"event_type":[{"a":1}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		if fm, seen := Detect(head); (fm == "") == (seen == "") {
			t.Fatalf("Detect = %q, %q", fm, seen)
		}
	})
}

// TestReadersCancelled: every reader stops on a cancelled context and
// reports progress while it reads.
func TestReadersCancelled(t *testing.T) {
	for _, path := range []string{"testdata/legacy_run", "testdata/aiperf_burst", "testdata/guidellm_sync/benchmarks.json",
		"testdata/vllm_result/openai-infqps-concurrency2-Llama-3.1-8B-Instruct-20260102-030405.json"} {
		run, err := ResolveRun(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Ingest(ctx, run, contract.IngestOptions{}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s (%s): err = %v, want context.Canceled", path, run.Format, err)
		}
		var seen int64
		_, err = Ingest(context.Background(), run, contract.IngestOptions{Progress: func(n int64) { seen++ }})
		if err != nil {
			t.Fatal(err)
		}
		if seen == 0 {
			t.Errorf("%s: no progress reported", path)
		}
	}
}

// TestDetectFileShortHead: DetectFile reads 4 KiB first and decides on
// it only when the first line is a whole object naming a format; its
// verdict is Detect's on the 256 KiB head for logs whose deciding keys
// lie past 4 KiB: a report's "benchmarks" key after 20 KB of metadata
// and metrics (GuideLLM, where the first 4 KiB alone look like AIPerf),
// and an events log whose first line is 40 KB long.
func TestDetectFileShortHead(t *testing.T) {
	dir := t.TempDir()
	pad := strings.Repeat("x", 20_000)
	files := map[string]string{
		"report.json": "{\n  \"metadata\": {},\n  \"metrics\": {\"pad\": \"" + pad + "\"},\n  \"benchmarks\": []\n}\n",
		"long/events.jsonl": `{"event_type":"session.started","timestamp_ns":1,"sample_uuid":"","data":"` +
			strings.Repeat("p", 40_000) + "\"}\n" + `{"event_type":"session.ended","timestamp_ns":2,"sample_uuid":""}` + "\n",
		"short/events.jsonl": strings.Repeat(`{"event_type":"sample.issued","timestamp_ns":1,"sample_uuid":"a","data":null}`+"\n", 400),
		"aiperf.jsonl":       strings.Repeat(`{"metadata":{"timestamp_ns":1},"metrics":{}}`+"\n", 600),
	}
	want := map[string]contract.Format{"report.json": contract.FormatGuideLLM, "long/events.jsonl": contract.FormatEndpoints,
		"short/events.jsonl": contract.FormatEndpoints, "aiperf.jsonl": contract.FormatAIPerf}
	for name, body := range files {
		p := writeTemp(t, dir, name, body)
		if len(body) <= shortSniffSize {
			t.Fatalf("%s: %d bytes, not past the short head", name, len(body))
		}
		head, err := contract.ReadHead(p, contract.SniffSize)
		if err != nil {
			t.Fatal(err)
		}
		long, _ := Detect(head)
		got, err := DetectFile(p)
		if err != nil || got != want[name] || got != long {
			t.Errorf("%s: DetectFile %q (%v), Detect on 256 KiB %q; want %q", name, got, err, long, want[name])
		}
	}
	if short, _ := Detect([]byte(files["report.json"][:shortSniffSize])); short != contract.FormatAIPerf {
		t.Errorf("the report's first 4 KiB alone: %q; the test needs them to look like AIPerf", short)
	}
}
