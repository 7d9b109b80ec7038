package batch

// AppendValues appends len(valid) rows to a column of T's type: vals
// holds one value per row (a null row's value is ignored; valid nil:
// len(vals) rows, none null). T is the column type's Go type, []byte for
// utf8. It is the bulk appender of decoders.
func AppendValues[T bool | int32 | int64 | float64 | []byte](c *Column, vals []T, valid []bool) {
	n := len(vals)
	if valid != nil {
		n = len(valid)
	}
	switch vs := any(vals[:n]).(type) {
	case []bool:
		appendMasked(c, Bool, &c.bools, vs, valid)
	case []int32:
		appendMasked(c, Int32, &c.i32, vs, valid)
	case []int64:
		appendMasked(c, Int64, &c.i64, vs, valid)
	case []float64:
		appendMasked(c, Float64, &c.f64, vs, valid)
	case [][]byte:
		c.mustBe(String)
		c.startOffsets()
		for i, v := range vs {
			if valid == nil || valid[i] {
				c.data = append(c.data, v...)
			}
			c.offs = append(c.offs, len(c.data))
		}
	}
	if valid == nil {
		if c.valid != nil {
			for range n {
				c.valid = append(c.valid, true)
			}
		}
		c.n += n
		return
	}
	for _, ok := range valid {
		c.pushValid(ok)
	}
}

// appendMasked appends vals to dst, the values of a column of type t,
// with the zero value where valid is false.
func appendMasked[T comparable](c *Column, t Type, dst *[]T, vals []T, valid []bool) {
	c.mustBe(t)
	if valid == nil {
		*dst = append(*dst, vals...)
		return
	}
	var z T
	for i, v := range vals {
		if !valid[i] {
			v = z
		}
		*dst = append(*dst, v)
	}
}

// AppendColumn appends every row of o, a column of c's type.
func (c *Column) AppendColumn(o *Column) {
	c.mustBe(o.typ)
	switch c.typ {
	case Bool:
		c.bools = append(c.bools, o.bools...)
	case Int32:
		c.i32 = append(c.i32, o.i32...)
	case Int64:
		c.i64 = append(c.i64, o.i64...)
	case Float64:
		c.f64 = append(c.f64, o.f64...)
	case String:
		c.startOffsets()
		base := len(c.data)
		c.data = append(c.data, o.data...)
		for i := 1; i < len(o.offs); i++ {
			c.offs = append(c.offs, base+o.offs[i])
		}
	}
	for i := range o.n {
		c.pushValid(o.IsValid(i))
	}
}
