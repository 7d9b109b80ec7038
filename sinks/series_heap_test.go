package sinks

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkSeriesWriterHeap writes 300 runs' series of 18 super-passes
// (5,400 rows: one 4096-row group flushed mid-way, one at Close) and
// reports the peak heap sampled meanwhile (every 100 µs). Measured with
// arrow-go's own zstd codec 30–50 MB, with a small-window encoder
// (parquetio's zstdEncoder) 10.5–12.4 MB:
//
//	go test -run '^$' -bench SeriesWriterHeap -benchtime 1x -count 3 ./sinks/
func BenchmarkSeriesWriterHeap(b *testing.B) {
	const sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	rows := make([]SeriesRow, 18)
	var peak atomic.Uint64
	done := make(chan struct{})
	defer close(done)
	go func() { // samples the heap through the flushes inside Write
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Microsecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
		}
	}()
	for b.Loop() {
		w, err := NewSeriesWriter(WriterOptions{Dir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		for r := range 300 {
			for i := range rows {
				rows[i] = SeriesRow{RunID: fmt.Sprintf("archive/run%04d/events.jsonl", r), EventsSHA256: sha, SP: i, SuperpassSize: 1000,
					TTFTP50Ns: float64(i * r), TPOTP50Ns: float64(i + r), OutTokens: int64(i * 1000)}
			}
			if err := w.Write(rows); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak.Load())/1e6, "peak-heap-MB")
}
