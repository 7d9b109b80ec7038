package sinks

import "github.com/steadysweep/steadysweep/columnar/batch"

// TableWriter writes T values into part files of one table (OUT/rows,
// OUT/series). It is not safe for concurrent use: one goroutine owns it.
type TableWriter[T any] struct{ w *partWriter[T] }

// RowWriter writes Rows into OUT/rows part files.
type RowWriter = TableWriter[Row]

// SeriesWriter writes SeriesRows into OUT/series part files.
type SeriesWriter = TableWriter[SeriesRow]

// NewRowWriter returns a RowWriter over opts.Dir. Part files continue the
// shard's sequence numbers, so existing files are never overwritten.
func NewRowWriter(opts WriterOptions) (*RowWriter, error) {
	return newTableWriter(opts, rowColumns(), appendRow)
}

// NewSeriesWriter returns a SeriesWriter over opts.Dir; see NewRowWriter.
func NewSeriesWriter(opts WriterOptions) (*SeriesWriter, error) {
	return newTableWriter(opts, seriesColumns(), appendSeries)
}

func newTableWriter[T any](opts WriterOptions, cols []column[T], app func(*batch.Batch, *T)) (*TableWriter[T], error) {
	w, err := newPartWriter(opts, cols, app)
	if err != nil {
		return nil, err
	}
	return &TableWriter[T]{w}, nil
}

// Write buffers values, flushing full row groups and rolling part files.
// After an error the writer is unusable; Close still cleans up.
func (w *TableWriter[T]) Write(vs []T) error { return w.w.write(vs) }

// Close finishes and publishes the open part file.
func (w *TableWriter[T]) Close() error { return w.w.close() }

// Files lists the part files published so far.
func (w *TableWriter[T]) Files() []string { return w.w.files }
