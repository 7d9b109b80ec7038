package sinks

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRowWriter writes 20 000 rows (a 200 runs × 100 configs sweep)
// and reports rows/s and the compressed bytes per row.
//
//	go test -run '^$' -bench '^BenchmarkRowWriter' -count 6 ./sinks | tee w.txt; benchstat w.txt
func BenchmarkRowWriter(b *testing.B) {
	rows := make([]Row, 100)
	for i := range rows {
		rows[i] = testRow(i % 20)
	}
	b.ReportAllocs()
	var size int64
	for b.Loop() {
		dir := b.TempDir()
		w, err := NewRowWriter(WriterOptions{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		for range 200 {
			if err := w.Write(rows); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		st, err := os.Stat(filepath.Join(dir, "part-0of1-000000.parquet"))
		if err != nil {
			b.Fatal(err)
		}
		size = st.Size()
	}
	n := float64(b.N) * 200 * 100
	b.ReportMetric(n/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(size)/(200*100), "B/row")
}
