package sinks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// publishedPart matches finished part files (temporaries excluded).
var publishedPart = regexp.MustCompile(`^part-.+-\d+\.parquet$`)

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
		if e.Type().IsRegular() && publishedPart.MatchString(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReadKeys returns the resume keys of every row in the published part
// files of dir (OUT/rows), reading only the four key columns.
func ReadKeys(ctx context.Context, dir string, mem memory.Allocator) (map[Key]struct{}, error) {
	keys := map[Key]struct{}{}
	err := readColumns(ctx, dir, mem, []string{"run_id", "config_id", "events_sha256", "schema_version"}, func(cols []arrow.Array, i int) {
		keys[Key{RunID: str(cols[0], i), ConfigID: str(cols[1], i), EventsSHA256: str(cols[2], i), SchemaVersion: cols[3].(*array.Int32).Value(i)}] = struct{}{}
	})
	return keys, err
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
func ReadRowStates(ctx context.Context, dir string, mem memory.Allocator) (map[Key]RowState, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	files, err := PartFiles(dir)
	if err != nil {
		return nil, err
	}
	states := map[Key]RowState{}
	for _, path := range files {
		err := readColumnsFile(ctx, path, mem, []string{"run_id", "config_id", "events_sha256", "status", "schema_version"}, func(cols []arrow.Array, i int) {
			k := Key{RunID: str(cols[0], i), ConfigID: str(cols[1], i), EventsSHA256: str(cols[2], i), SchemaVersion: cols[4].(*array.Int32).Value(i)}
			states[k] = RowState{Status: str(cols[3], i), File: path}
		})
		if err != nil {
			return nil, fmt.Errorf("read resume keys: %w", err)
		}
	}
	return states, nil
}

// ReadSeriesKeys returns the runs (by run id and events hash) that have
// series rows in the published part files of dir (OUT/series).
func ReadSeriesKeys(ctx context.Context, dir string, mem memory.Allocator) (map[SeriesKey]struct{}, error) {
	keys := map[SeriesKey]struct{}{}
	err := readColumns(ctx, dir, mem, []string{"run_id", "events_sha256", "schema_version"}, func(cols []arrow.Array, i int) {
		keys[SeriesKey{RunID: str(cols[0], i), EventsSHA256: str(cols[1], i), SchemaVersion: cols[2].(*array.Int32).Value(i)}] = struct{}{}
	})
	return keys, err
}

// ReadSeriesFiles returns the series keys in the published part files of
// dir (OUT/series) and the file holding each (the last when several do).
func ReadSeriesFiles(ctx context.Context, dir string, mem memory.Allocator) (map[SeriesKey]string, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	files, err := PartFiles(dir)
	if err != nil {
		return nil, err
	}
	keys := map[SeriesKey]string{}
	for _, path := range files {
		err := readColumnsFile(ctx, path, mem, []string{"run_id", "events_sha256", "schema_version"}, func(cols []arrow.Array, i int) {
			keys[SeriesKey{RunID: str(cols[0], i), EventsSHA256: str(cols[1], i), SchemaVersion: cols[2].(*array.Int32).Value(i)}] = path
		})
		if err != nil {
			return nil, fmt.Errorf("read resume keys: %w", err)
		}
	}
	return keys, nil
}

func str(a arrow.Array, i int) string { return a.(*array.String).Value(i) }

// readColumns calls row for every row of the named columns (strings, the
// last int32) of every published part file of dir.
func readColumns(ctx context.Context, dir string, mem memory.Allocator, names []string, row func(cols []arrow.Array, i int)) error {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	files, err := PartFiles(dir)
	if err != nil {
		return err
	}
	for _, path := range files {
		if err := readColumnsFile(ctx, path, mem, names, row); err != nil {
			return fmt.Errorf("read resume keys: %w", err)
		}
	}
	return nil
}

// readColumnsFile is readColumns for one file; its errors name it.
func readColumnsFile(ctx context.Context, path string, mem memory.Allocator, names []string, row func(cols []arrow.Array, i int)) (err error) {
	r, err := parquetio.Open(path, mem)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	idx := make([]int, len(names))
	for i, n := range names {
		if idx[i] = r.ColumnIndex(n); idx[i] < 0 {
			return fmt.Errorf("%s: no column %q: not a steadysweep table of this schema", path, n)
		}
	}
	return r.Each(ctx, idx, 64<<10, func(rec arrow.RecordBatch) error {
		cols := rec.Columns()
		for c, a := range cols {
			_, isStr := a.(*array.String)
			_, isI32 := a.(*array.Int32)
			if (c < len(cols)-1 && !isStr) || (c == len(cols)-1 && !isI32) {
				return fmt.Errorf("%s: key column %s has type %s", path, names[c], a.DataType())
			}
		}
		for i := range int(rec.NumRows()) {
			row(cols, i)
		}
		return nil
	})
}
