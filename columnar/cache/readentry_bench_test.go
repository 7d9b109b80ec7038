//go:build unix

package cache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkReadEntry reads the entry at $STEADYSWEEP_BENCH_ENTRY (a
// .cols file of a real run's cache, e.g. the 185 MB streamed log's) as a
// warm analyze does — mapped when it can be, else read; checked; columns
// laid over the bytes — and unmaps it after each read (the program never
// does; here a thousand reads would spend the mapping budget).
func BenchmarkReadEntry(b *testing.B) {
	path := os.Getenv("STEADYSWEEP_BENCH_ENTRY")
	if path == "" {
		b.Skip("STEADYSWEEP_BENCH_ENTRY names no entry file")
	}
	for _, mode := range []string{"mapped", "read"} {
		b.Run(mode, func(b *testing.B) {
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			b.ReportAllocs()
			stopCPU := cpuMetrics(b)
			defer stopCPU()
			for range b.N {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				var data []byte
				var unmap func()
				if mode == "mapped" {
					data, unmap = mapEntry(f, st.Size())
				}
				if data == nil {
					if data, err = os.ReadFile(path); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := entryOf(data, filepath.Base(path), true); err != nil {
					b.Fatal(err)
				}
				if unmap != nil {
					unmap()
				}
				f.Close()
			}
		})
	}
}

// cpuMetrics reports the process's CPU time (user + system) and minor
// page faults per op from the call to the returned function: ns/op is
// wall time, meaningless on a loaded machine.
func cpuMetrics(b *testing.B) func() {
	var r0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	return func() {
		var r1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
		cpu := (r1.Utime.Nano() + r1.Stime.Nano()) - (r0.Utime.Nano() + r0.Stime.Nano())
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(r1.Minflt-r0.Minflt)/float64(b.N), "minflt/op")
	}
}
