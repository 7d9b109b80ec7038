package columnar

// Benchmarks of the decoder on a generated log in the shape of the parity
// runs (streaming outputs as [first, rest], prompts in every ISSUED line).
// Run with:
//
//	go test -run '^$' -bench 'Decode|BufioLineSplit' -benchtime 5x ./columnar/

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// writeBenchLog writes about size bytes of parity-shaped events to path
// (benchlog.ParityShape) and returns the exact size.
func writeBenchLog(tb testing.TB, path string, size int64) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := benchlog.ParityShape(f, size)
	if err := errors.Join(err, f.Close()); err != nil {
		tb.Fatal(err)
	}
	return n
}

func benchLog(b *testing.B) (string, int64) {
	if path, size, ok := givenLog(b, "STEADYSWEEP_BENCH_PARITY"); ok {
		return path, size
	}
	path := filepath.Join(b.TempDir(), "events.jsonl")
	size := int64(200 << 20)
	if testing.Short() {
		size = 20 << 20
	}
	return path, writeBenchLog(b, path, size)
}

// BenchmarkDecode decodes the generated log without tokenization, with
// one worker and with GOMAXPROCS workers.
func BenchmarkDecode(b *testing.B) {
	path, size := benchLog(b)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.ReportAllocs()
			samples := benchDecode(b, path, size, workers, nil)
			b.ReportMetric(float64(samples), "samples")
		})
	}
}

// cpuTime returns the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecodeWords is BenchmarkDecode with the whitespace counter.
func BenchmarkDecodeWords(b *testing.B) {
	path, size := benchLog(b)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) { benchDecode(b, path, size, workers, tokenizer.Words{}) })
	}
}

// benchDecode decodes the log at path with counter (nil: none) and
// workers workers, reports MB per CPU-second and returns the samples.
// Throughput per CPU-second: on a machine shared with other load,
// wall-clock MB/s understates the parallel speedup; this shows the CPU
// cost the parallel path adds.
func benchDecode(b *testing.B, path string, size int64, workers int, counter scan.TokenCounter) int {
	b.SetBytes(size)
	var d contract.Decoded
	cpu0 := cpuTime()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := endpoints.DecodeReader(context.Background(), f, endpoints.DecodeOptions{Name: path, Workers: workers, Counter: counter}, &d); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	b.ReportMetric(float64(size)*float64(b.N)/(cpuTime()-cpu0).Seconds()/1e6, "MB/cpu-s")
	return d.Samples.Len()
}

// longLog writes the long-output log of bench/RESULTS.md section 1 and
// issue 16's second decode target: bench.LogSpec (restated here, as bench
// imports this package), a closed loop with about 1,200 words a sample of
// mixed text (escaped newlines, non-ASCII words, dashes) in one long chunk;
// 200 MB, 20 MB with -short.
func longLog(b *testing.B) (string, int64) {
	if path, size, ok := givenLog(b, "STEADYSWEEP_BENCH_LONG"); ok {
		return path, size
	}
	spec, err := synth.PresetSpec("clean_ramp", 20261129)
	if err != nil {
		b.Fatal(err)
	}
	spec.OutputScale, spec.MaxNewTokens, spec.DatasetSize = 20, 8192, 400
	size := int64(200 << 20)
	if testing.Short() {
		size = 20 << 20
	}
	path := filepath.Join(b.TempDir(), "events.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = synth.GenerateLog(w, spec, size)
	if err := errors.Join(err, w.Flush(), f.Close()); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, fi.Size()
}

// givenLog returns the log the environment variable env names, if any:
// A/B runs of two test binaries decode one file instead of generating it
// each time.
func givenLog(b *testing.B, env string) (string, int64, bool) {
	path := os.Getenv(env)
	if path == "" {
		return "", 0, false
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, fi.Size(), true
}

// BenchmarkDecodeWordsLong is BenchmarkDecodeWords, one worker, on the
// long-output log (longLog).
//
//	go test -run '^$' -bench 'DecodeWordsLong' -cpu 1 -count 5 ./columnar/
func BenchmarkDecodeWordsLong(b *testing.B) {
	path, size := longLog(b)
	benchDecode(b, path, size, 1, tokenizer.Words{})
}

// BenchmarkBufioLineSplit is the floor: splitting the same file into
// lines with bufio.Scanner and doing nothing else (with the decoders'
// MB per CPU-second beside them; STEADYSWEEP_BENCH_PARITY names the file).
func BenchmarkBufioLineSplit(b *testing.B) {
	path, size := benchLog(b)
	benchLineSplit(b, path, size)
}

func benchLineSplit(b *testing.B, path string, size int64) {
	b.SetBytes(size)
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := benchlog.SplitLines(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size)*float64(b.N)/(cpuTime()-cpu0).Seconds()/1e6, "MB/cpu-s")
}

// TestPeakRSS decodes a generated 1 GB log and logs the process's peak
// RSS. It runs only with STEADYSWEEP_RSS=1:
//
//	STEADYSWEEP_RSS=1 go test -run TestPeakRSS -v ./columnar/
func TestPeakRSS(t *testing.T) {
	if os.Getenv("STEADYSWEEP_RSS") != "1" {
		t.Skip("set STEADYSWEEP_RSS=1 to decode a generated 1 GB log")
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	size := writeBenchLog(t, path, 1<<30)
	var before syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d contract.Decoded
	start := time.Now()
	if err := endpoints.DecodeReader(context.Background(), f, endpoints.DecodeOptions{Name: path, Counter: tokenizer.Words{}}, &d); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	t.Logf("%d bytes, %d samples in %v (%.0f MB/s with word counting); peak RSS before %d MiB, after %d MiB",
		size, d.Samples.Len(), elapsed, float64(size)/elapsed.Seconds()/1e6, before.Maxrss>>10, after.Maxrss>>10)
}

// BenchmarkCacheLoad is a warm analyze's read: a cache hit for the
// generated log (benchLog; 200 MB, 20 MB with -short), entry read,
// checked and turned into columns, sidecars attached.
//
//	go test -run '^$' -bench CacheLoad -cpu 1 -count 5 ./columnar/
func BenchmarkCacheLoad(b *testing.B) {
	path, _ := benchLog(b)
	run, err := ResolveRun(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	c := &Cache{Dir: filepath.Join(b.TempDir(), "cache")}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	if _, hit, err := c.Load(context.Background(), run, opts); err != nil || hit {
		b.Fatalf("fill: hit %v, %v", hit, err)
	}
	var n int
	for b.Loop() {
		l, hit, err := c.Load(context.Background(), run, opts)
		if err != nil || !hit {
			b.Fatalf("hit %v, %v", hit, err)
		}
		n = l.Samples.Len()
	}
	b.ReportMetric(float64(n), "samples")
}
