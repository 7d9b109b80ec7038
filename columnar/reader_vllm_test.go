package columnar

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// vllmResult is a `vllm bench serve --save-result --save-detailed` file
// as vllm/benchmarks/serve.py writes it (keys in its order; arrays in
// issue order). The third request failed with an HTTP reason phrase, the
// fourth with a timeout; the second was sent first.
const vllmResult = `{"date": "20260102-030405", "endpoint_type": "openai", "backend": "openai", "label": null,
 "model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct", "num_prompts": 4,
 "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 2,
 "duration": 3.5, "completed": 2, "failed": 2, "total_input_tokens": 40, "total_output_tokens": 9,
 "input_lens": [10, 10, 10, 10], "output_lens": [5, 4, 0, 0],
 "ttfts": [0.25, 0.125, 0.0, 0.0],
 "itls": [[0.1, 0.1, 0.1, 0.1], [0.2, 0.2, 0.2], [], []],
 "latencies": [0.75, 0.875, 0.0, 0.0],
 "start_times": [1000.5, 1000.25, 1001.0, 1001.5],
 "queue_times": [0, 0, 0, 0],
 "generated_texts": ["a b c d e", "f g h i", "", ""],
 "errors": ["", "", "Internal Server Error", "Traceback (most recent call last):\n  ...\nasyncio.exceptions.TimeoutError\n"],
 "max_output_tokens_per_s": 8.0, "max_concurrent_requests": 2, "mean_ttft_ms": 93.75, "p99_ttft_ms": Infinity}`

// TestVLLMResult: per-request arrays become samples in issue order, the
// rate and concurrency become the load, failures their kinds.
func TestVLLMResult(t *testing.T) {
	path := "testdata/vllm_result/openai-infqps-concurrency2-Llama-3.1-8B-Instruct-20260102-030405.json"
	if b, err := os.ReadFile(path); err != nil || string(b) != vllmResult {
		t.Fatalf("%s is not vllmResult (%v)", path, err)
	}
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	info := tab.Info
	if info.SourceFormat != "vllm" || info.Model != "meta-llama/Llama-3.1-8B-Instruct" || info.LoadPattern != "concurrency" ||
		info.Concurrency != 2 || info.NoTimelineReason != "" || !strings.Contains(info.ToolLoadPattern, "max_concurrency=2") {
		t.Errorf("info %+v", info)
	}
	// endpoint_type as written; start_times are perf_counter seconds.
	if info.Endpoint != "openai" || info.EpochClock || !strings.Contains(vllmResult, `"endpoint_type": "openai"`) {
		t.Errorf("endpoint %q, epoch clock %v", info.Endpoint, info.EpochClock)
	}
	if s.Len() != 4 || tab.Summary.ProblemTotal() != 0 {
		t.Fatalf("%d samples, problems %s", s.Len(), warningsOf(tab))
	}
	// second: output tokens.
	checkSampleViews(t, tab, s, s.OutTokens, []sampleView{
		{"1", 1000.25e9, 0.125e9, 0.875e9, 4, 3, 10, core.FailNone, 0},
		{"0", 1000.5e9, 0.25e9, 0.75e9, 5, 4, 10, core.FailNone, 0},
		{"2", 1001e9, 0, 0, 0, -1, 10, core.FailHTTP, 500},
		{"3", 1001.5e9, 0, 0, 0, -1, 10, core.FailTimeout, 0},
	})
}

// TestVLLMWithoutStartTimes: an older result has no start_times, so the
// run is one super-pass of whole-run numbers and says why.
func TestVLLMWithoutStartTimes(t *testing.T) {
	body := strings.Replace(vllmResult, `"latencies": [0.75, 0.875, 0.0, 0.0],`, "", 1)
	body = strings.Replace(body, `"start_times": [1000.5, 1000.25, 1001.0, 1001.5],`, "", 1)
	body = strings.Replace(body, `"request_rate": "inf"`, `"request_rate": 4.0`, 1)
	tab, s := ingestPath(t, writeTemp(t, t.TempDir(), "result.json", body))
	info := tab.Info
	if info.NoTimelineReason == "" || info.DatasetSize != 4 || !strings.Contains(info.DatasetSizeSource, "cannot be windowed") ||
		info.LoadPattern != "poisson" || info.TargetQPS != 4 {
		t.Fatalf("info %+v", info)
	}
	// In result order; latency is the last token's time, ttft + Σ itls.
	if s.IssueNs[0] != 0 || s.TTFTNs[0] != 0.25e9 || s.LatencyNs[0] != 0.65e9 || s.LatencyNs[1] != 0.725e9 {
		t.Errorf("issue %v ttft %v latency %v", s.IssueNs, s.TTFTNs, s.LatencyNs)
	}
	out := wholeRun(t, s, info)
	if out.NSuperPasses != 1 || out.Found || !near(out.TotalTTFTP50Ns, 0.125e9, 0) {
		t.Errorf("outcome: %d super-passes, found %v, TTFT p50 %v", out.NSuperPasses, out.Found, out.TotalTTFTP50Ns)
	}
}

// TestVLLMNotDetailed: a result saved without --save-detailed has no
// per-request arrays and is refused, saying so.
func TestVLLMNotDetailed(t *testing.T) {
	body := `{"date": "20260102-030405", "backend": "vllm", "model_id": "m", "num_prompts": 4, "request_rate": "inf", "completed": 4, "mean_ttft_ms": 93.75}`
	run, err := ResolveRun(context.Background(), writeTemp(t, t.TempDir(), "r.json", body))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Ingest(context.Background(), run, contract.IngestOptions{}); err == nil || !strings.Contains(err.Error(), "--save-detailed") {
		t.Errorf("err = %v", err)
	}
}

// TestVLLMMalformed: a bad entry is one problem naming the file and the
// array element; the rest is read.
func TestVLLMMalformed(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"ttft a string", `"ttfts": [0.25, 0.125,`, `"ttfts": [0.25, "fast",`, `: ttfts[1]: unexpected field type`},
		{"short array", `"output_lens": [5, 4, 0, 0]`, `"output_lens": [5, 4, 0]`, `: output_lens (3 entries, 4 expected): required field missing`},
		{"itls not a list", `"itls": [[0.1, 0.1, 0.1, 0.1],`, `"itls": [{"a": 1},`, `: itls[0]: unexpected field type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "r.json", strings.Replace(vllmResult, tc.from, tc.to, 1))
			tab, s := ingestPath(t, path)
			checkColumns(t, &s)
			if s.Len() != 4 || !strings.Contains(warningsOf(tab), path+tc.want) || tab.Summary.ProblemTotal() != 1 {
				t.Errorf("%d samples, problems %q, want %q", s.Len(), warningsOf(tab), path+tc.want)
			}
		})
	}
	cut := vllmResult[:strings.Index(vllmResult, `"errors"`)]
	tab, s := ingestPath(t, writeTemp(t, t.TempDir(), "r.json", cut))
	if s.Len() != 4 || !tab.Info.Partial {
		t.Errorf("cut result: %d samples, partial %v", s.Len(), tab.Info.Partial)
	}
}

// FuzzVLLMEntry: any bytes as a ttfts entry: no panic, consistent
// columns, problems named by array element.
func FuzzVLLMEntry(f *testing.F) {
	for _, s := range []string{"0.5", "null", "NaN", "-Infinity", `"x"`, "[1]", "1e999", "]", "{"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, entry []byte) {
		body := strings.Replace(vllmResult, `"ttfts": [0.25,`, `"ttfts": [`+string(entry)+`,`, 1)
		d, err := readTemp(t, dir, "r.json", body, contract.FormatVLLM, contract.IngestOptions{})
		if err != nil && !strings.Contains(err.Error(), "--save-detailed") {
			t.Fatal(err)
		}
		for i := 0; i < d.Samples.Len(); i++ {
			if d.Samples.HasFirstToken[i] && (d.Samples.TTFTNs[i] <= 0 || math.IsNaN(float64(d.Samples.TTFTNs[i]))) {
				t.Fatalf("sample %d: TTFT %d", i, d.Samples.TTFTNs[i])
			}
		}
		for _, p := range d.Summary.Problems {
			for _, e := range p.First {
				if e.Line != 0 || e.Field == "" {
					t.Fatalf("problem %v not named by an array element", e)
				}
			}
		}
	})
}
