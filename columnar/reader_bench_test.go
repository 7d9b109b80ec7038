package columnar

// Benchmarks of the readers of other formats. Run with:
//
//	go test -run '^$' -bench 'Read(Legacy|GuideLLM|AIPerf)|DecodeCurrentForLegacy' -benchtime 3x -cpu 1 ./columnar/

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// benchRead reads run with r b.N times, reporting MB/s and samples.
func benchRead(b *testing.B, r contract.Reader, run *contract.Run, opts contract.IngestOptions) {
	st, err := os.Stat(run.EventsPath)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	runtime.GC() // the setup's garbage is not the reader's
	b.ResetTimer()
	var d contract.Decoded
	for i := 0; i < b.N; i++ {
		if _, err := r.Read(context.Background(), run, opts, &d); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.Samples.Len()), "samples")
}

// legacyBenchRun is a ~64 MB current-format log and its legacy rewrite.
func legacyBenchRun(b *testing.B) (current, legacy *contract.Run) {
	dir := b.TempDir()
	cur := filepath.Join(dir, "current", "events.jsonl")
	if err := os.MkdirAll(filepath.Dir(cur), 0o755); err != nil {
		b.Fatal(err)
	}
	writeBenchLog(b, cur, 64<<20)
	src, err := os.ReadFile(cur)
	if err != nil {
		b.Fatal(err)
	}
	leg := filepath.Join(dir, "legacy", "events.jsonl")
	if err := os.MkdirAll(filepath.Dir(leg), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(leg, toLegacy(b, src), 0o644); err != nil {
		b.Fatal(err)
	}
	return &contract.Run{Dir: filepath.Dir(cur), EventsPath: cur, Format: contract.FormatEndpoints, Part: -1},
		&contract.Run{Dir: filepath.Dir(leg), EventsPath: leg, Format: contract.FormatEndpointsLegacy, Part: -1}
}

// BenchmarkReadLegacy reads the legacy rewrite of the decoder benchmark's
// log; BenchmarkDecodeCurrentForLegacy the same run in today's format
// with the endpoints decoder on one worker (the legacy file is smaller:
// no prompts).
func BenchmarkReadLegacy(b *testing.B) {
	_, leg := legacyBenchRun(b)
	benchRead(b, endpoints.LegacyReader{}, leg, contract.IngestOptions{Counter: tokenizer.Words{}})
}

func BenchmarkDecodeCurrentForLegacy(b *testing.B) {
	cur, _ := legacyBenchRun(b)
	benchRead(b, endpoints.EndpointsReader{}, cur, contract.IngestOptions{Counter: tokenizer.Words{}, Workers: 1})
}

// BenchmarkReadGuideLLM streams a report of 20,000 requests with 4 KB
// outputs (~100 MB): memory is the samples, not the file.
func BenchmarkReadGuideLLM(b *testing.B) {
	path := filepath.Join(b.TempDir(), "report.json")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	out := strings.Repeat("token ", 700)
	fmt.Fprint(f, `{"metadata":{"guidellm_version":"0.5"},"benchmarks":[{"config":{"strategy":{"type_":"concurrent","streams":64}},"requests":{"successful":[`)
	for i := 0; i < 20000; i++ {
		if i > 0 {
			fmt.Fprint(f, ",")
		}
		fmt.Fprint(f, strings.Replace(glReq(fmt.Sprint(i), 1.7e9+float64(i)/10, 50, 6, 700), `"output":"x"`, `"output":"`+out+`"`, 1))
	}
	fmt.Fprint(f, `],"errored":[],"incomplete":[]}}]}`)
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	benchRead(b, foreign.GuideLLMReader{}, &contract.Run{Dir: filepath.Dir(path), EventsPath: path, Format: contract.FormatGuideLLM, Part: 0}, contract.IngestOptions{})
}

// BenchmarkReadAIPerf reads 200 copies of the testdata AIPerf records.
func BenchmarkReadAIPerf(b *testing.B) {
	src, err := os.ReadFile("testdata/aiperf_burst/profile_export.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "profile_export.jsonl")
	if err := os.WriteFile(path, []byte(strings.Repeat(string(src), 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	benchRead(b, foreign.AIPerfReader{}, &contract.Run{Dir: dir, EventsPath: path, Format: contract.FormatAIPerf, Part: -1}, contract.IngestOptions{})
}
