package columnar

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// aiperfFacts are the facts of a profile_export.jsonl read independently
// with encoding/json: records, errored records, the ttft (ms) of the
// others, and their summed output_sequence_length and
// reasoning_token_count.
type aiperfFacts struct {
	records, errored int
	ttftMs           []float64
	osl, reasoning   int64
	codes            map[float64]int
}

func readAIPerfFacts(t *testing.T, path string) aiperfFacts {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	facts := aiperfFacts{codes: map[float64]int{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Metrics map[string]struct {
				Value any `json:"value"`
			} `json:"metrics"`
			Error *struct {
				Code float64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		facts.records++
		if rec.Error != nil {
			facts.errored++
			facts.codes[rec.Error.Code]++
			continue
		}
		facts.ttftMs = append(facts.ttftMs, rec.Metrics["ttft"].Value.(float64))
		facts.osl += int64(rec.Metrics["output_sequence_length"].Value.(float64))
		facts.reasoning += int64(rec.Metrics["reasoning_token_count"].Value.(float64))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return facts
}

// checkAIPerf checks a run read from an AIPerf log against the facts of
// its raw file.
func checkAIPerf(t *testing.T, dir string) {
	want := readAIPerfFacts(t, filepath.Join(dir, "profile_export.jsonl"))
	tab, s := ingestPath(t, dir)
	checkColumns(t, &s)
	info := tab.Info
	if info.SourceFormat != "aiperf" || !info.TokensRecorded || info.Model != "openai/gpt-oss-20b" ||
		info.Concurrency != 100 || info.LoadPattern != "concurrency" || info.ToolLoadPattern != "concurrency_burst" {
		t.Errorf("info %+v", info)
	}
	// The endpoint as the summary records it (read here on its own):
	// input_config.endpoint.type and the url's host; its clock is epoch.
	var raw struct {
		InputConfig struct {
			Endpoint struct{ Type, URL string } `json:"endpoint"`
		} `json:"input_config"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "profile_export_aiperf.json"))
	if err != nil || json.Unmarshal(b, &raw) != nil {
		t.Fatalf("summary: %v", err)
	}
	if ep := raw.InputConfig.Endpoint; info.Endpoint != ep.Type+" "+ep.URL || ep.URL != "localhost:9000" || !info.EpochClock {
		t.Errorf("endpoint %q (summary %+v), epoch clock %v", info.Endpoint, ep, info.EpochClock)
	}
	if s.Len() != want.records {
		t.Fatalf("%d samples, want %d records", s.Len(), want.records)
	}
	failed, cancelled, completed := 0, 0, 0
	var osl, reasoning int64
	for i := 0; i < s.Len(); i++ {
		if s.Failed[i] {
			failed++
			if s.FailureKind[i] == core.FailCancelled && s.FailCode[i] == 499 {
				cancelled++
			}
			if s.HasFirstToken[i] || s.HasComplete[i] {
				t.Errorf("failed sample %d has timings", i)
			}
			continue
		}
		if s.HasComplete[i] {
			completed++
		}
		osl += s.FullTokens[i]
		reasoning += s.ReasoningTokens[i]
		if s.OutTokens[i] != s.FullTokens[i]-1 {
			t.Errorf("sample %d: post-first tokens %d of %d recorded", i, s.OutTokens[i], s.FullTokens[i])
		}
		if i > 0 && s.IssueNs[i] < s.IssueNs[i-1] {
			t.Fatalf("samples not in issue order at %d", i)
		}
	}
	if failed != want.errored || cancelled != want.codes[499] || completed != want.records-want.errored {
		t.Errorf("failed %d (cancelled 499: %d), completed %d; raw file: %d errored (%v), %d without error",
			failed, cancelled, completed, want.errored, want.codes, want.records-want.errored)
	}
	if osl != want.osl || reasoning != want.reasoning {
		t.Errorf("output tokens %d, reasoning %d; raw file %d, %d", osl, reasoning, want.osl, want.reasoning)
	}
	if tab.Summary.Failed != want.errored || tab.Summary.ProblemTotal() != 0 {
		t.Errorf("summary failed %d, problems %s", tab.Summary.Failed, warningsOf(tab))
	}
	out := wholeRun(t, s, info)
	if med := medianOf(want.ttftMs) * 1e6; !near(out.TotalTTFTP50Ns, med, 1) {
		t.Errorf("whole-run TTFT p50 %.0f ns, want the median of the completed records' ttft %.0f ns", out.TotalTTFTP50Ns, med)
	}
}

// TestAIPerfRealData: the shared AIPerf burst run (100 requests, 11
// cancelled by the client with 499) reads as 100 samples, 11 failed, and
// a whole-run TTFT p50 equal to the median ttft of the 89 completed
// records (odd count: the middle value, 2369.317693 ms per the README).
func TestAIPerfRealData(t *testing.T) {
	dir := filepath.Join(sharedtest.Dir(t, "realdata/aiperf-gptoss20b-burst100"), "realdata", "aiperf-gptoss20b-burst100")
	want := readAIPerfFacts(t, filepath.Join(dir, "profile_export.jsonl"))
	if want.records != 100 || want.errored != 11 {
		t.Fatalf("raw file: %d records, %d errored; the README says 100 and 11", want.records, want.errored)
	}
	checkAIPerf(t, dir)
}

// TestAIPerfFixture: the same checks on testdata/aiperf_burst, the
// first 24 records of that run (the 11 cancelled and 13 completed), so
// they run without ../shared.
func TestAIPerfFixture(t *testing.T) { checkAIPerf(t, "testdata/aiperf_burst") }

// TestAIPerfNewerRecords: the newer record generation (request_start_ns,
// request_end_ns, credit_issued_ns, time_to_first_token) with its own
// units; warmup records left out; an HTTP error and a cancellation.
func TestAIPerfNewerRecords(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"metadata":{"x_request_id":"w","credit_phase":"warmup","request_start_ns":900,"request_end_ns":990},"metrics":{"time_to_first_token":{"value":10,"unit":"ns"}},"error":null}`,
		`{"metadata":{"x_request_id":"b","credit_phase":"profiling","credit_issued_ns":1990,"request_start_ns":2000,"request_end_ns":9000},"metrics":{"time_to_first_token":{"value":0.5,"unit":"us"},"output_sequence_length":{"value":11,"unit":"tokens"},"input_sequence_length":{"value":7,"unit":"tokens"}},"error":null}`,
		`{"metadata":{"x_request_id":"a","credit_phase":"profiling","request_start_ns":1000,"request_end_ns":5000},"metrics":{"time_to_first_token":{"value":0.001,"unit":"ms"},"request_latency":{"value":3.5,"unit":"us"},"output_sequence_length":{"value":5,"unit":"tokens"}},"error":null}`,
		`{"metadata":{"x_request_id":"c","credit_phase":"profiling","request_start_ns":3000,"request_end_ns":3100},"metrics":{},"error":{"code":503,"type":"HTTPError","message":"Service Unavailable"}}`,
		`{"metadata":{"x_request_id":"d","credit_phase":"profiling","request_start_ns":4000,"was_cancelled":true},"metrics":{}}`,
	}
	writeTemp(t, dir, "profile_export.jsonl", strings.Join(lines, "\n")+"\n")
	tab, s := ingestPath(t, dir)
	checkColumns(t, &s)
	if s.Len() != 4 || tab.Summary.Events["warmup"] != 1 {
		t.Fatalf("%d samples, events %v", s.Len(), tab.Summary.Events)
	}
	type view struct {
		id              string
		issue, ttft     int64
		latency         int64
		full, out, in   int64
		kind            core.FailureKind
		code            int32
		first, complete bool
	}
	for i, want := range []view{
		{"a", 1000, 1000, 3500, 5, 4, -1, core.FailNone, 0, true, true},
		{"b", 2000, 500, 7000, 11, 10, 7, core.FailNone, 0, true, true},
		{"c", 3000, 0, 0, -1, -1, -1, core.FailHTTP, 503, false, false},
		{"d", 4000, 0, 0, -1, -1, -1, core.FailCancelled, 0, false, false},
	} {
		got := view{tab.UUID(i), s.IssueNs[i], s.TTFTNs[i], s.LatencyNs[i], s.FullTokens[i], s.OutTokens[i], s.InTokens[i],
			s.FailureKind[i], s.FailCode[i], s.HasFirstToken[i], s.HasComplete[i]}
		if got != want {
			t.Errorf("sample %d: %+v, want %+v", i, got, want)
		}
	}
	if tab.Summary.Failed != 2 || tab.Info.Model != "" {
		t.Errorf("failed %d, model %q", tab.Summary.Failed, tab.Info.Model)
	}
	if !strings.Contains(strings.Join(ResolveWarnings(t, dir), "\n"), "no AIPerf summary") {
		t.Errorf("no warning about the missing summary")
	}
}

// ResolveWarnings ingests dir and returns the run's warnings.
func ResolveWarnings(t *testing.T, dir string) []string {
	run, _ := ingestRun(t, dir, contract.IngestOptions{})
	return run.Warnings
}

// aiperfGood is a valid record issued at ns.
func aiperfGood(id string, ns int) string {
	return `{"metadata":{"x_request_id":"` + id + `","timestamp_ns":` + contract.Itoa(int64(ns)) + `,"credit_phase":"profiling"},"metrics":{"ttft":{"value":1,"unit":"ms"},"request_latency":{"value":5,"unit":"ms"},"output_sequence_length":{"value":9,"unit":"tokens"}}}`
}

// TestAIPerfMalformed: each bad record is one problem naming the file,
// its line and the field; every other record is read.
func TestAIPerfMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		// want is the problem message after "FILE:"; samples the records
		// read (of 2 good ones and the bad one).
		want    string
		samples int
	}{
		{"not JSON", `{"metadata":`, `2: not valid JSON`, 2},
		{"not an object", `[1,2]`, `2: JSON value is not an object`, 2},
		{"start time a string", `{"metadata":{"timestamp_ns":"5"},"metrics":{}}`, `2: field "metadata.timestamp_ns": unexpected field type`, 2},
		{"no start time", `{"metadata":{"x_request_id":"z"},"metrics":{"ttft":{"value":1,"unit":"ms"}}}`, `2: field "metadata.request_start_ns": required field missing`, 2},
		{"ttft not a number", `{"metadata":{"timestamp_ns":5},"metrics":{"ttft":{"value":"fast","unit":"ms"},"request_latency":{"value":5,"unit":"ms"}}}`, `2: field "metrics.ttft.value": unexpected field type`, 3},
		{"unknown unit", `{"metadata":{"timestamp_ns":5},"metrics":{"ttft":{"value":1,"unit":"fortnights"},"request_latency":{"value":5,"unit":"ms"}}}`, `2: field "metrics.ttft.unit": unexpected field type`, 3},
		{"no latency, no error", `{"metadata":{"timestamp_ns":5},"metrics":{}}`, `2: field "metrics.request_latency": required field missing`, 3},
		{"token count negative", `{"metadata":{"timestamp_ns":5},"metrics":{"request_latency":{"value":5,"unit":"ms"},"output_sequence_length":{"value":-3}}}`, `2: field "metrics.output_sequence_length.value": unexpected field type`, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeTemp(t, dir, "profile_export.jsonl", aiperfGood("a", 100)+"\n"+tc.line+"\n"+aiperfGood("b", 200)+"\n")
			checkOneProblem(t, path, tc.samples, path+":"+tc.want)
		})
	}
	// A cut last line is a truncated log; the lines before it are read.
	path := writeTemp(t, t.TempDir(), "profile_export.jsonl", aiperfGood("a", 100)+"\n"+aiperfGood("b", 200)[:40])
	tab, s := ingestPath(t, path)
	if s.Len() != 1 || !tab.Info.Partial || !strings.Contains(warningsOf(tab), path+":2: truncated last line") {
		t.Errorf("cut log: %d samples, partial %v, %q", s.Len(), tab.Info.Partial, warningsOf(tab))
	}
}

// FuzzAIPerfRecord: any record between two valid ones: no panic, every
// column one entry per sample, problems on the input's lines, the valid
// records read.
func FuzzAIPerfRecord(f *testing.F) {
	for _, s := range []string{aiperfGood("x", 5), `{"metadata":{}}`, `{"metrics":{"ttft":{"value":[1]}}}`, "\x00", `{"error":{"code":1e999}}`,
		`{"metadata":{"request_start_ns":1,"turn_index":3},"metrics":{"request_latency":{"value":1e308,"unit":"s"}}}`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rec []byte) {
		rec = bytes.ReplaceAll(rec, []byte("\n"), nil)
		body := aiperfGood("a", 100) + "\n" + string(rec) + "\n" + aiperfGood("b", 200) + "\n"
		checkNeighboursKept(t, dir, "profile_export.jsonl", body, contract.FormatAIPerf, 1, 3)
	})
}
