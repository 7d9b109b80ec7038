package samplesparquet

// A bridge, until columnar/parquetio writes columns of its own (issue 32):
// contract.Table holds plain Go slices, the Parquet writer takes Arrow
// arrays, so the table's columns are copied into Arrow arrays here. It is
// the only place a Table meets Arrow; remove it (arrowFields,
// arrowColumns) with parquetio's Arrow.

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/contract"
)

// arrowFields is columnar.Schema as Arrow fields.
func arrowFields() []arrow.Field {
	fs := make([]arrow.Field, len(columnar.Schema))
	for i, f := range columnar.Schema {
		var t arrow.DataType
		switch f.Type {
		case contract.TypeInt64:
			t = arrow.PrimitiveTypes.Int64
		case contract.TypeInt32:
			t = arrow.PrimitiveTypes.Int32
		case contract.TypeBool:
			t = arrow.FixedWidthTypes.Boolean
		case contract.TypeString:
			t = arrow.BinaryTypes.String
		default:
			panic(fmt.Sprintf("samplesparquet: column %s of type %d", f.Name, f.Type))
		}
		fs[i] = arrow.Field{Name: f.Name, Type: t, Nullable: f.Nullable}
	}
	return fs
}

// arrowColumns copies t's columns into Arrow arrays (Release them).
func arrowColumns(t *columnar.Table, mem memory.Allocator) []arrow.Array {
	out := make([]arrow.Array, len(t.Columns))
	for i := range t.Columns {
		c := &t.Columns[i]
		var valid []bool
		if c.NullN() > 0 {
			valid = c.Valid
		}
		switch columnar.Schema[i].Type {
		case contract.TypeInt64:
			b := array.NewInt64Builder(mem)
			b.AppendValues(c.Int64s, valid)
			out[i] = b.NewArray()
			b.Release()
		case contract.TypeInt32:
			b := array.NewInt32Builder(mem)
			b.AppendValues(c.Int32s, valid)
			out[i] = b.NewArray()
			b.Release()
		case contract.TypeBool:
			b := array.NewBooleanBuilder(mem)
			b.AppendValues(c.Bools, valid)
			out[i] = b.NewArray()
			b.Release()
		case contract.TypeString:
			b := array.NewStringBuilder(mem)
			b.Reserve(t.Rows)
			b.ReserveData(len(c.Bytes))
			for r := range t.Rows {
				if c.IsValid(r) {
					b.BinaryBuilder.Append(c.Bytes[c.Offsets[r]:c.Offsets[r+1]])
				} else {
					b.AppendNull()
				}
			}
			out[i] = b.NewArray()
			b.Release()
		}
	}
	return out
}
