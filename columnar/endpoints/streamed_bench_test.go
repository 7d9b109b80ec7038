package endpoints_test

// The decoder with word counts on the layouts the endpoints client writes
// for streamed answers (issue 32), in the package that owns it:
//
//	go test -run '^$' -bench 'StreamedShape' -cpu 1 -benchtime 5x ./columnar/endpoints/
//
// STEADYSWEEP_BENCH_STREAMED names a directory holding two-chunk.jsonl and
// chunk-per-word.jsonl to decode instead of generating them (A/B runs of
// two test binaries on the same files).

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// BenchmarkDecodeStreamedShape decodes benchlog.StreamedShape's two
// variants (answers of 100–500 words as [first, rest_joined], and as one
// string per word; 185 MB each, 18.5 MB with -short) with tokenizer.Words,
// one worker, beside the bufio line split of the same file (the floor).
// MB/cpu-s is bytes over the process's CPU time: a chunk-per-word answer
// should cost no more per byte than a two-chunk one.
func BenchmarkDecodeStreamedShape(b *testing.B) {
	size := int64(185e6)
	if testing.Short() {
		size /= 10
	}
	dir := os.Getenv("STEADYSWEEP_BENCH_STREAMED")
	for _, shape := range []struct {
		name     string
		chunking benchlog.Chunking
	}{{"two-chunk", benchlog.TwoChunks}, {"chunk-per-word", benchlog.ChunkPerWord}} {
		path := filepath.Join(dir, shape.name+".jsonl")
		if dir == "" {
			path = filepath.Join(b.TempDir(), shape.name+".jsonl")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			_, err = benchlog.StreamedShape(f, size, shape.chunking)
			if err := errors.Join(err, f.Close()); err != nil {
				b.Fatal(err)
			}
		}
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("shape="+shape.name, func(b *testing.B) {
			b.SetBytes(fi.Size())
			var d contract.Decoded
			cpu0 := cpuTime()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				err = endpoints.DecodeReader(context.Background(), f, endpoints.DecodeOptions{Name: path, Workers: 1, Counter: tokenizer.Words{}}, &d)
				if err := errors.Join(err, f.Close()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(fi.Size())*float64(b.N)/(cpuTime()-cpu0).Seconds()/1e6, "MB/cpu-s")
			b.ReportMetric(float64(d.Samples.Len()), "samples")
		})
		b.Run("shape="+shape.name+"/floor", func(b *testing.B) {
			b.SetBytes(fi.Size())
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := benchlog.SplitLines(path); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(fi.Size())*float64(b.N)/(cpuTime()-cpu0).Seconds()/1e6, "MB/cpu-s")
		})
	}
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
