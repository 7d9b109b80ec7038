package bench

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/sinks"
)

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := Median(tt.in); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}

func TestConfigs(t *testing.T) {
	for _, n := range []int{10, 100, 1000} {
		cs, err := Configs(n)
		if err != nil {
			t.Fatalf("Configs(%d): %v", n, err)
		}
		ids := map[string]bool{}
		for _, p := range cs {
			ids[sinks.ConfigID(p)] = true
		}
		if len(cs) != n || len(ids) != n {
			t.Errorf("Configs(%d): %d configs, %d distinct ids", n, len(cs), len(ids))
		}
	}
	if _, err := Configs(15); err == nil {
		t.Error("Configs(15) did not fail")
	}
}

// TestGenerateRun checks that a generated run has the size asked for and
// sidecars that give its dataset size, as the benchmarks assume.
func TestGenerateRun(t *testing.T) {
	dir := t.TempDir()
	const target = 4e6
	n, err := GenerateRun(dir, LogSpec(), target)
	if err != nil {
		t.Fatal(err)
	}
	if n < target*0.85 || n > target*1.15 {
		t.Errorf("events.jsonl is %d bytes, want about %d", n, int64(target))
	}
	for _, gone := range []string{"truth.json", "sample_idx_map.json"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s left beside the big log", gone)
		}
	}
	run, err := columnar.ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if run.Info.DatasetSize != LogSpec().DatasetSize {
		t.Errorf("dataset size %d, want %d", run.Info.DatasetSize, LogSpec().DatasetSize)
	}
}
