package samplesparquet

import (
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/contract"
)

// tableFields and tableColumns are the one place that reads a
// columnar.Table's columns: its schema as batch fields (no metadata), and
// a batch column per table column, copied (an export writes each table
// once).
func tableFields() []batch.Field {
	out := make([]batch.Field, len(columnar.Schema))
	for i, f := range columnar.Schema {
		out[i] = batch.Field{Name: f.Name, Type: batchType(f.Type), Nullable: f.Nullable}
	}
	return out
}

func tableColumns(t *columnar.Table) []*batch.Column {
	out := make([]*batch.Column, len(columnar.Schema))
	for i, f := range columnar.Schema {
		src := &t.Columns[i]
		var valid []bool
		if len(src.Valid) > 0 {
			valid = src.Valid[:t.Rows]
		}
		c := batch.NewColumn(batchType(f.Type))
		switch f.Type {
		case contract.TypeInt64:
			batch.AppendValues(c, src.Int64s[:t.Rows], valid)
		case contract.TypeInt32:
			batch.AppendValues(c, src.Int32s[:t.Rows], valid)
		case contract.TypeBool:
			batch.AppendValues(c, src.Bools[:t.Rows], valid)
		case contract.TypeString:
			for r := range t.Rows {
				if src.IsValid(r) {
					c.AppendBytes(src.Bytes[src.Offsets[r]:src.Offsets[r+1]])
				} else {
					c.AppendNull()
				}
			}
		}
		out[i] = c
	}
	return out
}

// batchType is the batch type of a table column type.
func batchType(t contract.ColumnType) batch.Type {
	switch t {
	case contract.TypeInt64:
		return batch.Int64
	case contract.TypeInt32:
		return batch.Int32
	case contract.TypeBool:
		return batch.Bool
	}
	return batch.String
}
