package htmlpage

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/sinks"
)

// Table is every row of a steadysweep table directory (OUT/rows or
// OUT/series) with its columns read by name: each row maps a column name
// to a string, int64, float64, bool or nil (null). Columns is the union
// of the part files' columns in first-seen order, so part files written
// before a column was added read with that column absent (nil).
type Table struct {
	Columns []string
	Rows    []map[string]any
}

// ReadTable reads every published part file of dir (sinks.PartFiles).
// A missing directory is an empty table.
func ReadTable(ctx context.Context, dir string, mem memory.Allocator) (*Table, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	files, err := sinks.PartFiles(dir)
	if err != nil {
		return nil, err
	}
	t := &Table{}
	seen := map[string]bool{}
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := readTableFile(ctx, path, mem, t, seen); err != nil {
			return nil, fmt.Errorf("read table: %w", err)
		}
	}
	return t, nil
}

func readTableFile(ctx context.Context, path string, mem memory.Allocator, t *Table, seen map[string]bool) (err error) {
	r, err := parquetio.Open(path, mem)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	schema := r.Schema()
	for _, f := range schema.Fields() {
		if !seen[f.Name] {
			seen[f.Name] = true
			t.Columns = append(t.Columns, f.Name)
		}
	}
	return r.Each(ctx, nil, 16<<10, func(rec arrow.RecordBatch) error {
		for i := range int(rec.NumRows()) {
			row := make(map[string]any, rec.NumCols())
			for c, a := range rec.Columns() {
				row[schema.Field(c).Name] = cellOf(a, i)
			}
			t.Rows = append(t.Rows, row)
		}
		return nil
	})
}

// cellOf is row i of a as a Go value: strings (dictionary-encoded ones
// too), integers as int64, floats as float64 (NaN as nil, as the rows
// mean it), bools; anything else as its text.
func cellOf(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.String:
		return x.Value(i)
	case *array.LargeString:
		return x.Value(i)
	case *array.Dictionary:
		return cellOf(x.Dictionary(), x.GetValueIndex(i))
	case *array.Int64:
		return x.Value(i)
	case *array.Int32:
		return int64(x.Value(i))
	case *array.Int16:
		return int64(x.Value(i))
	case *array.Int8:
		return int64(x.Value(i))
	case *array.Uint32:
		return int64(x.Value(i))
	case *array.Uint16:
		return int64(x.Value(i))
	case *array.Uint8:
		return int64(x.Value(i))
	case *array.Float64:
		if v := x.Value(i); finite(v) {
			return v
		}
		return nil
	case *array.Float32:
		if v := float64(x.Value(i)); finite(v) {
			return v
		}
		return nil
	case *array.Boolean:
		return x.Value(i)
	}
	return a.ValueStr(i)
}
