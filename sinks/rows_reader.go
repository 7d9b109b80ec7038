package sinks

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// PartFiles lists the published part files of a table directory, sorted.
// A missing directory has none.
func PartFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && isPublishedPart(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// Stored is the part file a row was read from and the columns it has.
// Rows of one file share it.
type Stored struct {
	// File is the part file's path.
	File string
	has  map[string]bool
}

// Has reports whether the file has the column name; a nil Stored (a row
// not read back) has every column.
func (s *Stored) Has(name string) bool { return s == nil || s.has[name] }

// ReadOptions configure ReadRows and ReadSeries.
type ReadOptions struct {
	// Columns, when set, are the only columns read; the other fields keep
	// their null value. Resume reads the keys alone this way.
	Columns []string
}

// rowKeyColumns and seriesKeyColumns are the columns every part file has
// (a file without them is not a steadysweep table).
var (
	rowKeyColumns    = []string{"run_id", "config_id", "events_sha256", "schema_version"}
	seriesKeyColumns = []string{"run_id", "events_sha256", "schema_version"}
)

// ReadRows yields every row of the published part files of dir (OUT/rows),
// decoded into the Row the writer wrote: the one reader of the rows table.
// Part files of an older schema version read too: a column they lack
// reads as its field's null value (NaN, −1 for a super-pass index, 0,
// "", false) and Row.Has says which. A missing directory has no rows. The
// first error (it names the file, row and column) ends the sequence.
func ReadRows(ctx context.Context, dir string, o ReadOptions) iter.Seq2[Row, error] {
	return readTable(ctx, dir, o, rowColumns(), rowKeyColumns, func(r *Row, s *Stored) { r.Stored = s })
}

// ReadSeries yields every row of the published part files of dir
// (OUT/series) as ReadRows does.
func ReadSeries(ctx context.Context, dir string, o ReadOptions) iter.Seq2[SeriesRow, error] {
	return readTable(ctx, dir, o, seriesColumns(), seriesKeyColumns, func(r *SeriesRow, s *Stored) { r.Stored = s })
}

// errStop ends a file's batches when the consumer stops ranging.
var errStop = errors.New("stop")

func readTable[T any](ctx context.Context, dir string, o ReadOptions, cols []column[T], keys []string,
	stored func(*T, *Stored)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		files, err := PartFiles(dir)
		if err != nil {
			var zero T
			yield(zero, err)
			return
		}
		for _, path := range files {
			err := readTableFile(ctx, path, o, cols, keys, stored, yield)
			if errors.Is(err, errStop) {
				return
			}
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
		}
	}
}

// readTableFile yields the rows of one part file; its errors name it.
func readTableFile[T any](ctx context.Context, path string, o ReadOptions, cols []column[T], keys []string,
	stored func(*T, *Stored), yield func(T, error) bool) (err error) {
	r, err := parquetio.Open(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	st := &Stored{File: path, has: map[string]bool{}}
	for _, f := range r.Schema().Fields() {
		st.has[f.Name] = true
	}
	for _, k := range keys {
		if !st.has[k] {
			return fmt.Errorf("%s: no column %q: not a steadysweep table", path, k)
		}
	}
	// read[j] is the column of cols the file's j-th read column decodes.
	var idx, read []int
	for c := range cols {
		if o.Columns != nil && !slices.Contains(o.Columns, cols[c].name) {
			continue
		}
		if j := r.ColumnIndex(cols[c].name); j >= 0 {
			idx, read = append(idx, j), append(read, c)
		}
	}
	n := 0
	arrays := make([]*batch.Column, len(cols))
	return r.Each(ctx, idx, 16<<10, func(rec *batch.Batch) error {
		clear(arrays)
		for j, c := range read {
			arrays[c] = rec.Column(j)
		}
		for i := range int(rec.NumRows()) {
			var v T
			for c := range cols {
				if err := cols[c].decode(arrays[c], i, &v); err != nil {
					return fmt.Errorf("%s: row %d: column %s: %w", path, n, cols[c].name, err)
				}
			}
			stored(&v, st)
			n++
			if !yield(v, nil) {
				return errStop
			}
		}
		return nil
	})
}

// cellString is cell i of a string column; valid is false for a null or
// absent (nil) cell.
func cellString(a *batch.Column, i int) (s string, valid bool, err error) {
	if a == nil || a.IsNull(i) {
		return "", false, nil
	}
	if a.Type() == batch.String {
		return a.StrView(i), true, nil // the batch is never reused
	}
	return "", false, fmt.Errorf("a %s column, not text", a.Type())
}

// cellInt is cell i of an integer column; valid is false for a null or
// absent cell.
func cellInt(a *batch.Column, i int) (x int64, valid bool, err error) {
	if a == nil || a.IsNull(i) {
		return 0, false, nil
	}
	switch a.Type() {
	case batch.Int64:
		return a.Int64(i), true, nil
	case batch.Int32:
		return int64(a.Int32(i)), true, nil
	}
	return 0, false, fmt.Errorf("a %s column, not an integer", a.Type())
}

// cellBool is cell i of a boolean column; valid is false for a null or
// absent cell.
func cellBool(a *batch.Column, i int) (x, valid bool, err error) {
	if a == nil || a.IsNull(i) {
		return false, false, nil
	}
	if a.Type() == batch.Bool {
		return a.Bool(i), true, nil
	}
	return false, false, fmt.Errorf("a %s column, not boolean", a.Type())
}

// cellFloat is cell i of a float column, NaN for a null or absent cell.
func cellFloat(a *batch.Column, i int) (float64, error) {
	if a == nil || a.IsNull(i) {
		return math.NaN(), nil
	}
	if a.Type() == batch.Float64 {
		return a.Float64(i), nil
	}
	return math.NaN(), fmt.Errorf("a %s column, not a float", a.Type())
}

// resumeColumns are the columns resume reads of OUT/rows.
var resumeColumns = []string{"run_id", "config_id", "events_sha256", "status", "schema_version"}

// ReadKeys returns the resume keys of every row in the published part
// files of dir (OUT/rows), reading only the key columns.
func ReadKeys(ctx context.Context, dir string) (map[Key]struct{}, error) {
	keys := map[Key]struct{}{}
	for r, err := range ReadRows(ctx, dir, ReadOptions{Columns: resumeColumns}) {
		if err != nil {
			return nil, fmt.Errorf("read resume keys: %w", err)
		}
		keys[r.storedKey()] = struct{}{}
	}
	return keys, nil
}

// storedKey is the resume key of a row read back: its own schema version.
func (r *Row) storedKey() Key {
	return Key{RunID: r.RunID, ConfigID: r.ConfigID, EventsSHA256: r.Provenance.EventsSHA256, SchemaVersion: r.SchemaVersion}
}

// RowState is what resume needs to know of a published row besides its
// key: its status and the part file holding it.
type RowState struct {
	Status string
	File   string
}

// ReadRowStates returns the key, status and part file of every row in the
// published part files of dir (OUT/rows), reading only those columns. A
// key held twice keeps its last file.
func ReadRowStates(ctx context.Context, dir string) (map[Key]RowState, error) {
	states := map[Key]RowState{}
	for r, err := range ReadRows(ctx, dir, ReadOptions{Columns: resumeColumns}) {
		if err != nil {
			return nil, fmt.Errorf("read resume keys: %w", err)
		}
		states[r.storedKey()] = RowState{Status: string(r.Outcome.Status), File: r.Stored.File}
	}
	return states, nil
}

// ReadSeriesKeys returns the runs (by run id and events hash) that have
// series rows in the published part files of dir (OUT/series).
func ReadSeriesKeys(ctx context.Context, dir string) (map[SeriesKey]struct{}, error) {
	files, err := ReadSeriesFiles(ctx, dir)
	if err != nil {
		return nil, err
	}
	keys := make(map[SeriesKey]struct{}, len(files))
	for k := range files {
		keys[k] = struct{}{}
	}
	return keys, nil
}

// ReadSeriesFiles returns the series keys in the published part files of
// dir (OUT/series) and the file holding each (the last when several do).
func ReadSeriesFiles(ctx context.Context, dir string) (map[SeriesKey]string, error) {
	keys := map[SeriesKey]string{}
	for s, err := range ReadSeries(ctx, dir, ReadOptions{Columns: seriesKeyColumns}) {
		if err != nil {
			return nil, fmt.Errorf("read resume keys: %w", err)
		}
		keys[SeriesKey{RunID: s.RunID, EventsSHA256: s.EventsSHA256, SchemaVersion: s.SchemaVersion}] = s.Stored.File
	}
	return keys, nil
}
