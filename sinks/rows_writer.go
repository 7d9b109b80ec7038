package sinks

// RowWriter writes Rows into OUT/rows part files. It is not safe for
// concurrent use: one goroutine owns it.
type RowWriter struct{ w *partWriter[Row] }

// NewRowWriter returns a RowWriter over opts.Dir. Part files continue the
// shard's sequence numbers, so existing files are never overwritten.
func NewRowWriter(opts WriterOptions) (*RowWriter, error) {
	w, err := newPartWriter(opts, rowColumns(), appendRow)
	if err != nil {
		return nil, err
	}
	return &RowWriter{w}, nil
}

// Write buffers rows, flushing full row groups and rolling part files.
// After an error the writer is unusable; Close still cleans up.
func (w *RowWriter) Write(rows []Row) error { return w.w.write(rows) }

// Close finishes and publishes the open part file.
func (w *RowWriter) Close() error { return w.w.close() }

// Files lists the part files published so far.
func (w *RowWriter) Files() []string { return w.w.files }

// SeriesWriter writes SeriesRows into OUT/series part files; see RowWriter.
type SeriesWriter struct{ w *partWriter[SeriesRow] }

// NewSeriesWriter returns a SeriesWriter over opts.Dir.
func NewSeriesWriter(opts WriterOptions) (*SeriesWriter, error) {
	w, err := newPartWriter(opts, seriesColumns(), appendSeries)
	if err != nil {
		return nil, err
	}
	return &SeriesWriter{w}, nil
}

// Write buffers series rows; see RowWriter.Write.
func (w *SeriesWriter) Write(rows []SeriesRow) error { return w.w.write(rows) }

// Close finishes and publishes the open part file.
func (w *SeriesWriter) Close() error { return w.w.close() }

// Files lists the part files published so far.
func (w *SeriesWriter) Files() []string { return w.w.files }
