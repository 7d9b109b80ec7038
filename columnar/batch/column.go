package batch

import (
	"fmt"
	"slices"
	"unsafe"
)

// Column is a typed column: its values in one slice of its type (a null
// holds the zero value, so value i is at index i), utf8 values as
// offsets into one byte buffer, and the validity, kept only once a null
// is appended. Appending grows the slices in place; Reset empties them
// and keeps their capacity, so a builder reused batch after batch stops
// allocating.
type Column struct {
	typ   Type
	n     int
	valid []bool // nil until a null is appended (kept by Reset)
	nulls int

	bools []bool
	i32   []int32
	i64   []int64
	f64   []float64
	offs  []int // utf8: value i is data[offs[i]:offs[i+1]]; nil while empty
	data  []byte
}

// NewColumn is an empty column of type t.
func NewColumn(t Type) *Column {
	if t < Bool || t > String {
		panic(fmt.Sprintf("batch: column of type %d", t))
	}
	return &Column{typ: t}
}

// Type is the column's type.
func (c *Column) Type() Type { return c.typ }

// Len is the number of values, nulls included.
func (c *Column) Len() int { return c.n }

// NullN is the number of nulls.
func (c *Column) NullN() int { return c.nulls }

// IsNull reports whether value i is null.
func (c *Column) IsNull(i int) bool { return c.valid != nil && !c.valid[i] }

// IsValid reports whether value i is not null.
func (c *Column) IsValid(i int) bool { return c.valid == nil || c.valid[i] }

// Reset empties the column, keeping its memory.
func (c *Column) Reset() {
	c.n, c.nulls = 0, 0
	if c.valid != nil {
		c.valid = c.valid[:0] // kept: the next batch likely has nulls too
	}
	c.bools, c.i32, c.i64, c.f64, c.data = c.bools[:0], c.i32[:0], c.i64[:0], c.f64[:0], c.data[:0]
	if c.offs != nil {
		c.offs = c.offs[:0]
	}
}

// Reserve makes room for n more values without reallocating (a reader
// that knows its batch size calls it first).
func (c *Column) Reserve(n int) {
	switch c.typ {
	case Bool:
		c.bools = slices.Grow(c.bools, n)
	case Int32:
		c.i32 = slices.Grow(c.i32, n)
	case Int64:
		c.i64 = slices.Grow(c.i64, n)
	case Float64:
		c.f64 = slices.Grow(c.f64, n)
	case String:
		c.offs = slices.Grow(c.offs, n+1)
	}
}

// mustBe panics when the column is not of type t: appending a value of
// another type is a programming error.
func (c *Column) mustBe(t Type) {
	if c.typ != t {
		panic(fmt.Sprintf("batch: a %s value in a %s column", t, c.typ))
	}
}

// pushValid records the validity of the value being appended.
func (c *Column) pushValid(ok bool) {
	if !ok {
		if c.valid == nil {
			c.valid = make([]bool, c.n, max(c.n+1, 16))
			for i := range c.valid {
				c.valid[i] = true
			}
		}
		c.nulls++
	}
	if c.valid != nil {
		c.valid = append(c.valid, ok)
	}
	c.n++
}

// AppendNull appends a null (the type's zero value).
func (c *Column) AppendNull() {
	switch c.typ {
	case Bool:
		c.bools = append(c.bools, false)
	case Int32:
		c.i32 = append(c.i32, 0)
	case Int64:
		c.i64 = append(c.i64, 0)
	case Float64:
		c.f64 = append(c.f64, 0)
	case String:
		c.startOffsets()
		c.offs = append(c.offs, len(c.data))
	}
	c.pushValid(false)
}

// AppendBool, AppendInt32, AppendInt64 and AppendFloat64 append a value
// to a column of that type; AppendString and AppendBytes (copied) a utf8
// value.
func (c *Column) AppendBool(v bool)       { push(c, Bool, &c.bools, v) }
func (c *Column) AppendInt32(v int32)     { push(c, Int32, &c.i32, v) }
func (c *Column) AppendInt64(v int64)     { push(c, Int64, &c.i64, v) }
func (c *Column) AppendFloat64(v float64) { push(c, Float64, &c.f64, v) }
func (c *Column) AppendString(v string)   { pushText(c, v) }
func (c *Column) AppendBytes(v []byte)    { pushText(c, v) }

// push appends a valid v to dst, the values of a column of type t.
func push[T any](c *Column, t Type, dst *[]T, v T) {
	c.mustBe(t)
	*dst = append(*dst, v)
	c.pushValid(true)
}

// pushText appends a valid utf8 value.
func pushText[S string | []byte](c *Column, v S) {
	c.mustBe(String)
	c.startOffsets()
	c.data = append(c.data, v...)
	c.offs = append(c.offs, len(c.data))
	c.pushValid(true)
}

// startOffsets puts the leading 0 offset before the first utf8 value.
func (c *Column) startOffsets() {
	if len(c.offs) == 0 {
		c.offs = append(c.offs, 0)
	}
}

// Bool is value i of a bool column (false when null).
func (c *Column) Bool(i int) bool { return c.bools[i] }

// Int32 is value i of an int32 column (0 when null).
func (c *Column) Int32(i int) int32 { return c.i32[i] }

// Int64 is value i of an int64 column (0 when null).
func (c *Column) Int64(i int) int64 { return c.i64[i] }

// Float64 is value i of a float64 column (0 when null).
func (c *Column) Float64(i int) float64 { return c.f64[i] }

// Str is value i of a utf8 column ("" when null), a copy.
func (c *Column) Str(i int) string { return string(c.StrBytes(i)) }

// StrView is value i of a utf8 column as a string sharing the column's
// bytes, without a copy: appending never rewrites bytes already in, so
// it stays valid until the column is Reset (a reader that hands out
// fresh columns per batch, as parquetio's, never resets them: the
// string keeps them alive, as any Go string does).
func (c *Column) StrView(i int) string {
	b := c.StrBytes(i)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// StrBytes is value i of a utf8 column, without a copy: valid until the
// column is next appended to or reset.
func (c *Column) StrBytes(i int) []byte {
	c.mustBe(String)
	return c.data[c.offs[i]:c.offs[i+1]]
}

// Bools, Int32s, Int64s and Float64s are the values of a column of that
// type, nulls as zeros (the column's memory: read only).
func (c *Column) Bools() []bool       { return c.bools }
func (c *Column) Int32s() []int32     { return c.i32 }
func (c *Column) Int64s() []int64     { return c.i64 }
func (c *Column) Float64s() []float64 { return c.f64 }
