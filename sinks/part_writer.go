package sinks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// WriterOptions configure a RowWriter or SeriesWriter.
type WriterOptions struct {
	// Dir is the table directory (OUT/rows or OUT/series); created if missing.
	Dir string
	// Shard names this writer's part files: part-<Shard>-<seq>.parquet.
	// Writers that share Dir must use different Shards. Default "0of1".
	Shard string
	// RowsPerGroup is the row-group size (default 4096): rows are
	// buffered in a column batch and flushed to the file every
	// RowsPerGroup rows.
	RowsPerGroup int
	// RowsPerFile closes the part file after this many rows (default 1<<20).
	RowsPerFile int
	// MaxFileAge closes the part file, at the next Write, once it has been
	// open this long (default 2 min), so a hard kill loses little.
	MaxFileAge time.Duration
}

func (o WriterOptions) withDefaults() WriterOptions {
	if o.Shard == "" {
		o.Shard = "0of1"
	}
	if o.RowsPerGroup <= 0 {
		o.RowsPerGroup = 4096
	}
	if o.RowsPerFile <= 0 {
		o.RowsPerFile = 1 << 20
	}
	if o.MaxFileAge <= 0 {
		o.MaxFileAge = 2 * time.Minute
	}
	return o
}

// partWriter writes values of T into rolling Parquet part files.
type partWriter[T any] struct {
	opts   WriterOptions
	cols   []column[T]
	append func(*batch.Batch, *T)
	props  *parquetio.Options
	seq    int

	rb      *batch.Batch // the buffered rows, reset after each row group
	pending int          // rows in rb

	f        *atomicfile.File
	fw       *parquetio.Writer
	final    string
	opened   time.Time
	fileRows int

	files []string
	err   error // sticky: after a failed write the writer only cleans up
}

func newPartWriter[T any](opts WriterOptions, cols []column[T], app func(*batch.Batch, *T)) (*partWriter[T], error) {
	opts = opts.withDefaults()
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create table directory: %w", err)
	}
	seq, err := nextSeq(opts.Dir, opts.Shard)
	if err != nil {
		return nil, err
	}
	return &partWriter[T]{
		opts:   opts,
		cols:   cols,
		append: app,
		props:  partProperties(cols, opts),
		seq:    seq,
		rb:     batch.New(schemaOf(cols)),
	}, nil
}

// partProperties are the Parquet writer options of a table's part
// files: zstd, dictionaries only where the layout asks for them.
func partProperties[T any](cols []column[T], opts WriterOptions) *parquetio.Options {
	o := &parquetio.Options{
		Compression:     parquetio.Zstd,
		MaxRowGroupRows: int64(opts.RowsPerGroup),
		CreatedBy:       "steadysweep",
	}
	for _, c := range cols {
		if c.dict {
			o.Dictionary = append(o.Dictionary, c.name)
		}
	}
	return o
}

// nextSeq returns one more than the highest sequence number used by shard
// in dir (temporaries included), so a resumed sweep never overwrites.
func nextSeq(dir, shard string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("list table directory: %w", err)
	}
	next := 0
	for _, e := range entries {
		m, ok := parsePartName(e.Name())
		if !ok || m.shard != shard {
			continue
		}
		if n, err := strconv.Atoi(m.seq); err == nil && n >= next {
			next = n + 1
		}
	}
	return next, nil
}

func (w *partWriter[T]) write(vs []T) error {
	if w.err != nil {
		return w.err
	}
	for i := range vs {
		w.append(w.rb, &vs[i])
		w.pending++
		if w.pending >= w.opts.RowsPerGroup {
			if err := w.flush(); err != nil {
				return w.fail(err)
			}
		}
	}
	if w.f != nil && (w.fileRows+w.pending >= w.opts.RowsPerFile || time.Since(w.opened) >= w.opts.MaxFileAge) {
		if err := w.closeFile(); err != nil {
			return w.fail(err)
		}
	}
	return nil
}

// flush writes the buffered rows as one row group, opening a part file
// when none is open.
func (w *partWriter[T]) flush() error {
	if w.pending == 0 {
		return nil
	}
	if w.f == nil {
		if err := w.openFile(); err != nil {
			return err
		}
	}
	err := w.fw.Write(w.rb)
	w.rb.Reset()
	if err != nil {
		return fmt.Errorf("write row group to %s: %w", w.final, err)
	}
	w.fileRows += w.pending
	w.pending = 0
	return nil
}

func (w *partWriter[T]) openFile() error {
	base := fmt.Sprintf("part-%s-%06d.parquet", w.opts.Shard, w.seq)
	w.seq++
	w.final = filepath.Join(w.opts.Dir, base)
	f, err := atomicfile.Create(w.final)
	if err != nil {
		return fmt.Errorf("create part file: %w", err)
	}
	// The Parquet writer leaves f open for Commit to sync and rename.
	fw, err := parquetio.NewWriter(f, w.rb.Schema(), w.props)
	if err != nil {
		return errors.Join(fmt.Errorf("start parquet writer for %s: %w", w.final, err), f.Abort())
	}
	w.f, w.fw, w.opened, w.fileRows = f, fw, time.Now(), 0
	return nil
}

// closeFile flushes the builders, finishes the part file and renames it
// into place.
func (w *partWriter[T]) closeFile() error {
	if err := w.flush(); err != nil {
		return err
	}
	if w.f == nil {
		return nil
	}
	f, fw := w.f, w.fw
	w.f, w.fw = nil, nil
	if err := fw.Close(); err != nil {
		return errors.Join(fmt.Errorf("finish %s: %w", w.final, err), f.Abort())
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("publish part file: %w", err)
	}
	w.files = append(w.files, w.final)
	return nil
}

// fail records err and discards the open temporary file.
func (w *partWriter[T]) fail(err error) error {
	w.err = err
	if w.f != nil {
		w.fw.Close()
		w.f.Abort()
		w.f, w.fw = nil, nil
	}
	return err
}

// close finishes the open part file (if any) and drops the buffer.
// It is safe to call more than once.
func (w *partWriter[T]) close() error {
	if w.rb == nil {
		return w.err
	}
	var err error
	if w.err == nil {
		if err = w.closeFile(); err != nil {
			err = w.fail(err)
		}
	}
	w.rb = nil
	if err != nil {
		return err
	}
	return w.err
}
