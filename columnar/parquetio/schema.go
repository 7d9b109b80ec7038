package parquetio

import (
	"bytes"
	"encoding/base64"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// arrowSchemaKey is the file key-value metadata entry holding the Arrow
// schema the file was written from, as every Arrow implementation's
// Parquet bridge stores and reads it.
const arrowSchemaKey = "ARROW:schema"

// parquetNode is the Parquet leaf of a flat Arrow field, typed exactly as
// pqarrow types it (its getParquetType): the physical type, the logical
// type (signed Int for the integers, String for utf8, none for booleans
// and doubles), OPTIONAL when the field is nullable, no field id.
func parquetNode(f arrow.Field) (schema.Node, error) {
	rep := parquet.Repetitions.Required
	if f.Nullable {
		rep = parquet.Repetitions.Optional
	}
	var (
		phys    parquet.Type
		logical schema.LogicalType
	)
	switch f.Type.ID() {
	case arrow.BOOL:
		phys, logical = parquet.Types.Boolean, schema.NoLogicalType{}
	case arrow.INT32:
		phys, logical = parquet.Types.Int32, schema.NewIntLogicalType(32, true)
	case arrow.INT64:
		phys, logical = parquet.Types.Int64, schema.NewIntLogicalType(64, true)
	case arrow.FLOAT64:
		phys, logical = parquet.Types.Double, schema.NoLogicalType{}
	case arrow.STRING:
		phys, logical = parquet.Types.ByteArray, schema.StringLogicalType{}
	default:
		return nil, fmt.Errorf("column %q: Arrow type %s is not supported (%s)", f.Name, f.Type, supported)
	}
	return schema.NewPrimitiveNodeLogical(f.Name, rep, logical, phys, -1, -1)
}

// supported names the column types this package reads and writes.
const supported = "bool, int32, int64, float64 and utf8 columns"

// parquetSchema is the Parquet schema of a flat Arrow schema: a root group
// (named and repeated as props say) of one leaf per field.
func parquetSchema(sc *arrow.Schema, props *parquet.WriterProperties) (*schema.GroupNode, error) {
	nodes := make(schema.FieldList, 0, sc.NumFields())
	for _, f := range sc.Fields() {
		n, err := parquetNode(f)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	return schema.NewGroupNode(props.RootName(), props.RootRepetition(), nodes, -1)
}

// arrowType is the Arrow type a Parquet leaf reads as: the inverse of
// parquetNode (an integer column without a logical type reads at its
// physical width, as pqarrow reads it).
func arrowType(col *schema.Column) (arrow.DataType, bool) {
	logical := col.LogicalType()
	none := logical == nil || logical.Equals(schema.NoLogicalType{})
	switch col.PhysicalType() {
	case parquet.Types.Boolean:
		return arrow.FixedWidthTypes.Boolean, none
	case parquet.Types.Int32:
		return arrow.PrimitiveTypes.Int32, none || logical.Equals(schema.NewIntLogicalType(32, true))
	case parquet.Types.Int64:
		return arrow.PrimitiveTypes.Int64, none || logical.Equals(schema.NewIntLogicalType(64, true))
	case parquet.Types.Double:
		return arrow.PrimitiveTypes.Float64, none
	case parquet.Types.ByteArray:
		return arrow.BinaryTypes.String, logical != nil && logical.Equals(schema.StringLogicalType{})
	}
	return nil, false
}

// encodeSchema is the ARROW:schema value of sc: the Arrow IPC stream of
// the schema (a schema message and the end-of-stream marker, no batches),
// base64 — what pqarrow's WithStoreSchema writes through
// flight.SerializeSchema, which is this IPC writer.
func encodeSchema(sc *arrow.Schema, mem memory.Allocator) (string, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(sc), ipc.WithAllocator(mem))
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("serialise the Arrow schema: %w", err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// decodeSchema reads an ARROW:schema value. Like pqarrow, it accepts the
// padded and the unpadded base64 alphabet (other writers use either).
func decodeSchema(s string, mem memory.Allocator) (*arrow.Schema, error) {
	var (
		raw []byte
		err error
	)
	if len(s)%4 == 0 {
		raw, err = base64.StdEncoding.DecodeString(s)
	}
	if len(raw) == 0 || err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return nil, err
		}
	}
	r, err := ipc.NewReader(bytes.NewReader(raw), ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.Schema(), nil
}
