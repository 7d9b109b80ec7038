package sinks

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// checkedMem is an allocator that fails the test when any of its memory
// is still held as the test ends (after the test's defers and the
// cleanups registered later): every buffer a writer or reader made was
// released.
func checkedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// newWriter is open(opts) (NewRowWriter or NewSeriesWriter), failing the
// test on its error.
func newWriter[W any](t *testing.T, open func(WriterOptions) (W, error), opts WriterOptions) W {
	t.Helper()
	w, err := open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// writeAndClose writes rows to w in one Write and closes it, failing the
// test on either error.
func writeAndClose[T any](t *testing.T, w interface {
	Write([]T) error
	Close() error
}, rows []T) {
	t.Helper()
	if err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
