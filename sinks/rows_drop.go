package sinks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/steadysweep/steadysweep/sinks/atomicfile"
)

// DropRows rewrites the published rows part file at path without the rows
// whose key drop selects, and returns how many it dropped. The rewrite
// goes through sinks/atomicfile (a temporary ".<name>.<random>.tmp" beside
// path, which the shard's next sweep removes if a crash leaves it, synced
// and renamed over path), so
// a reader sees the old file or the new one and never a mixture; a file
// left with no rows is removed. A file with nothing to drop is untouched.
//
// Resume uses it to redo error rows and rows of an older schema: the rows
// are taken out first, so an interrupted retry leaves them missing (and
// redone by the next resume), never twice.
func DropRows(ctx context.Context, path string, drop func(Key) bool, mem memory.Allocator) (int, error) {
	return dropWhere(ctx, path, []string{"run_id", "config_id", "events_sha256"}, partProperties(rowColumns, WriterOptions{}.withDefaults()),
		func(k []string, v int32) bool {
			return drop(Key{RunID: k[0], ConfigID: k[1], EventsSHA256: k[2], SchemaVersion: v})
		}, mem)
}

// DropSeries is DropRows for a series part file.
func DropSeries(ctx context.Context, path string, drop func(SeriesKey) bool, mem memory.Allocator) (int, error) {
	return dropWhere(ctx, path, []string{"run_id", "events_sha256"}, partProperties(seriesColumns, WriterOptions{}.withDefaults()),
		func(k []string, v int32) bool {
			return drop(SeriesKey{RunID: k[0], EventsSHA256: k[1], SchemaVersion: v})
		}, mem)
}

// dropWhere rewrites the part file at path without the rows that drop
// selects by their string key columns keyNames and their schema_version
// (see DropRows).
func dropWhere(ctx context.Context, path string, keyNames []string, props *parquet.WriterProperties,
	drop func(key []string, version int32) bool, mem memory.Allocator) (dropped int, err error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, pf.Close()) }()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, mem)
	if err != nil {
		return 0, err
	}
	schema, err := fr.Schema()
	if err != nil {
		return 0, err
	}
	keyCols := make([]int, len(keyNames)+1)
	for i, name := range append(slices.Clone(keyNames), "schema_version") {
		idx := schema.FieldIndices(name)
		if len(idx) != 1 {
			return 0, fmt.Errorf("%s: no column %q: not a steadysweep table", path, name)
		}
		keyCols[i] = idx[0]
	}
	rr, err := fr.GetRecordReader(ctx, nil, nil)
	if err != nil {
		return 0, err
	}
	defer rr.Release()

	// Through the one atomic writer: an exclusive temporary beside path
	// (never a link planted at its name), synced, renamed over path.
	f, err := atomicfile.Create(path)
	if err != nil {
		return 0, fmt.Errorf("rewrite %s: %w", path, err)
	}
	defer f.Abort() // a no-op once committed
	// The pqarrow writer closes an io.Closer sink; hide Close so the file
	// is committed by f.Commit.
	fw, err := pqarrow.NewFileWriter(schema, struct{ io.Writer }{f}, props,
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)))
	if err != nil {
		return 0, fmt.Errorf("rewrite %s: %w", path, err)
	}
	kept := 0
	key := make([]string, len(keyNames))
	strs := make([]*array.String, len(keyNames))
	for rr.Next() {
		rec := rr.RecordBatch()
		cols := rec.Columns()
		ok := true
		for i := range strs {
			strs[i] = asString(cols[keyCols[i]])
			ok = ok && strs[i] != nil
		}
		vers, isI32 := cols[keyCols[len(keyNames)]].(*array.Int32)
		if !ok || !isI32 {
			fw.Close()
			return 0, fmt.Errorf("%s: key columns of unexpected types", path)
		}
		// Write the kept rows as runs of consecutive rows.
		n, from := int(rec.NumRows()), 0
		flush := func(to int) error {
			if to > from {
				s := rec.NewSlice(int64(from), int64(to))
				defer s.Release()
				kept += to - from
				return fw.WriteBuffered(s)
			}
			return nil
		}
		for i := range n {
			for k, a := range strs {
				key[k] = a.Value(i)
			}
			if !drop(key, vers.Value(i)) {
				continue
			}
			if err := flush(i); err != nil {
				fw.Close()
				return 0, fmt.Errorf("rewrite %s: %w", path, err)
			}
			dropped++
			from = i + 1
		}
		if err := flush(n); err != nil {
			fw.Close()
			return 0, fmt.Errorf("rewrite %s: %w", path, err)
		}
	}
	if err := rr.Err(); err != nil {
		fw.Close()
		return 0, fmt.Errorf("read %s: %w", path, err)
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

func asString(a arrow.Array) *array.String {
	s, _ := a.(*array.String)
	return s
}
