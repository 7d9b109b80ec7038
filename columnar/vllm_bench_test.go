package columnar

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/core"
)

// vllmBenchResult is a result of vLLM's Rust benchmark
// (vllm-project/vllm-bench, --save-result --save-detailed) as
// src/output/json.rs @ f3131823 writes it: serde_json::to_string of a
// map without preserve_order, so one compact line with the keys sorted.
// Four requests: #0 (sent first, at 0 s) failed before any token; #2
// failed after streaming (its arrays look complete, its errors entry is
// empty: only failed_requests says so); #1 and #3 succeeded, #1 first at
// 0.25 s, so the steady_state window's bounds count from 0.25 s
// (detect_window's min_start over successful requests).
const vllmBenchResult = `{"backend":"openai","burstiness":1.0,"completed":2,"date":"20260102-030405","duration":3.5,` +
	`"endpoint_type":"openai","errors":["connection refused","","",""],"failed":2,` +
	`"failed_requests":[{"error":"connection refused","index":0,"itl":[],"latency":0.0,"output_tokens":0,"prompt_len":10,"start_time":0.0,"ttft":0.0},` +
	`{"error":"incomplete stream","index":2,"itl":[0.1],"latency":0.5,"output_tokens":2,"prompt_len":10,"start_time":0.75,"ttft":0.25}],` +
	`"generated_texts":["","a b c","d e",""],"input_lens":[10,10,10,10],"itls":[[],[0.1,0.1],[0.1],[0.2,0.2]],"label":null,` +
	`"latencies":[0.0,0.5,0.5,0.75],"max_concurrency":2,"model_id":"m","num_prompts":4,"output_lens":[0,3,2,3],"request_rate":"inf",` +
	`"start_times":[0.0,0.25,0.75,1.25],` +
	`"steady_state":{"input_throughput":10.0,"mean_ttft_ms":150.0,"window":{"duration_s":1.5,"end_s":2.5,"observed_peak":2,"requests_completed_in_window":1,` +
	`"requests_started_in_window":1,"requests_total":2,"start_s":1.0,"target_concurrency":2,"threshold":0.95,"threshold_abs":2,"warning":null}},` +
	`"tokenizer_id":null,"ttfts":[0.0,0.125,0.25,0.1]}`

// TestVLLMBenchResult: failed_requests marks #2 failed though its arrays
// look complete, and steady_state's window lands on the run's clock at
// 0.25 s + start_s/end_s (the earliest successful start, not the failed
// #0's 0 s).
func TestVLLMBenchResult(t *testing.T) {
	tab, s := ingestPath(t, writeTemp(t, t.TempDir(), "openai-infqps-concurrency2-m-20260102-030405.json", vllmBenchResult))
	checkColumns(t, &s)
	if tab.Info.SourceFormat != "vllm" || s.Len() != 4 || tab.Summary.ProblemTotal() != 0 {
		t.Fatalf("format %q, %d samples, problems %s", tab.Info.SourceFormat, s.Len(), warningsOf(tab))
	}
	failed := map[int64]core.FailureKind{}
	for i := range s.Len() {
		failed[s.IssueNs[i]] = s.FailureKind[i]
	}
	if failed[0] == core.FailNone || failed[0.75e9] == core.FailNone || failed[0.25e9] != core.FailNone || failed[1.25e9] != core.FailNone {
		t.Errorf("failure kinds by issue time %v: want #0 and #2 failed", failed)
	}
	pw := tab.Info.PeerWindow
	if pw == nil || pw.StartNs != 1.25e9 || pw.EndNs != 2.75e9 || !strings.Contains(pw.Source, "vllm-bench steady_state") {
		t.Errorf("peer window %+v, want [1.25 s, 2.75 s] from vllm-bench", pw)
	}
}

// TestVLLMBenchNoWindow: steady_state null (no closed-loop target) or a
// result without start_times has no peer window.
func TestVLLMBenchNoWindow(t *testing.T) {
	i, j := strings.Index(vllmBenchResult, `"steady_state":{`), strings.Index(vllmBenchResult, `,"tokenizer_id"`)
	for name, body := range map[string]string{
		"null":           vllmBenchResult[:i] + `"steady_state":null` + vllmBenchResult[j:],
		"no start_times": strings.Replace(vllmBenchResult, `"start_times":[0.0,0.25,0.75,1.25],`, "", 1),
	} {
		tab, _ := ingestPath(t, writeTemp(t, t.TempDir(), "r.json", body))
		if tab.Info.PeerWindow != nil || tab.Summary.ProblemTotal() != 0 {
			t.Errorf("%s: peer window %+v, problems %s", name, tab.Info.PeerWindow, warningsOf(tab))
		}
	}
}

// TestVLLMBenchNotDetailed: without --save-detailed vllm-bench writes no
// per-request arrays but failed_requests and steady_state: refused in
// one line naming vllm-bench and the failures it lists.
func TestVLLMBenchNotDetailed(t *testing.T) {
	body := `{"backend":"openai","completed":3,"date":"20260102-030405","failed":1,"failed_requests":[{"error":"timeout","index":1,"itl":[],"latency":0.0,` +
		`"output_tokens":0,"prompt_len":10,"start_time":0.5,"ttft":0.0}],"model_id":"m","num_prompts":4,"steady_state":null}`
	run, err := ResolveRun(context.Background(), writeTemp(t, t.TempDir(), "r.json", body))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Ingest(context.Background(), run, contract.IngestOptions{})
	if err == nil || !strings.Contains(err.Error(), "vllm-bench result (1 failed_requests) without per-request arrays") ||
		!strings.Contains(err.Error(), "--save-detailed") {
		t.Errorf("err = %v", err)
	}
}

// TestVLLMBenchMalformed: a bad failed_requests entry or steady_state
// field is one problem naming the file and the element or field; the
// requests are read.
func TestVLLMBenchMalformed(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"index a string", `"index":2,`, `"index":"two",`, `: failed_requests[1].index: unexpected field type`},
		{"index out of range", `"index":2,`, `"index":7,`, `: failed_requests[1].index: unexpected field type`},
		{"index fractional", `"index":2,`, `"index":2.5,`, `: failed_requests[1].index: unexpected field type`},
		{"entry not an object", `{"error":"incomplete stream","index":2,"itl":[0.1],"latency":0.5,"output_tokens":2,"prompt_len":10,"start_time":0.75,"ttft":0.25}`,
			`[2]`, `: failed_requests[1]: `},
		{"error a number", `"error":"incomplete stream"`, `"error":5`, `: failed_requests[1].error: unexpected field type`},
		{"window start a string", `"start_s":1.0`, `"start_s":"1.0"`, `: steady_state.window.start_s: unexpected field type`},
		{"window an array", `"window":{"duration_s"`, `"window":[],"x":{"duration_s"`, `: steady_state.window: unexpected field type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(vllmBenchResult, tc.from) {
				t.Fatalf("%q not in the result", tc.from)
			}
			path := writeTemp(t, t.TempDir(), "r.json", strings.Replace(vllmBenchResult, tc.from, tc.to, 1))
			tab, s := ingestPath(t, path)
			checkColumns(t, &s)
			if s.Len() != 4 || !strings.Contains(warningsOf(tab), path+tc.want) || tab.Summary.ProblemTotal() != 1 {
				t.Errorf("%d samples, problems %q, want %q", s.Len(), warningsOf(tab), path+tc.want)
			}
		})
	}
}

// FuzzVLLMBenchBlocks: any bytes as the failed_requests and steady_state
// values (one input, the two parts split at its first NUL byte): no
// panic, consistent columns, a peer window (when any) that ends after it
// starts, problems named by element or field.
//
// Every new input the fuzzer finds is minimized before fuzzing goes on,
// and the minimizer's last pass tries removing every substring — a
// number of executions quadratic in the input's length. Seeded with the
// whole blocks (590 bytes, ~1.7·10⁵ tries) and writing each input to a
// file on disk (milliseconds an execution on a loaded machine), each find
// spent the 60 s minimize budget: fuzzing that looked stalled after a few
// execs. So the seeds are the blocks cut to the keys read (index, error;
// window start_s, end_s), inputs over fuzzMaxBlocks bytes are passed
// over, and the file is written on tmpfs (/dev/shm) where there is one.
func FuzzVLLMBenchBlocks(f *testing.F) {
	i, j := strings.Index(vllmBenchResult, `"failed_requests":`), strings.Index(vllmBenchResult, `,"generated_texts"`)
	k, l := strings.Index(vllmBenchResult, `"steady_state":`), strings.Index(vllmBenchResult, `,"tokenizer_id"`)
	for _, seed := range []string{
		`[{"error":"x","index":0},{"error":"incomplete stream","index":2}]` + "\x00" + `{"window":{"start_s":1.0,"end_s":2.5}}`,
		`[{"index":-1},{"index":1e99},null,{}]` + "\x00" + `{"window":{"start_s":5,"end_s":1}}`,
		"[\x00{\"window\":null}",
		`[]` + "\x00" + `null`,
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "fuzzvllm"); err == nil {
			dir = d
			f.Cleanup(func() { os.RemoveAll(d) })
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > fuzzMaxBlocks {
			return
		}
		fr, ss, _ := strings.Cut(string(in), "\x00")
		body := vllmBenchResult[:i] + `"failed_requests":` + fr + vllmBenchResult[j:k] + `"steady_state":` + ss + vllmBenchResult[l:]
		path := writeTemp(t, dir, "r.json", body)
		run := &contract.Run{Dir: dir, EventsPath: path, Format: contract.FormatVLLM, Part: -1}
		var d contract.Decoded
		info, err := (foreign.VLLMReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d)
		if err != nil && !strings.Contains(err.Error(), "--save-detailed") {
			t.Fatal(err)
		}
		checkColumns(t, &d.Samples)
		if pw := info.PeerWindow; pw != nil && pw.EndNs <= pw.StartNs {
			t.Fatalf("peer window %+v", pw)
		}
		for _, p := range d.Summary.Problems {
			for _, e := range p.First {
				if e.Line != 0 || e.Field == "" {
					t.Fatalf("problem %v not named by an element or field", e)
				}
			}
		}
	})
}

// fuzzMaxBlocks bounds FuzzVLLMBenchBlocks' inputs: room for two
// failed_requests entries and a steady_state window, and a minimization
// (quadratic in the length) of at most ~8,000 executions.
const fuzzMaxBlocks = 128
