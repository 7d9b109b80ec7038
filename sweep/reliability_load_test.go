package sweep

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/corpora/synth"
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
// it. The groups are 512 rows in part files of 4,096, so both sweeps flush
// often and hold as little row-group metadata: with the default 4,096-row
// groups a flush's encoding buffers (several MB) caught by a GC decided
// the peak, and the longer sweep, flushing four times as often, caught
// one more often (42.6 vs 18.1 MB once under load). Peak heap and RSS are
// logged (go test -v). PlainAnalyzer: the engine's memory is the subject;
// the earliest-stop search (a pure function of one run) would multiply
// the 100,000 analyses by its prefixes.
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
		sum, err := Run(context.Background(), Options{Runs: refs, Configs: cs, Out: out, Jobs: 2, RowsPerGroup: 512, RowsPerFile: 4096,
			Load: DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}}), Analyze: PlainAnalyzer, Series: DefaultSeries, ToolVersion: "test"})
		peak := stop()
		if err != nil {
			t.Fatal(err)
		}
		if sum.Rows != n*50 || sum.Analysed != n || sum.ErrorRuns != 0 || sum.RowsByStatus["windowable"] != n*50 {
			t.Fatalf("%d runs: %s", n, sum)
		}
		keys, err := sinks.ReadKeys(context.Background(), filepath.Join(out, "rows"))
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

// TestSweepMemoryIndependentOfRuns sweeps 30 and then 300 copies of one
// synthetic run of 3,000 samples (synth clean_ramp, 12 passes of 250) ×
// 2 parameter sets with the real loader, analyzer and series, on one
// worker, and checks that the heap a sweep keeps between runs does not
// grow with the number of runs: each run's core.Run (its rollups and
// memos) is released with the run, so only the run in flight and the
// writers' buffers are in memory. Those are kept the same size in both
// sweeps: row groups of 16 rows in part files of 32, so neither the rows
// buffered for a group (512 of them grew with the runs until the first
// flush) nor a file's row-group metadata grows with the sweep. The kept
// heap is read after two GCs as each run starts loading; its median is
// compared (a flush's compression buffers are spikes that do not grow).
// Before core.Run, memos keyed
// by the rollups kept up to 256 analysed runs' rollups alive (300 copies
// of a 20k-sample run peaked at 765 MB RSS against 154 MB for 30). The
// maximum kept and the peak live heap are logged (go test -v).
func TestSweepMemoryIndependentOfRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("330 runs of 3,000 samples: skipped under -short")
	}
	dir := t.TempDir()
	spec, err := synth.PresetSpec("clean_ramp", 3)
	if err != nil {
		t.Fatal(err)
	}
	spec.Passes, spec.DatasetSize = 12, 250
	if _, err := synth.Generate(dir, spec); err != nil {
		t.Fatal(err)
	}
	cs := []core.Params{core.DefaultParams(), core.ReferenceParams()}
	median := map[int]float64{}
	for _, n := range []int{30, 300} {
		refs := make([]corpora.RunRef, n)
		for i := range refs {
			refs[i] = corpora.RunRef{Root: dir, Path: dir, Rel: fmt.Sprintf("copy%04d", i), EventsPath: filepath.Join(dir, "events.jsonl")}
		}
		load := DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}})
		var kept []float64
		measured := func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
			runtime.GC()
			runtime.GC() // twice: a sync.Pool's victim cache survives one
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			kept = append(kept, float64(ms.HeapAlloc))
			return load(ctx, ref)
		}
		out := t.TempDir()
		stop := heapPeak()
		sum, err := Run(context.Background(), Options{Runs: refs, Configs: cs, Out: out, Jobs: 1, RowsPerGroup: 16, RowsPerFile: 32,
			Load: measured, Analyze: DefaultAnalyzer, Series: DefaultSeries, ToolVersion: "test"})
		peak := stop()
		if err != nil {
			t.Fatal(err)
		}
		if sum.Rows != n*len(cs) || sum.Analysed != n || sum.ErrorRuns != 0 {
			t.Fatalf("%d runs: %s", n, sum)
		}
		slices.Sort(kept)
		median[n] = kept[len(kept)/2]
		t.Logf("%3d runs × %d configs: heap kept between runs median %.1f MB, max %.1f MB; peak live heap %.1f MB",
			n, len(cs), median[n]/1e6, kept[len(kept)-1]/1e6, float64(peak)/1e6)
	}
	if limit := median[30]*1.25 + 1<<20; median[300] > limit {
		t.Errorf("the heap kept between runs grows with the number of runs: median %.1f MB for 300 runs vs %.1f MB for 30 (limit %.1f MB)",
			median[300]/1e6, median[30]/1e6, limit/1e6)
	}
}
