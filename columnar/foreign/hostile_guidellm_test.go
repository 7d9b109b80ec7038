package foreign_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/cache"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/internal/coltest"
)

// TestGuideLLMIndexedOnce is issue 30's "a GuideLLM report of 10,000
// benchmarks re-streams and re-hashes the file per benchmark" (~35
// minutes): reading each benchmark of a 1,500-benchmark report walks the
// report once (the index) and hashes it once, and each run holds its own
// benchmark's requests (the report's construction above).
func TestGuideLLMIndexedOnce(t *testing.T) {
	const n = 1500
	path := coltest.WriteTemp(t, t.TempDir(), "report.json", coltest.MultiBenchmarkReport(n))
	builds, hashes := foreign.GuideLLMIndexBuilds.Load(), cache.FileHashReads.Load()
	if got, err := foreign.GuideLLMBenchmarks(context.Background(), path); err != nil || got != n {
		t.Fatalf("benchmarks: %d, %v", got, err)
	}
	ch := &columnar.Cache{Dir: filepath.Join(t.TempDir(), "cache")}
	for _, b := range []int{0, 1, 1234, n - 1} {
		run, err := columnar.ResolveRun(context.Background(), fmt.Sprintf("%s#%d", path, b))
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
		run, err := columnar.ResolveRun(context.Background(), fmt.Sprintf("%s#%d", path, b))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := columnar.Load(context.Background(), run, contract.IngestOptions{}); err != nil {
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
