package sinks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// DropRows rewrites the published rows part file at path without the rows
// whose key drop selects, and returns how many it dropped. The rewrite
// goes through internal/atomicfile (a temporary ".<name>.<random>.tmp" beside
// path, which the shard's next sweep removes if a crash leaves it, synced
// and renamed over path), so
// a reader sees the old file or the new one and never a mixture; a file
// left with no rows is removed. A file with nothing to drop is untouched.
//
// Resume uses it to redo error rows and rows of an older schema: the rows
// are taken out first, so an interrupted retry leaves them missing (and
// redone by the next resume), never twice.
func DropRows(ctx context.Context, path string, drop func(Key) bool) (int, error) {
	return dropWhere(ctx, path, []string{"run_id", "config_id", "events_sha256"}, partProperties(rowColumns(), WriterOptions{}.withDefaults()),
		func(k []string, v int32) bool {
			return drop(Key{RunID: k[0], ConfigID: k[1], EventsSHA256: k[2], SchemaVersion: v})
		})
}

// DropSeries is DropRows for a series part file.
func DropSeries(ctx context.Context, path string, drop func(SeriesKey) bool) (int, error) {
	return dropWhere(ctx, path, []string{"run_id", "events_sha256"}, partProperties(seriesColumns(), WriterOptions{}.withDefaults()),
		func(k []string, v int32) bool {
			return drop(SeriesKey{RunID: k[0], EventsSHA256: k[1], SchemaVersion: v})
		})
}

// dropWhere rewrites the part file at path without the rows that drop
// selects by their string key columns keyNames and their schema_version
// (see DropRows).
func dropWhere(ctx context.Context, path string, keyNames []string, props *parquetio.Options,
	drop func(key []string, version int32) bool) (dropped int, err error) {
	r, err := parquetio.Open(path)
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	schema := r.Schema()
	keyCols := make([]int, len(keyNames)+1)
	for i, name := range append(slices.Clone(keyNames), "schema_version") {
		if keyCols[i] = r.ColumnIndex(name); keyCols[i] < 0 {
			return 0, fmt.Errorf("%s: no column %q: not a steadysweep table", path, name)
		}
	}

	// Through the one atomic writer: an exclusive temporary beside path
	// (never a link planted at its name), synced, renamed over path.
	f, err := atomicfile.Create(path)
	if err != nil {
		return 0, fmt.Errorf("rewrite %s: %w", path, err)
	}
	defer f.Abort() // a no-op once committed
	// The Parquet writer leaves f open for f.Commit.
	fw, err := parquetio.NewWriter(f, schema, props)
	if err != nil {
		return 0, fmt.Errorf("rewrite %s: %w", path, err)
	}
	kept := 0
	key := make([]string, len(keyNames))
	strs := make([]*batch.Column, len(keyNames))
	err = r.Each(ctx, nil, 64<<10, func(rec *batch.Batch) error {
		cols := rec.Columns()
		ok := true
		for i := range strs {
			strs[i] = cols[keyCols[i]]
			ok = ok && strs[i].Type() == batch.String
		}
		vers := cols[keyCols[len(keyNames)]]
		if !ok || vers.Type() != batch.Int32 {
			return fmt.Errorf("%s: key columns of unexpected types", path)
		}
		// Write the kept rows as runs of consecutive rows.
		n, from := int(rec.NumRows()), 0
		flush := func(to int) error {
			if to > from {
				kept += to - from
				if err := fw.WriteBufferedRows(rec, int64(from), int64(to)); err != nil {
					return fmt.Errorf("rewrite %s: %w", path, err)
				}
			}
			return nil
		}
		for i := range n {
			for k, a := range strs {
				key[k] = a.Str(i)
			}
			if !drop(key, vers.Int32(i)) {
				continue
			}
			if err := flush(i); err != nil {
				return err
			}
			dropped++
			from = i + 1
		}
		return flush(n)
	})
	if err != nil {
		fw.Close() // releases its buffers; f is aborted
		return 0, err
	}
	if err := fw.Close(); err != nil {
		return 0, fmt.Errorf("rewrite %s: %w", path, err)
	}
	switch {
	case dropped == 0:
		return 0, nil
	case kept == 0:
		return dropped, os.Remove(path)
	}
	if err := f.Commit(); err != nil {
		return 0, fmt.Errorf("rewrite %s: %w", path, err)
	}
	return dropped, nil
}
