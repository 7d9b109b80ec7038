package sweep

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// heapPeak samples the live heap (as marked by the last GC, so not
// inflated by garbage awaiting collection) every millisecond until stop
// is called, which returns the peak in bytes.
func heapPeak() (stop func() uint64) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(done); wg.Wait(); return peak }
}

// vmHWM is the process's peak resident set (Linux), 0 if unknown.
func vmHWM() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if f := bytes.Fields(l); len(f) == 3 && string(f[0]) == "VmHWM:" {
			kb, _ := strconv.ParseUint(string(f[1]), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestSweepMemoryBounded sweeps 500 and then 2,000 small runs (the
// committed testdata/goodrun, 96 samples, decoded from disk every time
// with no cache) × 50 parameter sets with the real loader, analyzer and
// series, and checks that the peak live heap does not grow with the
// number of runs: Jobs runs in memory and the writers' row groups bound
// it. Peak heap and RSS are logged (go test -v).
func TestSweepMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 analyses: skipped under -short")
	}
	good := filepath.Join(repoRoot(t), "testdata", "goodrun")
	if _, err := os.Stat(filepath.Join(good, "events.jsonl")); err != nil {
		t.Fatalf("the committed reliability corpus is needed: %v", err)
	}
	g, err := ParseGrid([]byte("warmup_band: [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1]\n" +
		"trend_gate: [mk_hamed_rao, mann_kendall, newey_west, theil_sen, slope_vs_scatter]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := g.Configs(nil, nil)
	if err != nil || len(cs) != 50 {
		t.Fatalf("%d configs, %v", len(cs), err)
	}
	peaks := map[int]uint64{}
	for _, n := range []int{500, 2000} {
		refs := make([]corpora.RunRef, n)
		for i := range refs {
			refs[i] = corpora.RunRef{Root: good, Path: good, Rel: fmt.Sprintf("arch/run%05d", i), EventsPath: filepath.Join(good, "events.jsonl")}
		}
		out := t.TempDir()
		stop := heapPeak()
		start := time.Now()
		sum, err := Run(context.Background(), Options{Runs: refs, Configs: cs, Out: out, Jobs: 2,
			Load: DefaultLoader(LoaderOptions{}), Analyze: DefaultAnalyzer, Series: DefaultSeries, ToolVersion: "test"})
		peak := stop()
		if err != nil {
			t.Fatal(err)
		}
		if sum.Rows != n*50 || sum.Analysed != n || sum.ErrorRuns != 0 || sum.RowsByStatus["windowable"] != n*50 {
			t.Fatalf("%d runs: %s", n, sum)
		}
		keys, err := sinks.ReadKeys(context.Background(), filepath.Join(out, "rows"), nil)
		if err != nil || len(keys) != n*50 {
			t.Fatalf("%d runs: %d distinct rows on disk, want %d (%v)", n, len(keys), n*50, err)
		}
		peaks[n] = peak
		t.Logf("%5d runs × 50 configs: %s; peak live heap %.1f MB, process peak RSS so far %.1f MB, %v",
			n, sum, float64(peak)/1e6, float64(vmHWM())/1e6, time.Since(start).Round(time.Millisecond))
	}
	if limit := peaks[500]*3/2 + 8<<20; peaks[2000] > limit {
		t.Errorf("peak heap grows with the number of runs: %.1f MB for 2000 runs vs %.1f MB for 500 (limit %.1f MB)",
			float64(peaks[2000])/1e6, float64(peaks[500])/1e6, float64(limit)/1e6)
	}
}
