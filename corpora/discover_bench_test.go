package corpora

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDiscoverWide discovers a tree of 50,000 empty directories
// holding one run (issue 32: within 2× of `find DIR -name events.jsonl`
// on the same tree). STEADYSWEEP_BENCH_TREE names an existing tree to
// walk instead of building one.
func BenchmarkDiscoverWide(b *testing.B) {
	dir := os.Getenv("STEADYSWEEP_BENCH_TREE")
	if dir == "" {
		dir = b.TempDir()
		for i := range 50000 {
			if err := os.MkdirAll(filepath.Join(dir, fmt.Sprintf("g%d/s%d/d%d", i%100, i/100%10, i)), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		tree(b, dir, "g1/s1/run/events.jsonl")
	}
	b.ResetTimer()
	for range b.N {
		d := DiscoverAll([]string{dir}, nil, nil)
		if len(d.Runs) != 1 {
			b.Fatalf("%d runs: %v", len(d.Runs), d.Problems)
		}
	}
}
