package sweep

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/sinks"
)

// failingSink accepts okWrites writes, then fails like a full disk.
type failingSink struct {
	okWrites int
	writes   int
	closed   bool
}

var errDiskFull = errors.New("no space left on device")

func (f *failingSink) Write(rows []sinks.Row) error {
	if f.writes++; f.writes > f.okWrites {
		return errDiskFull
	}
	return nil
}
func (f *failingSink) Close() error    { f.closed = true; return nil }
func (f *failingSink) Files() []string { return nil }

// A write failure stops the sweep: the error is returned, later runs are
// not analysed, every worker exits and the writers are closed.
func TestRunWriteFailureStops(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fs := &failingSink{okWrites: 3}
	old := newRowSink
	newRowSink = func(sinks.WriterOptions) (tableSink[sinks.Row], error) { return fs, nil }
	defer func() { newRowSink = old }()

	runs, cs := fakeArchive(t), grid3x3(t)
	o := fakeOptions(runs, cs, t.TempDir(), mem)
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
