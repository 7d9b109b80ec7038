// Package arrowbatch converts between batch and arrow-go's arrays, for
// tests only: they build records with arrow-go and read our files with
// its independent Parquet reader (pqarrow) to cross-check our codec. No
// package linked into the binary may import it (archtest checks that the
// binary links no arrow-go).
package arrowbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// Type is the batch type of an Arrow type (false: none).
func Type(t arrow.DataType) (batch.Type, bool) {
	switch t.ID() {
	case arrow.BOOL:
		return batch.Bool, true
	case arrow.INT32:
		return batch.Int32, true
	case arrow.INT64:
		return batch.Int64, true
	case arrow.FLOAT64:
		return batch.Float64, true
	case arrow.STRING:
		return batch.String, true
	}
	return 0, false
}

// ArrowType is the Arrow type of a batch type.
func ArrowType(t batch.Type) arrow.DataType {
	switch t {
	case batch.Bool:
		return arrow.FixedWidthTypes.Boolean
	case batch.Int32:
		return arrow.PrimitiveTypes.Int32
	case batch.Int64:
		return arrow.PrimitiveTypes.Int64
	case batch.Float64:
		return arrow.PrimitiveTypes.Float64
	case batch.String:
		return arrow.BinaryTypes.String
	}
	panic(fmt.Sprintf("arrowbatch: type %d", t))
}

func metaFrom(m arrow.Metadata) batch.Metadata {
	return batch.NewMetadata(append([]string(nil), m.Keys()...), append([]string(nil), m.Values()...))
}

func metaTo(m batch.Metadata) arrow.Metadata { return arrow.NewMetadata(m.Keys(), m.Values()) }

// Schema is the batch schema of an Arrow schema of supported types; it
// panics on another type (a test's mistake).
func Schema(sc *arrow.Schema) *batch.Schema {
	fields := make([]batch.Field, sc.NumFields())
	for i, f := range sc.Fields() {
		t, ok := Type(f.Type)
		if !ok {
			panic(fmt.Sprintf("arrowbatch: field %s", f))
		}
		fields[i] = batch.Field{Name: f.Name, Type: t, Nullable: f.Nullable, Metadata: metaFrom(f.Metadata)}
	}
	md := metaFrom(sc.Metadata())
	return batch.NewSchema(fields, &md)
}

// ArrowSchema is the Arrow schema of a batch schema.
func ArrowSchema(sc *batch.Schema) *arrow.Schema {
	fields := make([]arrow.Field, sc.NumFields())
	for i, f := range sc.Fields() {
		fields[i] = arrow.Field{Name: f.Name, Type: ArrowType(f.Type), Nullable: f.Nullable, Metadata: metaTo(f.Metadata)}
	}
	md := metaTo(sc.Metadata())
	return arrow.NewSchema(fields, &md)
}

// Batch copies an Arrow record batch of supported types.
func Batch(rec arrow.RecordBatch) *batch.Batch {
	out := batch.New(Schema(rec.Schema()))
	for i, a := range rec.Columns() {
		col := out.Column(i)
		for j := range a.Len() {
			if a.IsNull(j) {
				col.AppendNull()
				continue
			}
			switch x := a.(type) {
			case *array.Boolean:
				col.AppendBool(x.Value(j))
			case *array.Int32:
				col.AppendInt32(x.Value(j))
			case *array.Int64:
				col.AppendInt64(x.Value(j))
			case *array.Float64:
				col.AppendFloat64(x.Value(j))
			case *array.String:
				col.AppendString(x.Value(j))
			}
		}
	}
	return out
}

// Record copies a batch into an Arrow record batch (mem nil: the
// default allocator), which the caller releases.
func Record(b *batch.Batch, mem memory.Allocator) arrow.RecordBatch {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	sc := ArrowSchema(b.Schema())
	rb := array.NewRecordBuilder(mem, sc)
	defer rb.Release()
	for i, col := range b.Columns() {
		var valid []bool
		if col.NullN() > 0 {
			valid = make([]bool, col.Len())
			for j := range valid {
				valid[j] = col.IsValid(j)
			}
		}
		switch x := rb.Field(i).(type) {
		case *array.BooleanBuilder:
			x.AppendValues(col.Bools(), valid)
		case *array.Int32Builder:
			x.AppendValues(col.Int32s(), valid)
		case *array.Int64Builder:
			x.AppendValues(col.Int64s(), valid)
		case *array.Float64Builder:
			x.AppendValues(col.Float64s(), valid)
		case *array.StringBuilder:
			strs := make([]string, col.Len())
			for j := range strs {
				strs[j] = col.Str(j)
			}
			x.AppendValues(strs, valid)
		}
	}
	return rb.NewRecordBatch()
}
