package sinks

import (
	"math"
	"strconv"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// column describes one flat column of a table of T: its name, type,
// whether Parquet should dictionary-encode it, how a value of T is
// appended to its column and how a stored cell is decoded back into a T
// (the typed reader, rows_reader.go), so one list says both ways.
type column[T any] struct {
	name string
	// src names the Go field the value comes from (documentation, and
	// the test that every core.Outcome field has a column).
	src    string
	typ    batch.Type
	dict   bool
	append func(b *batch.Column, v *T)
	// decode sets v's field from cell i of a; a nil a (a column the part
	// file lacks: an older schema) and a null cell set the field's null
	// value, the one append writes as null.
	decode func(a *batch.Column, i int, v *T) error
	// cell is v's value as the table holds it (Cells): nil for null.
	cell func(v *T) any
	// unit and doc document the column (ColumnDoc); set by documented.
	unit, doc string
}

// integer are the Go integer types a column stores as int64.
type integer interface{ ~int | ~int32 | ~int64 }

func strCol[T any, S ~string](name, src string, dict bool, field func(*T) *S) column[T] {
	return strFn(name, src, dict, func(v *T) string { return string(*field(v)) },
		func(v *T, s string) error { *field(v) = S(s); return nil })
}

// strFn is a string column whose value is computed (a list as its text):
// set parses it back; a null or absent cell sets "".
func strFn[T any](name, src string, dict bool, get func(*T) string, set func(*T, string) error) column[T] {
	return column[T]{name: name, src: src, typ: batch.String, dict: dict,
		append: func(b *batch.Column, v *T) { b.AppendString(ValidText(get(v))) }, // names are data (textescape.go)
		cell:   func(v *T) any { return get(v) },
		decode: func(a *batch.Column, i int, v *T) error {
			s, _, err := cellString(a, i)
			if err != nil {
				return err
			}
			return set(v, s)
		}}
}

func i64Col[T any, I integer](name, src string, field func(*T) *I) column[T] {
	return optI64Col(name, src, func(v *T) (int64, bool) { return int64(*field(v)), true },
		func(v *T, x int64, _ bool) { *field(v) = I(x) })
}

// optI64Col is an integer column whose value may be absent (ok false:
// null); set receives a null or absent cell as (0, false).
func optI64Col[T any](name, src string, get func(*T) (int64, bool), set func(v *T, x int64, ok bool)) column[T] {
	return optCol(name, src, batch.Int64, get, set, (*batch.Column).AppendInt64, cellInt)
}

// optCol is a column of X whose value may be absent (ok false: null):
// appendTo appends a present value to the column, read decodes
// cell i (valid false for null or absent) and set receives what it read.
func optCol[T, X any](name, src string, typ batch.Type, get func(*T) (X, bool), set func(v *T, x X, ok bool),
	appendTo func(*batch.Column, X), read func(*batch.Column, int) (X, bool, error)) column[T] {
	return column[T]{name: name, src: src, typ: typ,
		append: func(b *batch.Column, v *T) {
			if x, ok := get(v); ok {
				appendTo(b, x)
			} else {
				b.AppendNull()
			}
		},
		cell: func(v *T) any {
			if x, ok := get(v); ok {
				return x
			}
			return nil
		},
		decode: func(a *batch.Column, i int, v *T) error {
			x, ok, err := read(a, i)
			set(v, x, ok)
			return err
		}}
}

// spCol is a super-pass index column: the sentinel −1 (none) is null.
func spCol[T any](name, src string, field func(*T) *int) column[T] {
	return optI64Col(name, src, func(v *T) (int64, bool) { x := *field(v); return int64(x), x >= 0 },
		func(v *T, x int64, ok bool) {
			*field(v) = int(x)
			if !ok {
				*field(v) = -1
			}
		})
}

// i32Col is an int32 column (the schema version); set receives a null or
// absent cell as 0.
func i32Col[T any](name, src string, get func(*T) int32, set func(*T, int32)) column[T] {
	return column[T]{name: name, src: src, typ: batch.Int32,
		append: func(b *batch.Column, v *T) { b.AppendInt32(get(v)) },
		cell:   func(v *T) any { return int64(get(v)) },
		decode: func(a *batch.Column, i int, v *T) error {
			x, _, err := cellInt(a, i)
			set(v, int32(x))
			return err
		}}
}

// f64Col is a float column: NaN and ±Inf are null, and null reads as NaN.
func f64Col[T any](name, src string, field func(*T) *float64) column[T] {
	return f64Fn(name, src, func(v *T) float64 { return *field(v) }, func(v *T, x float64) { *field(v) = x })
}

// f64Fn is a float column whose value is computed; set receives a null or
// absent cell as NaN.
func f64Fn[T any](name, src string, get func(*T) float64, set func(*T, float64)) column[T] {
	return optCol(name, src, batch.Float64,
		func(v *T) (float64, bool) { x := get(v); return x, !math.IsNaN(x) && !math.IsInf(x, 0) },
		func(v *T, x float64, _ bool) { set(v, x) },
		(*batch.Column).AppendFloat64,
		func(a *batch.Column, i int) (float64, bool, error) {
			x, err := cellFloat(a, i)
			return x, !math.IsNaN(x), err
		})
}

func boolCol[T any](name, src string, field func(*T) *bool) column[T] {
	return optBoolCol(name, src, func(v *T) (bool, bool) { return *field(v), true },
		func(v *T, x, _ bool) { *field(v) = x })
}

// optBoolCol is a boolean column whose value may be absent (ok false:
// null); set receives a null or absent cell as (false, false).
func optBoolCol[T any](name, src string, get func(*T) (bool, bool), set func(v *T, x, ok bool)) column[T] {
	return optCol(name, src, batch.Bool, get, set, (*batch.Column).AppendBool, cellBool)
}

// schemaOf returns the schema of cols, every field nullable.
func schemaOf[T any](cols []column[T]) *batch.Schema {
	fields := make([]batch.Field, len(cols))
	for i, c := range cols {
		fields[i] = batch.Field{Name: c.name, Type: c.typ, Nullable: true}
		if c.unit != "" {
			fields[i].Metadata = batch.NewMetadata([]string{"unit"}, []string{c.unit})
		}
	}
	md := batch.NewMetadata([]string{"steadysweep.schema_version"}, []string{strconv.Itoa(int(SchemaVersion))})
	return batch.NewSchema(fields, &md)
}
