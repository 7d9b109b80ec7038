package columnar

import (
	"context"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/core"
)

// sglangLine is one SGLang bench_serving --output-details result (the
// keys of python/sglang/bench_serving.py's result and result_details).
func sglangLine(ttfts, itls, outs string) string {
	return `{"tag": null, "backend": "sglang-oai", "dataset_name": "random", "request_rate": 4.0, "max_concurrency": 16, ` +
		`"sharegpt_output_len": null, "random_input_len": 1024, "random_output_len": 128, "random_range_ratio": 0.0, "server_info": null, ` +
		`"duration": 3.0, "completed": 3, "mean_ttft_ms": 1.0, "concurrency": 2.0, "accept_length": null, ` +
		`"input_lens": [10, 20, 30], "output_lens": ` + outs + `, "ttfts": ` + ttfts + `, "itls": ` + itls +
		`, "generated_texts": ["a", "b", ""], "errors": ["", "", "Internal Server Error"]}`
}

// TestSGLangResults: an SGLang file (appended, two results) is detected
// as SGLang, not as an old vLLM result; each result is a run "#N"; the
// values written into it are read: TTFT, latency = TTFT + Σ ITL, tokens,
// the failed request, and no timeline with SGLang's reason.
func TestSGLangResults(t *testing.T) {
	dir := t.TempDir()
	body := sglangLine("[0.25, 0.5, 0.0]", "[[0.125, 0.125], [0.25], []]", "[3, 2, 0]") + "\n" +
		sglangLine("[0.75, 1.0, 0.0]", "[[0.5], [0.5, 0.5], []]", "[2, 3, 0]") + "\n"
	path := writeTemp(t, dir, "sglang_1107_3_random.jsonl", body)
	if f, err := DetectFile(path); err != nil || f != contract.FormatSGLang {
		t.Fatalf("detected %q, %v", f, err)
	}
	if _, err := ResolveRun(context.Background(), path); err == nil || !strings.Contains(err.Error(), "holds 2 sglang results") {
		t.Errorf("a two-result file without #N: %v", err)
	}
	for part, want := range []struct{ ttft, lat [2]int64 }{
		{[2]int64{250e6, 500e6}, [2]int64{500e6, 750e6}},
		{[2]int64{750e6, 1000e6}, [2]int64{1250e6, 2000e6}},
	} {
		p := path + "#" + string(rune('0'+part))
		tab, s := ingestPath(t, p)
		checkColumns(t, &s)
		if tab.Info.SourceFormat != "sglang" || tab.Info.SourcePath != p || !strings.Contains(tab.Info.NoTimelineReason, "SGLang") ||
			tab.Info.Concurrency != 16 || tab.Info.TargetQPS != 4 {
			t.Errorf("#%d info %+v", part, tab.Info)
		}
		if s.Len() != 3 || s.TTFTNs[0] != want.ttft[0] || s.TTFTNs[1] != want.ttft[1] || s.LatencyNs[0] != want.lat[0] ||
			s.LatencyNs[1] != want.lat[1] || !s.Failed[2] || s.FailureKind[2] != core.FailHTTP || s.FailCode[2] != 500 {
			t.Errorf("#%d ttft %v latency %v failed %v kinds %v", part, s.TTFTNs, s.LatencyNs, s.Failed, s.FailureKind)
		}
	}
	if n, named := foreign.RunParts(context.Background(), path, contract.FormatSGLang); n != 2 || !named {
		t.Errorf("RunParts %d %v", n, named)
	}
}

// TestVLLMPlainAndAppended: vLLM's result without --save-detailed
// (vllm/benchmarks/serve.py deletes input_lens, output_lens,
// start_times, ttfts, itls, generated_texts and errors, and keeps
// latencies and queue_times) is read as latencies only, no timeline; a
// --append-result file holds one result a line, each a run; a file with
// one result keeps its plain name.
func TestVLLMPlainAndAppended(t *testing.T) {
	dir := t.TempDir()
	plain := `{"date": "20260102-030405", "endpoint_type": "openai", "backend": "openai", "label": null, "model_id": "m", "tokenizer_id": "m", ` +
		`"num_prompts": 3, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 2, "duration": 3.5, "completed": 2, "failed": 1, ` +
		`"latencies": [0.75, 0.5, 0.0], "queue_times": [0.0, 0.25, 0.0], "mean_ttft_ms": 100.0}`
	path := writeTemp(t, dir, "one/openai-infqps-concurrency2-m-20260102-030405.json", plain)
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	if tab.Info.SourcePath != path || tab.Info.NoTimelineReason == "" || s.Len() != 3 || s.LatencyNs[0] != 750e6 ||
		s.LatencyNs[1] != 500e6 || s.HasFirstToken[0] || !s.Failed[2] {
		t.Errorf("plain: info %+v latency %v first %v failed %v", tab.Info, s.LatencyNs, s.HasFirstToken, s.Failed)
	}
	if n, named := foreign.RunParts(context.Background(), path, contract.FormatVLLM); n != 1 || named {
		t.Errorf("one result: RunParts %d %v", n, named)
	}
	second := strings.Replace(plain, `"latencies": [0.75, 0.5, 0.0]`, `"latencies": [1.5, 2.5, 0.0]`, 1)
	appended := writeTemp(t, dir, "two/openai-infqps-concurrency2-m.json", plain+"\n"+second)
	tab, s = ingestPath(t, appended+"#1")
	if tab.Info.SourcePath != appended+"#1" || s.Len() != 3 || s.LatencyNs[0] != 1500e6 || s.LatencyNs[1] != 2500e6 {
		t.Errorf("appended #1: %s latency %v", tab.Info.SourcePath, s.LatencyNs)
	}
	if _, err := ResolveRun(context.Background(), appended+"#2"); err == nil || !strings.Contains(err.Error(), "holds 2 vllm result(s)") {
		t.Errorf("#2 of two: %v", err)
	}
	// A damaged first result: the second still reads when named, and the
	// first's damage is reported at its place.
	bad := writeTemp(t, dir, "bad/r.json", `{"model_id": "m", "num_prompts": 1, "latencies": [0.5, `+"\n"+second)
	run := &contract.Run{Dir: dir, EventsPath: bad, Format: contract.FormatVLLM, Part: 0}
	var d contract.Decoded
	if _, err := (foreign.VLLMReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err == nil && !d.Summary.Truncated {
		t.Errorf("damaged result read without a report: %+v", d.Summary)
	}
}
