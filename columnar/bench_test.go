package columnar

// Benchmarks of the decoder on a generated log in the shape of the parity
// runs (streaming outputs as [first, rest], prompts in every ISSUED line).
// Run with:
//
//	go test -run '^$' -bench 'Decode|BufioLineSplit' -benchtime 5x ./columnar/

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

var benchVocab = strings.Fields("the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three")

// writeBenchLog writes about size bytes of events to path and returns
// the exact size.
func writeBenchLog(tb testing.TB, path string, size int64) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(20260901, 1))
	text := func(n int) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(benchVocab[rng.IntN(len(benchVocab))])
		}
		return sb.String()
	}
	// A pool of texts keeps generation fast; lines still differ by uuid/ts.
	prompts := make([]string, 64)
	outputs := make([]string, 64)
	for i := range prompts {
		prompts[i] = text(100 + rng.IntN(300))
		outputs[i] = text(200 + rng.IntN(600))
	}
	var written int64
	put := func(s string) { n, _ := w.WriteString(s); written += int64(n) }
	ts := int64(81234567890123)
	put(fmt.Sprintf(`{"event_type":"session.started","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts))
	put(fmt.Sprintf(`{"event_type":"session.start_performance_tracking","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts+1))
	const C = 32
	var inflight [][2]uint64
	for written < size {
		if len(inflight) < C {
			u := [2]uint64{rng.Uint64(), rng.Uint64()}
			inflight = append(inflight, u)
			ts += int64(rng.IntN(1e6))
			put(fmt.Sprintf(`{"event_type":"sample.issued","timestamp_ns":%d,"sample_uuid":"%016x%016x","conversation_id":"","turn":null,"data":["PromptData",%q,null,null,null,null,null,null]}`+"\n",
				ts, u[0], u[1], prompts[rng.IntN(len(prompts))]))
			ts += int64(rng.IntN(1e6))
			put(fmt.Sprintf(`{"event_type":"sample.recv_first","timestamp_ns":%d,"sample_uuid":"%016x%016x","conversation_id":"","turn":null,"data":null}`+"\n", ts, u[0], u[1]))
			continue
		}
		k := rng.IntN(len(inflight))
		u := inflight[k]
		inflight[k] = inflight[len(inflight)-1]
		inflight = inflight[:len(inflight)-1]
		ts += int64(rng.IntN(1e7))
		put(fmt.Sprintf(`{"event_type":"sample.complete","timestamp_ns":%d,"sample_uuid":"%016x%016x","conversation_id":"","turn":null,"data":["TextModelOutput",["The",%q],null,null],"finish_reason":"stop","worker_id":3}`+"\n",
			ts, u[0], u[1], " "+outputs[rng.IntN(len(outputs))]))
	}
	put(fmt.Sprintf(`{"event_type":"session.stop_performance_tracking","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts+1))
	put(fmt.Sprintf(`{"event_type":"session.ended","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts+2))
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return written
}

func benchLog(b *testing.B) (string, int64) {
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
			b.SetBytes(size)
			b.ReportAllocs()
			var d Decoded
			cpu0 := cpuTime()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				if err := DecodeReader(context.Background(), f, DecodeOptions{Name: path, Workers: workers}, &d); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
			b.ReportMetric(float64(d.Samples.Len()), "samples")
			// Throughput per CPU-second: on a machine shared with other
			// load, wall-clock MB/s understates the parallel speedup;
			// this shows the CPU cost the parallel path adds.
			b.ReportMetric(float64(size)*float64(b.N)/(cpuTime()-cpu0).Seconds()/1e6, "MB/cpu-s")
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
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(size)
			var d Decoded
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				if err := DecodeReader(context.Background(), f, DecodeOptions{Name: path, Workers: workers, Counter: words{}}, &d); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
	}
}

// BenchmarkBufioLineSplit is the floor: splitting the same file into
// lines with bufio.Scanner and doing nothing else.
func BenchmarkBufioLineSplit(b *testing.B) {
	path, size := benchLog(b)
	b.SetBytes(size)
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		n := 0
		for sc.Scan() {
			n += len(sc.Bytes())
		}
		if err := sc.Err(); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
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
	var d Decoded
	start := time.Now()
	if err := DecodeReader(context.Background(), f, DecodeOptions{Name: path, Counter: words{}}, &d); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	t.Logf("%d bytes, %d samples in %v (%.0f MB/s with word counting); peak RSS before %d MiB, after %d MiB",
		size, d.Samples.Len(), elapsed, float64(size)/elapsed.Seconds()/1e6, before.Maxrss>>10, after.Maxrss>>10)
}
