package batch

import (
	"slices"
	"testing"
)

// TestColumnAppend: values and nulls read back as appended, in every
// type; a null holds the type's zero value; Reset empties a column and
// the next rows read back without the old ones' validity.
func TestColumnAppend(t *testing.T) {
	s := NewColumn(String)
	s.AppendString("a")
	s.AppendNull()
	s.AppendBytes([]byte("ünï"))
	s.AppendString("")
	if s.Len() != 4 || s.NullN() != 1 || !s.IsNull(1) || s.IsNull(0) || s.IsNull(3) {
		t.Fatalf("len %d nulls %d", s.Len(), s.NullN())
	}
	if got := []string{s.Str(0), s.Str(1), s.Str(2), s.Str(3)}; !slices.Equal(got, []string{"a", "", "ünï", ""}) {
		t.Errorf("strings %q", got)
	}
	view := s.StrView(2)
	s.Reserve(100)
	for range 100 {
		s.AppendString("more bytes that reallocate the buffer")
	}
	if view != "ünï" || s.StrView(0) != "a" || s.StrView(1) != "" {
		t.Errorf("StrView %q after appends, want %q", view, "ünï")
	}
	s.Reset()
	s.AppendString("z")
	if s.Len() != 1 || s.NullN() != 0 || s.IsNull(0) || s.Str(0) != "z" {
		t.Errorf("after Reset: len %d nulls %d %q", s.Len(), s.NullN(), s.Str(0))
	}

	i := NewColumn(Int64)
	i.AppendInt64(7)
	i.AppendNull()
	i.AppendInt64(-3)
	if !slices.Equal(i.Int64s(), []int64{7, 0, -3}) || !i.IsNull(1) || i.NullN() != 1 {
		t.Errorf("int64s %v nulls %d", i.Int64s(), i.NullN())
	}
	b := NewColumn(Bool)
	b.AppendNull()
	b.AppendBool(true)
	if !slices.Equal(b.Bools(), []bool{false, true}) || !b.IsNull(0) || b.IsNull(1) {
		t.Errorf("bools %v", b.Bools())
	}
	f := NewColumn(Float64)
	f.AppendFloat64(0.5)
	i32 := NewColumn(Int32)
	i32.AppendInt32(4)
	if f.Float64(0) != 0.5 || i32.Int32(0) != 4 || f.NullN() != 0 || f.IsNull(0) {
		t.Error("float64 or int32 value lost")
	}
}

// TestAppendValues: the bulk appender (the Parquet reader's) masks null
// rows to zero and keeps earlier validity; AppendColumn concatenates.
func TestAppendValues(t *testing.T) {
	c := NewColumn(Int32)
	AppendValues(c, []int32{1, 2}, nil)
	AppendValues(c, []int32{3, 99, 5}, []bool{true, false, true})
	AppendValues(c, []int32{6}, nil)
	if !slices.Equal(c.Int32s(), []int32{1, 2, 3, 0, 5, 6}) || c.NullN() != 1 || !c.IsNull(3) || c.IsNull(5) || c.Len() != 6 {
		t.Fatalf("int32s %v nulls %d", c.Int32s(), c.NullN())
	}
	s := NewColumn(String)
	AppendValues(s, [][]byte{[]byte("x"), []byte("junk"), []byte("yz")}, []bool{true, false, true})
	all := NewColumn(String)
	all.AppendString("first")
	all.AppendColumn(s)
	all.AppendColumn(s)
	want := []string{"first", "x", "", "yz", "x", "", "yz"}
	for k, w := range want {
		if all.Str(k) != w || all.IsNull(k) != (k == 2 || k == 5) {
			t.Errorf("row %d: %q null=%v, want %q", k, all.Str(k), all.IsNull(k), w)
		}
	}
}

// TestNewBatch refuses columns that do not fit the schema.
func TestNewBatch(t *testing.T) {
	sc := NewSchema([]Field{{Name: "a", Type: Int64}, {Name: "b", Type: String, Nullable: true}}, nil)
	a, b := NewColumn(Int64), NewColumn(String)
	a.AppendInt64(1)
	if _, err := NewBatch(sc, []*Column{a, b}); err == nil {
		t.Error("columns of 1 and 0 rows made a batch")
	}
	b.AppendNull()
	bt, err := NewBatch(sc, []*Column{a, b})
	if err != nil || bt.NumRows() != 1 || bt.NumCols() != 2 {
		t.Fatalf("%v", err)
	}
	if _, err := NewBatch(sc, []*Column{b, a}); err == nil {
		t.Error("columns of the wrong types made a batch")
	}
	if sc.FieldIndex("b") != 1 || sc.FieldIndex("c") != -1 {
		t.Error("FieldIndex")
	}
}
