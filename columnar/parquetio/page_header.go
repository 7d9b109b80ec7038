package parquetio

import "fmt"

// Page headers: parquet.thrift's PageHeader and the three headers of the
// page types a column chunk holds (apache/parquet-format 010f49b8).
// Index pages (type 1) are never written by anyone and are skipped.

// Page types (enum PageType).
const (
	pageData       = 0
	pageIndex      = 1
	pageDictionary = 2
	pageDataV2     = 3
)

// Encodings (enum Encoding).
const (
	encPlain             = 0
	encPlainDictionary   = 2
	encRLE               = 3
	encBitPacked         = 4
	encDeltaBinaryPacked = 5
	encDeltaLengthBytes  = 6
	encDeltaBytes        = 7
	encRLEDictionary     = 8
	encByteStreamSplit   = 9
)

func encodingName(e int32) string {
	names := map[int32]string{encPlain: "PLAIN", encPlainDictionary: "PLAIN_DICTIONARY", encRLE: "RLE",
		encBitPacked: "BIT_PACKED", encDeltaBinaryPacked: "DELTA_BINARY_PACKED",
		encDeltaLengthBytes: "DELTA_LENGTH_BYTE_ARRAY", encDeltaBytes: "DELTA_BYTE_ARRAY",
		encRLEDictionary: "RLE_DICTIONARY", encByteStreamSplit: "BYTE_STREAM_SPLIT"}
	if n, ok := names[e]; ok {
		return n
	}
	return fmt.Sprintf("encoding %d", e)
}

// pageHeader is parquet.thrift's PageHeader: 1 type,
// 2 uncompressed_page_size, 3 compressed_page_size, 4 crc (skipped),
// 5 data_page_header, 7 dictionary_page_header, 8 data_page_header_v2.
type pageHeader struct {
	typ              int32
	uncompressedSize int32
	compressedSize   int32

	// DataPageHeader: 1 num_values, 2 encoding,
	// 3 definition_level_encoding, 4 repetition_level_encoding,
	// 5 statistics (skipped). DictionaryPageHeader: 1 num_values,
	// 2 encoding, 3 is_sorted (skipped). DataPageHeaderV2: 1 num_values,
	// 2 num_nulls, 3 num_rows, 4 encoding, 5 definition_levels_byte_length,
	// 6 repetition_levels_byte_length, 7 is_compressed (default true),
	// 8 statistics (skipped).
	numValues    int32
	numNulls     int32
	numRows      int32
	encoding     int32
	defEncoding  int32
	defLength    int32
	repLength    int32
	isCompressed bool
	hasSub       bool // the header of its type was present
}

// decodePageHeader reads a PageHeader from b; it returns the header and
// its length in bytes.
func decodePageHeader(b []byte) (pageHeader, int, error) {
	d := &thriftDecoder{b: b}
	h := pageHeader{isCompressed: true}
	sub := func(name string, typ byte, fields func(id int16, typ byte) (bool, error)) error {
		h.hasSub = true
		return d.structField(name, typ, fields)
	}
	err := d.structFields(func(id int16, typ byte) (bool, error) {
		switch id {
		case 1:
			return true, d.i32Field("type", typ, &h.typ)
		case 2:
			return true, d.i32Field("uncompressed_page_size", typ, &h.uncompressedSize)
		case 3:
			return true, d.i32Field("compressed_page_size", typ, &h.compressedSize)
		case 5:
			return true, sub("data_page_header", typ, func(id int16, typ byte) (bool, error) {
				switch id {
				case 1:
					return true, d.i32Field("num_values", typ, &h.numValues)
				case 2:
					return true, d.i32Field("encoding", typ, &h.encoding)
				case 3:
					return true, d.i32Field("definition_level_encoding", typ, &h.defEncoding)
				}
				return false, nil
			})
		case 7:
			return true, sub("dictionary_page_header", typ, func(id int16, typ byte) (bool, error) {
				switch id {
				case 1:
					return true, d.i32Field("num_values", typ, &h.numValues)
				case 2:
					return true, d.i32Field("encoding", typ, &h.encoding)
				}
				return false, nil
			})
		case 8:
			return true, sub("data_page_header_v2", typ, func(id int16, typ byte) (bool, error) {
				switch id {
				case 1:
					return true, d.i32Field("num_values", typ, &h.numValues)
				case 2:
					return true, d.i32Field("num_nulls", typ, &h.numNulls)
				case 3:
					return true, d.i32Field("num_rows", typ, &h.numRows)
				case 4:
					return true, d.i32Field("encoding", typ, &h.encoding)
				case 5:
					return true, d.i32Field("definition_levels_byte_length", typ, &h.defLength)
				case 6:
					return true, d.i32Field("repetition_levels_byte_length", typ, &h.repLength)
				case 7:
					return true, d.boolField("is_compressed", typ, &h.isCompressed)
				}
				return false, nil
			})
		}
		return false, nil
	})
	if err != nil {
		return h, 0, err
	}
	if err := h.check(); err != nil {
		return h, 0, err
	}
	return h, d.pos, nil
}

// check refuses the counts and sizes no page can have, naming the field.
func (h *pageHeader) check() error {
	bad := func(field string, v int32) error {
		return &thriftError{path: []string{field}, msg: fmt.Sprintf("%d is negative", v)}
	}
	for _, f := range []struct {
		name string
		v    int32
	}{{"uncompressed_page_size", h.uncompressedSize}, {"compressed_page_size", h.compressedSize},
		{"num_values", h.numValues}, {"num_nulls", h.numNulls}, {"num_rows", h.numRows},
		{"definition_levels_byte_length", h.defLength}, {"repetition_levels_byte_length", h.repLength}} {
		if f.v < 0 {
			return bad(f.name, f.v)
		}
	}
	if (h.typ == pageData || h.typ == pageDictionary || h.typ == pageDataV2) && !h.hasSub {
		return &thriftError{msg: fmt.Sprintf("page of type %d without its header", h.typ)}
	}
	return nil
}

// encodeDataPageHeader appends the header of a v1 (v2 false) or v2 data
// page of n values (nulls of them null) whose values are in encoding.
func encodeDataPageHeader(b []byte, v2 bool, n, nulls, encoding, defLen, uncompressed, compressed int) []byte {
	e := &thriftEncoder{b: b}
	e.begin()
	if v2 {
		e.i32(1, pageDataV2)
	} else {
		e.i32(1, pageData)
	}
	e.i32(2, int32(uncompressed))
	e.i32(3, int32(compressed))
	if v2 {
		e.structField(8)
		e.i32(1, int32(n))
		e.i32(2, int32(nulls))
		e.i32(3, int32(n))
		e.i32(4, int32(encoding))
		e.i32(5, int32(defLen))
		e.i32(6, 0)
		e.end()
	} else {
		e.structField(5)
		e.i32(1, int32(n))
		e.i32(2, int32(encoding))
		e.i32(3, encRLE)
		e.i32(4, encRLE)
		e.end()
	}
	e.end()
	return e.b
}

// encodeDictPageHeader appends the header of a PLAIN dictionary page of
// n values.
func encodeDictPageHeader(b []byte, n, uncompressed, compressed int) []byte {
	e := &thriftEncoder{b: b}
	e.begin()
	e.i32(1, pageDictionary)
	e.i32(2, int32(uncompressed))
	e.i32(3, int32(compressed))
	e.structField(7)
	e.i32(1, int32(n))
	e.i32(2, encPlain)
	e.end()
	e.end()
	return e.b
}
