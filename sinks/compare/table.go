package compare

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// batch is one record batch of a part file with its columns by name, read
// leniently: a column an older schema lacks reads as null.
type batch struct {
	rec arrow.RecordBatch
	col map[string]arrow.Array
}

// readBatches calls each for every record batch of the part files.
func readBatches(ctx context.Context, files []string, mem memory.Allocator, each func(b *batch) error) error {
	for _, f := range files {
		if err := readFileBatches(ctx, f, mem, each); err != nil {
			return err // it names the file
		}
	}
	return nil
}

// readFileBatches is readBatches for one file; its errors name it.
func readFileBatches(ctx context.Context, path string, mem memory.Allocator, each func(b *batch) error) (err error) {
	r, err := parquetio.Open(path, mem)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	return r.Each(ctx, nil, 1<<16, func(rec arrow.RecordBatch) error {
		b := &batch{rec: rec, col: map[string]arrow.Array{}}
		for i, f := range rec.Schema().Fields() {
			b.col[f.Name] = rec.Column(i)
		}
		if err := each(b); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	})
}

func (b *batch) rows() int { return int(b.rec.NumRows()) }

// has reports whether the file has the column.
func (b *batch) has(name string) bool { _, ok := b.col[name]; return ok }

// str is a string cell ("" when null or absent).
func (b *batch) str(name string, i int) string {
	switch a := b.col[name].(type) {
	case *array.String:
		if a.IsValid(i) {
			return a.Value(i)
		}
	case *array.Dictionary:
		if a.IsValid(i) {
			if d, ok := a.Dictionary().(*array.String); ok {
				return d.Value(a.GetValueIndex(i))
			}
		}
	}
	return ""
}

// f64 is a float cell (NaN when null or absent).
func (b *batch) f64(name string, i int) float64 {
	if a, ok := b.col[name].(*array.Float64); ok && a.IsValid(i) {
		return a.Value(i)
	}
	return math.NaN()
}

// i64 is an integer cell (def when null or absent).
func (b *batch) i64(name string, i int, def int64) int64 {
	switch a := b.col[name].(type) {
	case *array.Int64:
		if a.IsValid(i) {
			return a.Value(i)
		}
	case *array.Int32:
		if a.IsValid(i) {
			return int64(a.Value(i))
		}
	}
	return def
}
