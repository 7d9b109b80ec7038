package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/sinks"
)

// failingSink accepts okWrites writes, then fails like a full disk.
type failingSink struct {
	okWrites  int
	failClose bool // fail at Close instead (the last flush)
	writes    int
	closed    bool
}

var errDiskFull = errors.New("no space left on device")

func (f *failingSink) Write(rows []sinks.Row) error {
	if f.writes++; f.writes > f.okWrites && !f.failClose {
		return errDiskFull
	}
	return nil
}
func (f *failingSink) Close() error {
	f.closed = true
	if f.failClose {
		return errDiskFull
	}
	return nil
}
func (f *failingSink) Files() []string { return nil }

// A write failure stops the sweep: the error is returned, later runs are
// not analysed, every worker exits and the writers are closed.
func TestRunWriteFailureStops(t *testing.T) {
	fs := &failingSink{okWrites: 3}
	old := newRowSink
	newRowSink = func(sinks.WriterOptions) (tableSink[sinks.Row], error) { return fs, nil }
	defer func() { newRowSink = old }()

	runs, cs := fakeArchive(t), grid3x3(t)
	o := fakeOptions(runs, cs, t.TempDir())
	o.Jobs = 1
	sum, err := Run(context.Background(), o)
	if !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), "write results") {
		t.Fatalf("err %v, want the write failure", err)
	}
	if sum.Analysed != 3 || sum.Analysed+sum.Abandoned != 18 || !fs.closed {
		t.Fatalf("summary %+v (closed %v): want 3 runs written, the rest abandoned", sum, fs.closed)
	}
	// The worker may finish one more run while the failure propagates,
	// but never the whole archive.
	if fs.writes > 5 {
		t.Fatalf("%d writes after a failure at write 4", fs.writes)
	}
}

// The rows table fails at its last flush while the series table is
// published: --resume then writes every row and no series twice.
func TestRunResumeAfterRowsFailureKeepsSeriesOnce(t *testing.T) {
	mem := checkedMem(t)
	runs, cs := fakeArchive(t), grid3x3(t)
	out, whole := t.TempDir(), t.TempDir()

	full, err := Run(context.Background(), fakeOptions(runs, cs, whole))
	if err != nil {
		t.Fatal(err)
	}

	old := newRowSink
	newRowSink = func(sinks.WriterOptions) (tableSink[sinks.Row], error) { return &failingSink{failClose: true}, nil }
	_, err = Run(context.Background(), fakeOptions(runs, cs, out))
	newRowSink = old
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("err %v, want the failed close", err)
	}
	if got := seriesCount(t, out, mem); got != full.SeriesRows {
		t.Fatalf("series published by the failed sweep: %d rows, want %d", got, full.SeriesRows)
	}

	o := fakeOptions(runs, cs, out)
	o.Resume = true
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 162 || sum.SeriesRows != 0 {
		t.Fatalf("resume: %+v; want every row and no series", sum)
	}
	if got := seriesCount(t, out, mem); got != full.SeriesRows {
		t.Fatalf("series after resume: %d rows, want %d", got, full.SeriesRows)
	}
	if got, want := pairs(t, readRows(t, filepath.Join(out, "rows"), mem)), pairs(t, readRows(t, filepath.Join(whole, "rows"), mem)); !slices.Equal(got, want) {
		t.Fatalf("rows after resume differ from an uninterrupted sweep")
	}

	// Rows complete, series lost (its part deleted): resume rewrites only
	// the series, analysing nothing.
	files, _ := sinks.PartFiles(filepath.Join(out, "series"))
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	sum, err = Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 0 || sum.Skipped != 18 || sum.SeriesRows != full.SeriesRows || seriesCount(t, out, mem) != full.SeriesRows {
		t.Fatalf("series-only resume: %+v", sum)
	}
}

// seriesCount counts the series rows of out, checking each run's series
// is there once (no duplicated run_id/sp).
func seriesCount(t *testing.T, out string, mem memory.Allocator) int {
	t.Helper()
	keys, err := sinks.ReadSeriesKeys(context.Background(), filepath.Join(out, "series"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	seen := map[string]bool{}
	eachRecord(t, filepath.Join(out, "series"), mem, func(_ string, rec arrow.RecordBatch) {
		id := rec.Column(rec.Schema().FieldIndices("run_id")[0]).(*array.String)
		sp := rec.Column(rec.Schema().FieldIndices("sp")[0]).(*array.Int64)
		for i := range int(rec.NumRows()) {
			k := fmt.Sprintf("%s/%d", id.Value(i), sp.Value(i))
			if seen[k] {
				t.Errorf("series row %s twice", k)
			}
			seen[k] = true
			n++
		}
	})
	if n > 0 && len(keys) != 18 {
		t.Errorf("series keys: %d runs, want 18", len(keys))
	}
	return n
}
