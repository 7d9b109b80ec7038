package columnar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// guidellmFacts are a report's facts read independently with
// encoding/json: benchmark 0's successful, errored and incomplete
// requests, their summed output_tokens and the successful ones'
// time_to_first_token_ms.
type guidellmFacts struct {
	successful, errored, incomplete int
	outputTokens                    int64
	ttftMs                          []float64
}

func readGuideLLMFacts(t *testing.T, path string) guidellmFacts {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type req struct {
		OutputTokens float64 `json:"output_tokens"`
		TTFTMs       float64 `json:"time_to_first_token_ms"`
	}
	var doc struct {
		Benchmarks []struct {
			Requests struct{ Successful, Errored, Incomplete []req } `json:"requests"`
		} `json:"benchmarks"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	rq := doc.Benchmarks[0].Requests
	f := guidellmFacts{successful: len(rq.Successful), errored: len(rq.Errored), incomplete: len(rq.Incomplete)}
	for _, r := range rq.Successful {
		f.outputTokens += int64(r.OutputTokens)
		f.ttftMs = append(f.ttftMs, r.TTFTMs)
	}
	return f
}

// checkGuideLLM checks the run of a synchronous report against its raw
// file's facts.
func checkGuideLLM(t *testing.T, path string) {
	want := readGuideLLMFacts(t, path)
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	info := tab.Info
	if info.SourceFormat != "guidellm" || info.ToolVersion != "0.5.0.dev0" || info.Model != "openai/gpt-oss-20b" ||
		info.LoadPattern != "concurrency" || info.Concurrency != 1 || info.ToolLoadPattern != "synchronous" ||
		!strings.HasSuffix(info.SourcePath, "#0") || !info.TokensRecorded {
		t.Errorf("info %+v", info)
	}
	// args.backend, args.target's host and args.data[0] as recorded.
	var raw struct {
		Args struct {
			Target, Backend string
			Data            []string
		} `json:"args"`
	}
	if b, err := os.ReadFile(path); err != nil || json.Unmarshal(b, &raw) != nil || len(raw.Args.Data) == 0 {
		t.Fatalf("report args: %v", err)
	}
	if host := strings.TrimPrefix(raw.Args.Target, "http://"); info.Endpoint != raw.Args.Backend+" "+host ||
		info.DatasetName != raw.Args.Data[0] || !info.EpochClock {
		t.Errorf("endpoint %q, dataset %q, epoch clock %v; report args %+v", info.Endpoint, info.DatasetName, info.EpochClock, raw.Args)
	}
	if s.Len() != want.successful+want.errored+want.incomplete {
		t.Fatalf("%d samples, want %d requests", s.Len(), want.successful+want.errored+want.incomplete)
	}
	var tokens int64
	var ttft []float64
	for i := 0; i < s.Len(); i++ {
		tokens += max(s.FullTokens[i], 0)
		if s.HasFirstToken[i] {
			ttft = append(ttft, float64(s.TTFTNs[i]))
		}
	}
	if tokens != want.outputTokens {
		t.Errorf("%d output tokens, the raw file's output_tokens sum to %d", tokens, want.outputTokens)
	}
	if got, med := medianOf(ttft), medianOf(want.ttftMs)*1e6; !near(got, med, 1) {
		t.Errorf("median TTFT of the columns %.0f ns, raw median of time_to_first_token_ms %.0f ns", got, med)
	}
	// The detector's p50 is the reference's percentile, sorted[trunc(0.5·(n−1))]:
	// for an even count the lower of the two middle values, not their mean.
	out := wholeRun(t, s, info)
	if p50 := lowerMedianOf(want.ttftMs) * 1e6; !near(out.TotalTTFTP50Ns, p50, 1) {
		t.Errorf("whole-run TTFT p50 %.0f ns, want the raw file's lower median %.0f ns", out.TotalTTFTP50Ns, p50)
	}
	if tab.Summary.ProblemTotal() != 0 {
		t.Errorf("problems: %s", warningsOf(tab))
	}
}

// TestGuideLLMRealData: the shared GuideLLM synchronous run reads as 30
// samples with 30,720 output tokens (1024 each), its TTFTs those of
// time_to_first_token_ms (median 48.115 ms; the detector's p50 48.03 ms,
// the 15th of 30 sorted values).
func TestGuideLLMRealData(t *testing.T) {
	dir := filepath.Join(sharedtest.Dir(t, "realdata/guidellm-gptoss20b-sync30"), "realdata", "guidellm-gptoss20b-sync30")
	path := filepath.Join(dir, "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json")
	want := readGuideLLMFacts(t, path)
	if want.successful != 30 || want.outputTokens != 30720 {
		t.Fatalf("raw file: %d successful, %d output tokens; the README says 30 and 30720", want.successful, want.outputTokens)
	}
	checkGuideLLM(t, path)
	if tab, _ := ingestPath(t, dir); tab.Info.SourcePath != path+"#0" {
		t.Errorf("the directory resolves to %s, not its one report", tab.Info.SourcePath)
	}
}

// TestGuideLLMFixture: the same checks on testdata/guidellm_sync, that
// report cut to 6 requests.
func TestGuideLLMFixture(t *testing.T) { checkGuideLLM(t, "testdata/guidellm_sync/benchmarks.json") }

// glReq is a GuideLLM 0.5 request record.
func glReq(id string, start, ttftMs, latency float64, out int) string {
	return fmt.Sprintf(`{"request_id":%q,"request_start_time":%v,"request_end_time":%v,"request_latency":%v,"time_to_first_token_ms":%v,"prompt_tokens":10,"output_tokens":%d,"output":"x","info":{"status":"completed","error":null,"timings":{"request_start":%v}}}`,
		id, start, start+latency, latency, ttftMs, out, start)
}

// glBench is one benchmarks[] entry with a strategy and request lists.
func glBench(strategy string, successful, errored, incomplete []string) string {
	return fmt.Sprintf(`{"type_":"generative_benchmark","config":{"strategy":%s,"backend":{"model":"m/x"}},"metrics":{"huge":[1,2,3]},"requests":{"successful":[%s],"errored":[%s],"incomplete":[%s],"total":null}}`,
		strategy, strings.Join(successful, ","), strings.Join(errored, ","), strings.Join(incomplete, ","))
}

func glReport(benchmarks ...string) string {
	return `{"metadata":{"version":1,"guidellm_version":"0.5.1"},"args":{"model":"m/x","profile":"sweep"},"benchmarks":[` + strings.Join(benchmarks, ",") + `]}`
}

// TestGuideLLMBenchmarks: a report holds one run per benchmarks[] entry;
// each is read alone, with its own strategy, errored requests as
// failures and incomplete ones as in flight at the end.
func TestGuideLLMBenchmarks(t *testing.T) {
	errored := strings.Replace(glReq("e1", 100.5, 20, 0.5, 3), `"error":null`, `"error":"HTTP 500: Internal Server Error"`, 1)
	midstream := strings.Replace(glReq("e2", 100.6, 20, 0.5, 3), `"error":null`, `"error":"peer closed connection without sending complete message body"`, 1)
	path := writeTemp(t, t.TempDir(), "report.json", glReport(
		glBench(`{"type_":"synchronous","max_concurrency":1}`, []string{glReq("a", 10, 50, 1, 5), glReq("b", 11, 60, 1, 5)}, nil, nil),
		glBench(`{"type_":"concurrent","streams":4,"max_concurrency":4}`, []string{glReq("c", 101, 70, 2, 9), glReq("d", 100, 80, 2, 9)}, []string{errored, midstream}, []string{glReq("i", 103, 0, 0, 0)}),
		glBench(`{"type_":"poisson","rate":2.5}`, []string{glReq("p", 200, 10, 1, 2)}, nil, nil),
	))
	if n, err := foreign.GuideLLMBenchmarks(context.Background(), path); n != 3 || err != nil {
		t.Fatalf("GuideLLMBenchmarks = %d, %v", n, err)
	}
	if _, err := ResolveRun(context.Background(), path); err == nil || !strings.Contains(err.Error(), "holds 3 GuideLLM benchmarks") || !strings.Contains(err.Error(), path+"#2") {
		t.Errorf("a multi-benchmark report without #N: %v", err)
	}
	if _, err := ResolveRun(context.Background(), path+"#3"); err == nil || !strings.Contains(err.Error(), "no benchmark 3") {
		run, _ := ResolveRun(context.Background(), path+"#3")
		if run != nil {
			_, err = Ingest(context.Background(), run, contract.IngestOptions{})
		}
		if err == nil || !strings.Contains(err.Error(), "no benchmark 3 in the GuideLLM report (it holds 3)") {
			t.Errorf("#3: %v", err)
		}
	}
	tab, s := ingestPath(t, path+"#1")
	checkColumns(t, &s)
	if info := tab.Info; info.LoadPattern != "concurrency" || info.Concurrency != 4 || info.ToolLoadPattern != "concurrent" ||
		info.Model != "m/x" || info.ToolVersion != "0.5.1" || info.SourcePath != path+"#1" {
		t.Errorf("info %+v", info)
	}
	if s.Len() != 5 {
		t.Fatalf("%d samples, want 5", s.Len())
	}
	wantOrder := []string{"d", "e1", "e2", "c", "i"} // by issue time
	wantKind := []core.FailureKind{core.FailNone, core.FailHTTP, core.FailMidstream, core.FailNone, core.FailIncomplete}
	for i := range wantOrder {
		if tab.UUID(i) != wantOrder[i] || s.FailureKind[i] != wantKind[i] {
			t.Errorf("sample %d: %s %v, want %s %v", i, tab.UUID(i), s.FailureKind[i], wantOrder[i], wantKind[i])
		}
	}
	if s.FailCode[1] != 500 || !s.Failed[1] || s.Failed[4] || s.HasComplete[4] || s.TTFTNs[0] != 80e6 || s.LatencyNs[0] != 2e9 {
		t.Errorf("columns: codes %v failed %v complete %v ttft %v latency %v", s.FailCode, s.Failed, s.HasComplete, s.TTFTNs, s.LatencyNs)
	}
	tab2, _ := ingestPath(t, path+"#2")
	if tab2.Info.LoadPattern != "poisson" || tab2.Info.TargetQPS != 2.5 || tab2.Summary.Samples != 1 {
		t.Errorf("#2: %+v", tab2.Info)
	}
}

// TestGuideLLMYAML: the YAML rendering of a report reads as its JSON.
func TestGuideLLMYAML(t *testing.T) {
	src := "testdata/guidellm_sync/benchmarks.json"
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	// The prompts and outputs go: yaml.v3 writes some long strings it
	// cannot read back ("mapping values are not allowed").
	for _, r := range doc["benchmarks"].([]any)[0].(map[string]any)["requests"].(map[string]any)["successful"].([]any) {
		delete(r.(map[string]any), "request_args")
		delete(r.(map[string]any), "output")
	}
	y, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src = writeTemp(t, dir, "benchmarks.json", string(js))
	path := writeTemp(t, dir, "benchmarks.yaml", string(y))
	if f, err := DetectFile(path); f != contract.FormatGuideLLM || err != nil {
		t.Fatalf("DetectFile = %q, %v", f, err)
	}
	_, fromJSON := ingestPath(t, src)
	_, fromYAML := ingestPath(t, path)
	if fromJSON.Len() == 0 || fromJSON.Len() != fromYAML.Len() {
		t.Fatalf("%d samples from JSON, %d from YAML", fromJSON.Len(), fromYAML.Len())
	}
	for i := 0; i < fromJSON.Len(); i++ {
		if fromJSON.TTFTNs[i] != fromYAML.TTFTNs[i] || fromJSON.LatencyNs[i] != fromYAML.LatencyNs[i] || fromJSON.FullTokens[i] != fromYAML.FullTokens[i] {
			t.Errorf("sample %d differs", i)
		}
	}
}

// TestGuideLLMMalformed: a bad request record is one problem naming the
// file and the record's path with its field; the other records are read.
func TestGuideLLMMalformed(t *testing.T) {
	good := []string{glReq("a", 10, 50, 1, 5), glReq("b", 12, 50, 1, 5)}
	for _, tc := range []struct {
		name, record, want string
		samples            int
	}{
		{"start time a string", strings.Replace(glReq("x", 11, 5, 1, 2), `"request_start_time":11`, `"request_start_time":"11"`, 1),
			`benchmarks[0].requests.successful[1].request_start_time: unexpected field type`, 3},
		{"no start time", `{"request_id":"x","output_tokens":3}`, `benchmarks[0].requests.successful[1].request_start_time: required field missing`, 2},
		{"token count not a number", strings.Replace(glReq("x", 11, 5, 1, 2), `"output_tokens":2`, `"output_tokens":"two"`, 1),
			`benchmarks[0].requests.successful[1].output_tokens: unexpected field type`, 3},
		{"not JSON inside", `{"request_id":tru}`, `benchmarks[0].requests.successful[1]: not valid JSON`, 2},
		{"a list, not a record", `[1,2]`, `benchmarks[0].requests.successful[1]: JSON value is not an object`, 2},
		{"no latency", `{"request_id":"x","request_start_time":11}`, `benchmarks[0].requests.successful[1].request_latency: required field missing`, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "r.json", glReport(glBench(`{"type_":"synchronous"}`, []string{good[0], tc.record, good[1]}, nil, nil)))
			tab, s := ingestPath(t, path)
			checkColumns(t, &s)
			if s.Len() != tc.samples {
				t.Errorf("%d samples, want %d", s.Len(), tc.samples)
			}
			if msg := warningsOf(tab); !strings.Contains(msg, path+"#0: "+tc.want) {
				t.Errorf("problems %q, want %q", msg, path+"#0: "+tc.want)
			}
		})
	}
	// A cut report keeps the records before the cut and is partial.
	full := glReport(glBench(`{"type_":"synchronous"}`, []string{good[0], good[1], glReq("c", 13, 50, 1, 5)}, nil, nil))
	path := writeTemp(t, t.TempDir(), "r.json", full[:strings.Index(full, `"request_id":"c"`)+10])
	tab, s := ingestPath(t, path)
	if s.Len() != 2 || !tab.Info.Partial || !strings.Contains(warningsOf(tab), "benchmarks[0].requests.successful[2]: truncated last line") {
		t.Errorf("cut report: %d samples, partial %v, %q", s.Len(), tab.Info.Partial, warningsOf(tab))
	}
	// A YAML report over the bound is refused with a way out.
	big := writeTemp(t, t.TempDir(), "big.yaml", "benchmarks:\n"+strings.Repeat("- a: 1\n", foreign.MaxYAMLReport/7+1))
	run, err := ResolveRun(context.Background(), big)
	if err == nil {
		_, err = Ingest(context.Background(), run, contract.IngestOptions{})
	}
	if err == nil || !strings.Contains(err.Error(), "convert it to JSON") {
		t.Errorf("oversized YAML: %v", err)
	}
}

// FuzzGuideLLMRecord: any bytes as the middle request record of a
// report: no panic, every column one entry per sample, problems named
// by record path, the valid records read (unless the bytes break the
// report's structure, which ends it there as a truncated report).
func FuzzGuideLLMRecord(f *testing.F) {
	for _, s := range []string{glReq("x", 5, 1, 1, 1), `{}`, `null`, `"\u0000"`, `{"info":{"timings":{"request_start":1e308}}}`, `]`, `{"request_start_time":-1e300}`,
		"{{", "00}}}"} { // the last two once passed a mismatched bracket
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rec []byte) {
		body := glReport(glBench(`{"type_":"synchronous"}`, []string{glReq("a", 10, 5, 1, 2), string(rec), glReq("b", 12, 5, 1, 2)}, nil, nil))
		d, err := readTemp(t, dir, "r.json", body, contract.FormatGuideLLM, contract.IngestOptions{})
		if err != nil && !strings.Contains(err.Error(), "no benchmark 0") && !strings.Contains(err.Error(), "before benchmark 0") {
			t.Fatal(err)
		}
		if err == nil && !d.Summary.Truncated && d.Samples.Len() < 2 {
			t.Fatalf("%d samples from a whole report: the valid records were lost", d.Samples.Len())
		}
		for _, p := range d.Summary.Problems {
			for _, e := range p.First {
				if e.Line != 0 || !strings.HasPrefix(e.Field, "benchmarks[0]") && e.Field != "the report" && e.Field != "args" {
					t.Fatalf("problem %v not named by a record path", e)
				}
			}
		}
		if errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	})
}
