package sinks

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// column describes one flat column of a table of T: its name, Arrow type,
// whether Parquet should dictionary-encode it, and how a value of T is
// appended to its builder.
type column[T any] struct {
	name string
	// src names the Go field the value comes from (documentation, and
	// the test that every core.Outcome field has a column).
	src    string
	typ    arrow.DataType
	dict   bool
	append func(b array.Builder, v *T)
}

func strCol[T any](name, src string, dict bool, get func(*T) string) column[T] {
	return column[T]{name, src, arrow.BinaryTypes.String, dict, func(b array.Builder, v *T) {
		b.(*array.StringBuilder).Append(get(v))
	}}
}

func i64Col[T any](name, src string, get func(*T) int64) column[T] {
	return column[T]{name, src, arrow.PrimitiveTypes.Int64, false, func(b array.Builder, v *T) {
		b.(*array.Int64Builder).Append(get(v))
	}}
}

// spCol is a super-pass index column: the sentinel −1 (none) is null.
func spCol[T any](name, src string, get func(*T) int) column[T] {
	return column[T]{name, src, arrow.PrimitiveTypes.Int64, false, func(b array.Builder, v *T) {
		if x := get(v); x >= 0 {
			b.(*array.Int64Builder).Append(int64(x))
		} else {
			b.AppendNull()
		}
	}}
}

func i32Col[T any](name, src string, get func(*T) int32) column[T] {
	return column[T]{name, src, arrow.PrimitiveTypes.Int32, false, func(b array.Builder, v *T) {
		b.(*array.Int32Builder).Append(get(v))
	}}
}

// f64Col is a float column: NaN and ±Inf are null.
func f64Col[T any](name, src string, get func(*T) float64) column[T] {
	return column[T]{name, src, arrow.PrimitiveTypes.Float64, false, func(b array.Builder, v *T) {
		if x := get(v); !math.IsNaN(x) && !math.IsInf(x, 0) {
			b.(*array.Float64Builder).Append(x)
		} else {
			b.AppendNull()
		}
	}}
}

func boolCol[T any](name, src string, get func(*T) bool) column[T] {
	return column[T]{name, src, arrow.FixedWidthTypes.Boolean, false, func(b array.Builder, v *T) {
		b.(*array.BooleanBuilder).Append(get(v))
	}}
}

// schemaOf returns the Arrow schema of cols, every field nullable.
func schemaOf[T any](cols []column[T]) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.typ, Nullable: true}
	}
	md := arrow.NewMetadata([]string{"steadysweep.schema_version"}, []string{strconv.Itoa(int(SchemaVersion))})
	return arrow.NewSchema(fields, &md)
}
