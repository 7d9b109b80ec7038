package columnar

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/cache"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
)

// multiBenchmarkReport is a GuideLLM report of n benchmarks; benchmark b
// holds b%5+1 successful requests whose prompt_tokens are 10·b+j, so a
// run read from the wrong offset shows it.
func multiBenchmarkReport(n int) string {
	var b strings.Builder
	b.WriteString(`{"metadata": {"guidellm_version": "0.5.0"}, "args": {"model": "m"}, "benchmarks": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"config": {"strategy": {"type_": "synchronous"}}, "requests": {"successful": [`)
		for j := range i%5 + 1 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"request_start_time": %d.5, "request_latency": 1.0, "time_to_first_token_ms": 100, "output_tokens": 5, "prompt_tokens": %d}`, 1000+j, 10*i+j)
		}
		b.WriteString(`], "errored": [], "incomplete": []}}`)
	}
	b.WriteString("]}")
	return b.String()
}

// TestGuideLLMIndexedOnce is issue 30's "a GuideLLM report of 10,000
// benchmarks re-streams and re-hashes the file per benchmark" (~35
// minutes): reading each benchmark of a 1,500-benchmark report walks the
// report once (the index) and hashes it once, and each run holds its own
// benchmark's requests (the report's construction above).
func TestGuideLLMIndexedOnce(t *testing.T) {
	const n = 1500
	path := writeTemp(t, t.TempDir(), "report.json", multiBenchmarkReport(n))
	builds, hashes := foreign.GuideLLMIndexBuilds.Load(), cache.FileHashReads.Load()
	if got, err := foreign.GuideLLMBenchmarks(context.Background(), path); err != nil || got != n {
		t.Fatalf("benchmarks: %d, %v", got, err)
	}
	ch := &Cache{Dir: filepath.Join(t.TempDir(), "cache")}
	for _, b := range []int{0, 1, 1234, n - 1} {
		run, err := ResolveRun(context.Background(), fmt.Sprintf("%s#%d", path, b))
		if err != nil {
			t.Fatal(err)
		}
		l, err := ch.Fill(context.Background(), run, contract.IngestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := b%5 + 1
		if l.Samples.Len() != want || l.Samples.InTokens[want-1] != int64(10*b+want-1) || l.Summary.ProblemTotal() != 0 {
			t.Fatalf("benchmark %d: %d samples, last output %d, problems %v", b, l.Samples.Len(), l.Samples.InTokens[l.Samples.Len()-1], l.Summary.Warnings())
		}
	}
	for b := range n {
		run, err := ResolveRun(context.Background(), fmt.Sprintf("%s#%d", path, b))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load(context.Background(), run, contract.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := foreign.GuideLLMIndexBuilds.Load() - builds; got != 1 {
		t.Errorf("%d walks of the report for %d benchmarks, want 1", got, n)
	}
	if got := cache.FileHashReads.Load() - hashes; got != 1 {
		t.Errorf("%d hashes of the report for 4 cached benchmarks, want 1", got)
	}
}
