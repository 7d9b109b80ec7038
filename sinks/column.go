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
	// unit and doc document the column (ColumnDoc); set by documented.
	unit, doc string
}

func strCol[T any](name, src string, dict bool, get func(*T) string) column[T] {
	return column[T]{name: name, src: src, typ: arrow.BinaryTypes.String, dict: dict, append: func(b array.Builder, v *T) {
		b.(*array.StringBuilder).Append(ValidText(get(v))) // names are data (textescape.go)
	}}
}

func i64Col[T any](name, src string, get func(*T) int64) column[T] {
	return column[T]{name: name, src: src, typ: arrow.PrimitiveTypes.Int64, append: func(b array.Builder, v *T) {
		b.(*array.Int64Builder).Append(get(v))
	}}
}

// optI64Col is an integer column whose value may be absent (ok false:
// null).
func optI64Col[T any](name, src string, get func(*T) (int64, bool)) column[T] {
	return column[T]{name: name, src: src, typ: arrow.PrimitiveTypes.Int64, append: func(b array.Builder, v *T) {
		if x, ok := get(v); ok {
			b.(*array.Int64Builder).Append(x)
		} else {
			b.AppendNull()
		}
	}}
}

// spCol is a super-pass index column: the sentinel −1 (none) is null.
func spCol[T any](name, src string, get func(*T) int) column[T] {
	return optI64Col(name, src, func(v *T) (int64, bool) { x := get(v); return int64(x), x >= 0 })
}

func i32Col[T any](name, src string, get func(*T) int32) column[T] {
	return column[T]{name: name, src: src, typ: arrow.PrimitiveTypes.Int32, append: func(b array.Builder, v *T) {
		b.(*array.Int32Builder).Append(get(v))
	}}
}

// f64Col is a float column: NaN and ±Inf are null.
func f64Col[T any](name, src string, get func(*T) float64) column[T] {
	return column[T]{name: name, src: src, typ: arrow.PrimitiveTypes.Float64, append: func(b array.Builder, v *T) {
		if x := get(v); !math.IsNaN(x) && !math.IsInf(x, 0) {
			b.(*array.Float64Builder).Append(x)
		} else {
			b.AppendNull()
		}
	}}
}

func boolCol[T any](name, src string, get func(*T) bool) column[T] {
	return column[T]{name: name, src: src, typ: arrow.FixedWidthTypes.Boolean, append: func(b array.Builder, v *T) {
		b.(*array.BooleanBuilder).Append(get(v))
	}}
}

// optBoolCol is a boolean column whose value may be absent (ok false:
// null).
func optBoolCol[T any](name, src string, get func(*T) (bool, bool)) column[T] {
	return column[T]{name: name, src: src, typ: arrow.FixedWidthTypes.Boolean, append: func(b array.Builder, v *T) {
		if x, ok := get(v); ok {
			b.(*array.BooleanBuilder).Append(x)
		} else {
			b.AppendNull()
		}
	}}
}

// schemaOf returns the Arrow schema of cols, every field nullable.
func schemaOf[T any](cols []column[T]) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.typ, Nullable: true}
		if c.unit != "" {
			fields[i].Metadata = arrow.NewMetadata([]string{"unit"}, []string{c.unit})
		}
	}
	md := arrow.NewMetadata([]string{"steadysweep.schema_version"}, []string{strconv.Itoa(int(SchemaVersion))})
	return arrow.NewSchema(fields, &md)
}
