package parquetio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
)

// The Parquet footer and page headers are Thrift structs in the compact
// protocol (apache/thrift doc/specs/thrift-compact-protocol.md; the
// structs are apache/parquet-format src/main/thrift/parquet.thrift at
// 010f49b89eab98b498986709be5fedaaf2ea916f). This file is the protocol
// alone: field headers, varints, lists, skipping. footer.go and
// page_header.go map the structs we use onto it, field id by field id.

// Compact-protocol type codes of a field header or list element.
const (
	tStop   = 0
	tTrue   = 1 // a bool field's value is its type code
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxThriftDepth bounds the nesting a decoder follows (parquet.thrift
// nests at most six deep; a hostile footer must not recurse without end).
const maxThriftDepth = 32

// thriftError is a decoding error at a field path such as
// "row_groups[2].columns[0].meta_data.num_values".
type thriftError struct {
	path []string // outermost first
	msg  string
}

func (e *thriftError) Error() string {
	if len(e.path) == 0 {
		return e.msg
	}
	var b strings.Builder
	for i, p := range e.path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String() + ": " + e.msg
}

// inField puts err under the field name (the caller's struct member).
func inField(err error, name string) error {
	var te *thriftError
	if errors.As(err, &te) {
		te.path = append([]string{name}, te.path...)
		return te
	}
	return &thriftError{path: []string{name}, msg: err.Error()}
}

// thriftDecoder reads the compact protocol from a byte slice. Every
// length it reads (strings, lists) is checked against the bytes left
// before anything is allocated for it.
type thriftDecoder struct {
	b     []byte
	pos   int
	depth int
}

func errThrift(format string, args ...any) error {
	return &thriftError{msg: fmt.Sprintf(format, args...)}
}

func (d *thriftDecoder) left() int { return len(d.b) - d.pos }

func (d *thriftDecoder) byte() (byte, error) {
	if d.pos >= len(d.b) {
		return 0, errThrift("truncated at byte %d", d.pos)
	}
	c := d.b[d.pos]
	d.pos++
	return c, nil
}

func (d *thriftDecoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.b[d.pos:])
	if n <= 0 {
		return 0, errThrift("bad varint at byte %d", d.pos)
	}
	d.pos += n
	return v, nil
}

func (d *thriftDecoder) i64() (int64, error) {
	u, err := d.uvarint()
	return int64(u>>1) ^ -int64(u&1), err // zigzag
}

func (d *thriftDecoder) i32() (int32, error) {
	v, err := d.i64()
	if err == nil && (v < math.MinInt32 || v > math.MaxInt32) {
		return 0, errThrift("i32 out of range: %d", v)
	}
	return int32(v), err
}

func (d *thriftDecoder) double() (float64, error) {
	if d.left() < 8 {
		return 0, errThrift("truncated double at byte %d", d.pos)
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.pos:]))
	d.pos += 8
	return v, nil
}

// binary is a length-prefixed byte string; it aliases the input.
func (d *thriftDecoder) binary() ([]byte, error) {
	n, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if n > uint64(d.left()) {
		return nil, errThrift("length %d beyond the %d bytes left", n, d.left())
	}
	s := d.b[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return s, nil
}

func (d *thriftDecoder) str() (string, error) {
	b, err := d.binary()
	return string(b), err
}

// listHeader reads a list (or set) header: the element type and count.
// Every element takes at least one byte on the wire except a bool's,
// which also takes one in a list, so a count above the bytes left is a
// lie told to make us allocate.
func (d *thriftDecoder) listHeader() (elem byte, n int, err error) {
	h, err := d.byte()
	if err != nil {
		return 0, 0, err
	}
	elem, size := h&0x0f, uint64(h>>4)
	if size == 15 {
		if size, err = d.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	if size > uint64(d.left()) {
		return 0, 0, errThrift("list of %d elements in %d bytes", size, d.left())
	}
	return elem, int(size), nil
}

// list reads a list of elements of type want, calling fn for each.
func (d *thriftDecoder) list(want byte, fn func(i int) error) error {
	elem, n, err := d.listHeader()
	if err != nil {
		return err
	}
	if elem != want && !(want == tTrue && elem == tFalse) {
		return errThrift("list of type %d, want %d", elem, want)
	}
	for i := range n {
		if err := fn(i); err != nil {
			return inField(err, fmt.Sprintf("[%d]", i))
		}
	}
	return nil
}

// structFields reads a struct's fields up to its stop, calling fn with
// each field's id and type; fn returns handled=false for a field it does
// not know, which is skipped (newer writers add fields).
func (d *thriftDecoder) structFields(fn func(id int16, typ byte) (handled bool, err error)) error {
	if d.depth++; d.depth > maxThriftDepth {
		return errThrift("structs nested deeper than %d", maxThriftDepth)
	}
	defer func() { d.depth-- }()
	var last int16
	for {
		h, err := d.byte()
		if err != nil {
			return err
		}
		typ := h & 0x0f
		if typ == tStop {
			return nil
		}
		id := last + int16(h>>4)
		if h>>4 == 0 {
			v, err := d.i64()
			if err != nil {
				return err
			}
			if v < math.MinInt16 || v > math.MaxInt16 {
				return errThrift("field id %d out of range", v)
			}
			id = int16(v)
		}
		last = id
		ok, err := fn(id, typ)
		if err != nil {
			return err
		}
		if !ok {
			if err := d.skip(typ); err != nil {
				return inField(err, fmt.Sprintf("field %d", id))
			}
		}
	}
}

// skip passes over a value of type typ.
func (d *thriftDecoder) skip(typ byte) error {
	switch typ {
	case tTrue, tFalse:
		return nil // the value is the type code
	case tByte:
		_, err := d.byte()
		return err
	case tI16, tI32, tI64:
		_, err := d.uvarint()
		return err
	case tDouble:
		_, err := d.double()
		return err
	case tBinary:
		_, err := d.binary()
		return err
	case tList, tSet:
		elem, n, err := d.listHeader()
		if err != nil {
			return err
		}
		if elem == tTrue || elem == tFalse {
			elem = tByte // a bool list element is one byte
		}
		return d.nested(func() error {
			for range n {
				if err := d.skip(elem); err != nil {
					return err
				}
			}
			return nil
		})
	case tMap:
		n, err := d.uvarint()
		if err != nil || n == 0 {
			return err
		}
		if n > uint64(d.left()) {
			return errThrift("map of %d entries in %d bytes", n, d.left())
		}
		kv, err := d.byte()
		if err != nil {
			return err
		}
		return d.nested(func() error {
			for range n {
				if err := errors.Join(d.skip(kv>>4), d.skip(kv&0x0f)); err != nil {
					return err
				}
			}
			return nil
		})
	case tStruct:
		return d.structFields(func(int16, byte) (bool, error) { return false, nil })
	}
	return errThrift("unknown thrift type %d", typ)
}

func (d *thriftDecoder) nested(fn func() error) error {
	if d.depth++; d.depth > maxThriftDepth {
		return errThrift("values nested deeper than %d", maxThriftDepth)
	}
	defer func() { d.depth-- }()
	return fn()
}

// expect checks a known field's wire type against the one its struct
// declares.
func expect(name string, got, want byte) error {
	if got == want || (want == tTrue && got == tFalse) {
		return nil
	}
	return &thriftError{path: []string{name}, msg: fmt.Sprintf("thrift type %d, want %d", got, want)}
}

// Typed field readers: each checks the wire type and names the field.

func (d *thriftDecoder) i32Field(name string, typ byte, dst *int32) error {
	if err := expect(name, typ, tI32); err != nil {
		return err
	}
	v, err := d.i32()
	if err != nil {
		return inField(err, name)
	}
	*dst = v
	return nil
}

func (d *thriftDecoder) i64Field(name string, typ byte, dst *int64) error {
	if err := expect(name, typ, tI64); err != nil {
		return err
	}
	v, err := d.i64()
	if err != nil {
		return inField(err, name)
	}
	*dst = v
	return nil
}

func (d *thriftDecoder) strField(name string, typ byte, dst *string) error {
	if err := expect(name, typ, tBinary); err != nil {
		return err
	}
	v, err := d.str()
	if err != nil {
		return inField(err, name)
	}
	*dst = v
	return nil
}

func (d *thriftDecoder) binField(name string, typ byte, dst *[]byte) error {
	if err := expect(name, typ, tBinary); err != nil {
		return err
	}
	v, err := d.binary()
	if err != nil {
		return inField(err, name)
	}
	*dst = append([]byte(nil), v...)
	return nil
}

func (d *thriftDecoder) boolField(name string, typ byte, dst *bool) error {
	if err := expect(name, typ, tTrue); err != nil {
		return err
	}
	*dst = typ == tTrue
	return nil
}

func (d *thriftDecoder) structField(name string, typ byte, fn func(id int16, typ byte) (bool, error)) error {
	if err := expect(name, typ, tStruct); err != nil {
		return err
	}
	if err := d.structFields(fn); err != nil {
		return inField(err, name)
	}
	return nil
}

func (d *thriftDecoder) listField(name string, typ byte, elem byte, fn func(i int) error) error {
	if err := expect(name, typ, tList); err != nil {
		return err
	}
	if err := d.list(elem, fn); err != nil {
		return inField(err, name)
	}
	return nil
}

// thriftEncoder appends the compact protocol to b. Field ids are written
// as deltas from the previous field of the same struct, so the encoder
// keeps one last id per open struct.
type thriftEncoder struct {
	b    []byte
	last []int16
}

func (e *thriftEncoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *thriftEncoder) varint(v int64)   { e.uvarint(uint64(v<<1) ^ uint64(v>>63)) }

func (e *thriftEncoder) field(id int16, typ byte) {
	top := &e.last[len(e.last)-1]
	if delta := id - *top; delta > 0 && delta <= 15 {
		e.b = append(e.b, byte(delta)<<4|typ)
	} else {
		e.b = append(e.b, typ)
		e.varint(int64(id))
	}
	*top = id
}

func (e *thriftEncoder) begin()               { e.last = append(e.last, 0) }
func (e *thriftEncoder) end()                 { e.b = append(e.b, tStop); e.last = e.last[:len(e.last)-1] }
func (e *thriftEncoder) structField(id int16) { e.field(id, tStruct); e.begin() }

func (e *thriftEncoder) i32(id int16, v int32) { e.field(id, tI32); e.varint(int64(v)) }
func (e *thriftEncoder) i64(id int16, v int64) { e.field(id, tI64); e.varint(v) }
func (e *thriftEncoder) i8(id int16, v int8)   { e.field(id, tByte); e.b = append(e.b, byte(v)) }

func (e *thriftEncoder) bool(id int16, v bool) {
	if v {
		e.field(id, tTrue)
	} else {
		e.field(id, tFalse)
	}
}

func (e *thriftEncoder) binary(id int16, v []byte) {
	e.field(id, tBinary)
	e.uvarint(uint64(len(v)))
	e.b = append(e.b, v...)
}

func (e *thriftEncoder) str(id int16, v string) {
	e.field(id, tBinary)
	e.uvarint(uint64(len(v)))
	e.b = append(e.b, v...)
}

// list writes a list field's header; the caller appends n elements
// (structs with begin/end, scalars with the element writers below).
func (e *thriftEncoder) list(id int16, elem byte, n int) {
	e.field(id, tList)
	if n < 15 {
		e.b = append(e.b, byte(n)<<4|elem)
	} else {
		e.b = append(e.b, 0xf0|elem)
		e.uvarint(uint64(n))
	}
}

func (e *thriftEncoder) elemI32(v int32)     { e.varint(int64(v)) }
func (e *thriftEncoder) elemString(v string) { e.uvarint(uint64(len(v))); e.b = append(e.b, v...) }
