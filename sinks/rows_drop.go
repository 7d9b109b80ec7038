package sinks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
// Resume uses it to redo error rows: the rows are taken out first, so an
// interrupted retry leaves them missing (and redone by the next resume),
// never twice.
func DropRows(ctx context.Context, path string, drop func(Key) bool, mem memory.Allocator) (dropped int, err error) {
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
	keyCols := make([]int, 4)
	for i, name := range []string{"run_id", "config_id", "events_sha256", "schema_version"} {
		idx := schema.FieldIndices(name)
		if len(idx) != 1 {
			return 0, fmt.Errorf("%s: no column %q: not a steadysweep rows table", path, name)
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
	fw, err := pqarrow.NewFileWriter(schema, struct{ io.Writer }{f},
		partProperties(rowColumns, WriterOptions{}.withDefaults()),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)))
	if err != nil {
		return 0, fmt.Errorf("rewrite %s: %w", path, err)
	}
	kept := 0
	for rr.Next() {
		rec := rr.RecordBatch()
		cols := rec.Columns()
		runs, cfgs, shas := asString(cols[keyCols[0]]), asString(cols[keyCols[1]]), asString(cols[keyCols[2]])
		vers, ok := cols[keyCols[3]].(*array.Int32)
		if runs == nil || cfgs == nil || shas == nil || !ok {
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
			if !drop(Key{RunID: runs.Value(i), ConfigID: cfgs.Value(i), EventsSHA256: shas.Value(i), SchemaVersion: vers.Value(i)}) {
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
