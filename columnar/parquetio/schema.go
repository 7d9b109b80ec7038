package parquetio

import (
	"fmt"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// supported names the column types this package reads and writes.
const supported = "bool, int32, int64, float64 and utf8 columns"

// leafOf is the Parquet leaf of a field, typed as pqarrow
// types it (its getParquetType): the physical type, the logical type
// with its converted-type twin (signed INTEGER / INT_32, INT_64 for the
// integers, STRING / UTF8 for utf8, none for booleans and doubles),
// OPTIONAL when the field is nullable.
func leafOf(f batch.Field) (schemaElement, error) {
	e := schemaElement{name: f.Name, hasType: true, repetition: repRequired}
	if f.Nullable {
		e.repetition = repOptional
	}
	switch f.Type {
	case batch.Bool:
		e.typ = typeBoolean
	case batch.Int32:
		e.typ, e.logical, e.convertedType, e.hasConverted = typeInt32, logicalType{logicalInteger, 32, true}, convInt32, true
	case batch.Int64:
		e.typ, e.logical, e.convertedType, e.hasConverted = typeInt64, logicalType{logicalInteger, 64, true}, convInt64, true
	case batch.Float64:
		e.typ = typeDouble
	case batch.String:
		e.typ, e.logical, e.convertedType, e.hasConverted = typeByteArray, logicalType{kind: logicalString}, convUTF8, true
	default:
		return e, fmt.Errorf("column %q: type %s is not supported (%s)", f.Name, f.Type, supported)
	}
	return e, nil
}

// fileSchema is the Parquet schema of a batch schema: a root group
// named "schema" (pqarrow's default) and a leaf per field.
func fileSchema(sc *batch.Schema) ([]schemaElement, error) {
	out := make([]schemaElement, 0, sc.NumFields()+1)
	out = append(out, schemaElement{name: "schema", numChildren: int32(sc.NumFields())})
	for _, f := range sc.Fields() {
		e, err := leafOf(f)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// columnType is the column type a Parquet leaf reads as: the inverse of
// leafOf. A column without annotation reads at its physical type, and
// one annotated only by a converted type (older writers) as its logical
// twin, as pqarrow reads them.
func columnType(e schemaElement) (batch.Type, bool) {
	lt, conv := e.logical, int32(-1)
	if e.hasConverted {
		conv = e.convertedType
	}
	none := lt.kind == 0 && conv < 0
	intOf := func(bits int8, c int32) bool {
		return none || (lt.kind == logicalInteger && lt.bitWidth == bits && lt.signed) || (lt.kind == 0 && conv == c)
	}
	switch e.typ {
	case typeBoolean:
		return batch.Bool, none
	case typeInt32:
		return batch.Int32, intOf(32, convInt32)
	case typeInt64:
		return batch.Int64, intOf(64, convInt64)
	case typeDouble:
		return batch.Float64, none
	case typeByteArray:
		return batch.String, lt.kind == logicalString || (lt.kind == 0 && conv == convUTF8)
	}
	return 0, false
}

// describe names a leaf's types for an error: physical, then the logical
// or converted annotation.
func (e schemaElement) describe() string {
	s := typeName(e.typ)
	switch {
	case e.logical.kind == logicalInteger:
		s += fmt.Sprintf(" (logical Int(%d, signed=%v))", e.logical.bitWidth, e.logical.signed)
	case e.logical.kind != 0:
		s += fmt.Sprintf(" (logical type %d)", e.logical.kind)
	case e.hasConverted:
		s += fmt.Sprintf(" (converted type %d)", e.convertedType)
	}
	return s
}
