package parquetio

import (
	"encoding/binary"
	"fmt"
)

// The file footer: FileMetaData and what it holds, as parquet.thrift
// (apache/parquet-format 010f49b8) numbers their fields. Only the fields
// a flat table needs are kept; the decoder skips the rest (column
// indexes, bloom filters, encryption, size statistics).

// Physical types (parquet.thrift enum Type).
const (
	typeBoolean   = 0
	typeInt32     = 1
	typeInt64     = 2
	typeInt96     = 3
	typeFloat     = 4
	typeDouble    = 5
	typeByteArray = 6
	typeFixed     = 7
)

var typeNames = [...]string{"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}

func typeName(t int32) string {
	if t >= 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type %d", t)
}

// Repetitions (enum FieldRepetitionType).
const (
	repRequired = 0
	repOptional = 1
	repRepeated = 2
)

// Converted types we map (enum ConvertedType): UTF8 = 0, INT_32 = 17,
// INT_64 = 18.
const (
	convUTF8  = 0
	convInt32 = 17
	convInt64 = 18
)

// Logical type union members (union LogicalType): STRING = 1,
// INTEGER = 10 (IntType: 1 bitWidth i8, 2 isSigned bool).
const (
	logicalString  = 1
	logicalInteger = 10
)

// logicalType is the member of a SchemaElement's LogicalType union that
// is set (0: none), with IntType's parameters.
type logicalType struct {
	kind     int16
	bitWidth int8
	signed   bool
}

// schemaElement is parquet.thrift's SchemaElement: 1 type, 2 type_length,
// 3 repetition_type, 4 name, 5 num_children, 6 converted_type,
// 10 logicalType (7–9 scale, precision, field_id are skipped).
type schemaElement struct {
	typ           int32
	hasType       bool
	repetition    int32
	name          string
	numChildren   int32
	convertedType int32
	hasConverted  bool
	logical       logicalType
}

// keyValue is parquet.thrift's KeyValue: 1 key, 2 value (optional).
type keyValue struct {
	key, value string
}

// statistics is parquet.thrift's Statistics: 1 max, 2 min (the deprecated
// signed-order pair), 3 null_count, 5 max_value, 6 min_value.
type statistics struct {
	hasNulls        bool
	nullCount       int64
	minValue        []byte
	maxValue        []byte
	hasMin, hasMax  bool
	legacyMin       []byte
	legacyMax       []byte
	hasLegacyMinMax bool
}

// columnMeta is parquet.thrift's ColumnMetaData: 1 type, 2 encodings,
// 3 path_in_schema, 4 codec, 5 num_values, 6 total_uncompressed_size,
// 7 total_compressed_size, 9 data_page_offset, 11 dictionary_page_offset,
// 12 statistics.
type columnMeta struct {
	typ              int32
	encodings        []int32
	path             []string
	codec            int32
	numValues        int64
	uncompressedSize int64
	compressedSize   int64
	dataPageOffset   int64
	dictPageOffset   int64
	hasDictOffset    bool
	stats            statistics
	hasStats         bool
}

// columnChunk is parquet.thrift's ColumnChunk: 1 file_path, 2 file_offset,
// 3 meta_data.
type columnChunk struct {
	filePath   string
	fileOffset int64
	meta       columnMeta
	hasMeta    bool
}

// rowGroup is parquet.thrift's RowGroup: 1 columns, 2 total_byte_size,
// 3 num_rows, 5 file_offset, 6 total_compressed_size, 7 ordinal.
type rowGroup struct {
	columns             []columnChunk
	totalByteSize       int64
	numRows             int64
	fileOffset          int64
	totalCompressedSize int64
	ordinal             int16
}

// fileMeta is parquet.thrift's FileMetaData: 1 version, 2 schema,
// 3 num_rows, 4 row_groups, 5 key_value_metadata, 6 created_by,
// 7 column_orders (written as TYPE_ORDER for every column; not read).
type fileMeta struct {
	version   int32
	schema    []schemaElement
	numRows   int64
	rowGroups []rowGroup
	kv        []keyValue
	createdBy string
}

// decodeFileMeta reads a FileMetaData from the footer bytes.
func decodeFileMeta(b []byte) (*fileMeta, error) {
	d := &thriftDecoder{b: b}
	m := &fileMeta{}
	err := d.structFields(func(id int16, typ byte) (bool, error) {
		switch id {
		case 1:
			return true, d.i32Field("version", typ, &m.version)
		case 2:
			return true, d.listField("schema", typ, tStruct, func(int) error {
				var e schemaElement
				err := d.structFields(e.field(d))
				m.schema = append(m.schema, e)
				return err
			})
		case 3:
			return true, d.i64Field("num_rows", typ, &m.numRows)
		case 4:
			return true, d.listField("row_groups", typ, tStruct, func(int) error {
				var g rowGroup
				err := d.structFields(g.field(d))
				m.rowGroups = append(m.rowGroups, g)
				return err
			})
		case 5:
			return true, d.listField("key_value_metadata", typ, tStruct, func(int) error {
				var kv keyValue
				err := d.structFields(func(id int16, typ byte) (bool, error) {
					switch id {
					case 1:
						return true, d.strField("key", typ, &kv.key)
					case 2:
						return true, d.strField("value", typ, &kv.value)
					}
					return false, nil
				})
				m.kv = append(m.kv, kv)
				return err
			})
		case 6:
			return true, d.strField("created_by", typ, &m.createdBy)
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (e *schemaElement) field(d *thriftDecoder) func(int16, byte) (bool, error) {
	return func(id int16, typ byte) (bool, error) {
		switch id {
		case 1:
			e.hasType = true
			return true, d.i32Field("type", typ, &e.typ)
		case 3:
			return true, d.i32Field("repetition_type", typ, &e.repetition)
		case 4:
			return true, d.strField("name", typ, &e.name)
		case 5:
			return true, d.i32Field("num_children", typ, &e.numChildren)
		case 6:
			e.hasConverted = true
			return true, d.i32Field("converted_type", typ, &e.convertedType)
		case 10:
			return true, d.structField("logicalType", typ, func(id int16, typ byte) (bool, error) {
				e.logical.kind = id
				if id != logicalInteger {
					return false, nil // the member's (empty or unused) struct
				}
				return true, d.structField("INTEGER", typ, func(id int16, typ byte) (bool, error) {
					switch id {
					case 1:
						if err := expect("bitWidth", typ, tByte); err != nil {
							return true, err
						}
						w, err := d.byte()
						e.logical.bitWidth = int8(w)
						return true, err
					case 2:
						return true, d.boolField("isSigned", typ, &e.logical.signed)
					}
					return false, nil
				})
			})
		}
		return false, nil
	}
}

func (g *rowGroup) field(d *thriftDecoder) func(int16, byte) (bool, error) {
	return func(id int16, typ byte) (bool, error) {
		switch id {
		case 1:
			return true, d.listField("columns", typ, tStruct, func(int) error {
				var c columnChunk
				err := d.structFields(c.field(d))
				g.columns = append(g.columns, c)
				return err
			})
		case 2:
			return true, d.i64Field("total_byte_size", typ, &g.totalByteSize)
		case 3:
			return true, d.i64Field("num_rows", typ, &g.numRows)
		}
		return false, nil
	}
}

func (c *columnChunk) field(d *thriftDecoder) func(int16, byte) (bool, error) {
	return func(id int16, typ byte) (bool, error) {
		switch id {
		case 1:
			return true, d.strField("file_path", typ, &c.filePath)
		case 2:
			return true, d.i64Field("file_offset", typ, &c.fileOffset)
		case 3:
			c.hasMeta = true
			return true, d.structField("meta_data", typ, c.meta.field(d))
		}
		return false, nil
	}
}

func (m *columnMeta) field(d *thriftDecoder) func(int16, byte) (bool, error) {
	return func(id int16, typ byte) (bool, error) {
		switch id {
		case 1:
			return true, d.i32Field("type", typ, &m.typ)
		case 2:
			return true, d.listField("encodings", typ, tI32, func(int) error {
				v, err := d.i32()
				m.encodings = append(m.encodings, v)
				return err
			})
		case 3:
			return true, d.listField("path_in_schema", typ, tBinary, func(int) error {
				s, err := d.str()
				m.path = append(m.path, s)
				return err
			})
		case 4:
			return true, d.i32Field("codec", typ, &m.codec)
		case 5:
			return true, d.i64Field("num_values", typ, &m.numValues)
		case 6:
			return true, d.i64Field("total_uncompressed_size", typ, &m.uncompressedSize)
		case 7:
			return true, d.i64Field("total_compressed_size", typ, &m.compressedSize)
		case 9:
			return true, d.i64Field("data_page_offset", typ, &m.dataPageOffset)
		case 11:
			m.hasDictOffset = true
			return true, d.i64Field("dictionary_page_offset", typ, &m.dictPageOffset)
		case 12:
			m.hasStats = true
			return true, d.structField("statistics", typ, m.stats.field(d))
		}
		return false, nil
	}
}

func (s *statistics) field(d *thriftDecoder) func(int16, byte) (bool, error) {
	return func(id int16, typ byte) (bool, error) {
		switch id {
		case 1:
			s.hasLegacyMinMax = true
			return true, d.binField("max", typ, &s.legacyMax)
		case 2:
			s.hasLegacyMinMax = true
			return true, d.binField("min", typ, &s.legacyMin)
		case 3:
			s.hasNulls = true
			return true, d.i64Field("null_count", typ, &s.nullCount)
		case 5:
			s.hasMax = true
			return true, d.binField("max_value", typ, &s.maxValue)
		case 6:
			s.hasMin = true
			return true, d.binField("min_value", typ, &s.minValue)
		}
		return false, nil
	}
}

// encodeFileMeta appends m to b in the compact protocol.
func encodeFileMeta(b []byte, m *fileMeta) []byte {
	e := &thriftEncoder{b: b}
	e.begin()
	e.i32(1, m.version)
	e.list(2, tStruct, len(m.schema))
	for _, s := range m.schema {
		e.begin()
		if s.hasType {
			e.i32(1, s.typ)
		}
		if s.hasType || s.repetition != repRequired {
			e.i32(3, s.repetition) // the root has none
		}
		e.str(4, s.name)
		if !s.hasType {
			e.i32(5, s.numChildren)
		}
		if s.hasConverted {
			e.i32(6, s.convertedType)
		}
		if s.logical.kind != 0 {
			e.structField(10)
			e.structField(s.logical.kind)
			if s.logical.kind == logicalInteger {
				e.i8(1, s.logical.bitWidth)
				e.bool(2, s.logical.signed)
			}
			e.end()
			e.end()
		}
		e.end()
	}
	e.i64(3, m.numRows)
	e.list(4, tStruct, len(m.rowGroups))
	for i, g := range m.rowGroups {
		e.begin()
		e.list(1, tStruct, len(g.columns))
		for _, c := range g.columns {
			e.begin()
			e.i64(2, c.fileOffset)
			e.structField(3)
			encodeColumnMeta(e, &c.meta)
			e.end()
			e.end()
		}
		e.i64(2, g.totalByteSize)
		e.i64(3, g.numRows)
		e.i64(5, g.fileOffset)
		e.i64(6, g.totalCompressedSize)
		e.field(7, tI16)
		e.varint(int64(i))
		e.end()
	}
	if len(m.kv) > 0 {
		e.list(5, tStruct, len(m.kv))
		for _, kv := range m.kv {
			e.begin()
			e.str(1, kv.key)
			e.str(2, kv.value)
			e.end()
		}
	}
	e.str(6, m.createdBy)
	// column_orders: TYPE_ORDER (union member 1, an empty struct) for
	// every leaf, which tells readers min_value/max_value follow each
	// type's own order (signed integers, IEEE doubles, unsigned bytes).
	e.list(7, tStruct, len(m.schema)-1)
	for range len(m.schema) - 1 {
		e.begin()
		e.structField(1)
		e.end()
		e.end()
	}
	e.end()
	return e.b
}

func encodeColumnMeta(e *thriftEncoder, m *columnMeta) {
	e.i32(1, m.typ)
	e.list(2, tI32, len(m.encodings))
	for _, enc := range m.encodings {
		e.elemI32(enc)
	}
	e.list(3, tBinary, len(m.path))
	for _, p := range m.path {
		e.elemString(p)
	}
	e.i32(4, m.codec)
	e.i64(5, m.numValues)
	e.i64(6, m.uncompressedSize)
	e.i64(7, m.compressedSize)
	e.i64(9, m.dataPageOffset)
	if m.hasDictOffset {
		e.i64(11, m.dictPageOffset)
	}
	if m.hasStats {
		e.structField(12)
		encodeStatistics(e, &m.stats)
		e.end()
	}
}

func encodeStatistics(e *thriftEncoder, s *statistics) {
	if s.hasLegacyMinMax {
		e.binary(1, s.legacyMax)
		e.binary(2, s.legacyMin)
	}
	e.i64(3, s.nullCount)
	if s.hasMax {
		e.binary(5, s.maxValue)
	}
	if s.hasMin {
		e.binary(6, s.minValue)
	}
}

// magic opens and closes every Parquet file; an encrypted footer ends
// in "PARE" instead.
const magic = "PAR1"

// footerTrailer is the last 8 bytes of a file: the footer's length
// (little-endian uint32) and the magic.
func footerTrailer(footerLen int) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(footerLen))
	return append(b, magic...)
}
