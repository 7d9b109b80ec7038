package parquetio

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// arrowSchemaKey is the file key-value metadata entry holding the Arrow
// schema the file was written from, as every Arrow implementation's
// Parquet bridge stores and reads it.
const arrowSchemaKey = "ARROW:schema"

// The Arrow IPC flatbuffer constants the schema message uses
// (format/Message.fbs and Schema.fbs of apache/arrow): the union tags of
// Type and MessageHeader, MetadataVersion V5 and Precision DOUBLE.
const (
	fbTypeInt           = 2
	fbTypeFloatingPoint = 3
	fbTypeUtf8          = 5
	fbTypeBool          = 6
	fbHeaderSchema      = 1
	fbVersionV5         = 4
	fbPrecisionDouble   = 2
)

// encodeSchema is the ARROW:schema value of sc: the Arrow IPC stream of
// the schema (a schema message and the end-of-stream marker, no batches),
// base64 — what pqarrow's WithStoreSchema writes through
// flight.SerializeSchema and arrow/ipc's stream writer. It builds the
// flatbuffer with the same builder calls in the same order as arrow/ipc's
// schemaToFB, fieldToFB and writeMessageFB (arrow-go v18.8.0
// arrow/ipc/metadata.go), so the bytes are the same as arrow-go's (a test
// compares them); the google/flatbuffers builder is the one arrow-go
// uses, a package of no initialisation.
func encodeSchema(sc *batch.Schema) string {
	b := flatbuffers.NewBuilder(1024)
	fields := make([]flatbuffers.UOffsetT, sc.NumFields())
	for i, f := range sc.Fields() {
		fields[i] = fieldToFB(b, f)
	}
	b.StartVector(4, len(fields), 4)
	for i := len(fields) - 1; i >= 0; i-- {
		b.PrependUOffsetT(fields[i])
	}
	fieldsFB := b.EndVector(len(fields))
	metaFB := metadataToFB(b, sc.Metadata())
	b.StartObject(4)            // Schema
	b.PrependInt16Slot(0, 0, 0) // endianness: Little
	b.PrependUOffsetTSlot(1, fieldsFB, 0)
	b.PrependUOffsetTSlot(2, metaFB, 0)
	schemaFB := b.EndObject()

	b.StartObject(5) // Message
	b.PrependInt16Slot(0, fbVersionV5, 0)
	b.PrependByteSlot(1, fbHeaderSchema, 0)
	b.PrependUOffsetTSlot(2, schemaFB, 0)
	b.PrependInt64Slot(3, 0, 0) // bodyLength
	b.Finish(b.EndObject())
	msg := b.FinishedBytes()

	// The stream: continuation marker, the length padded to 8, the
	// message, its padding, then the end-of-stream marker.
	padded := (len(msg) + 8 + 7) &^ 7
	out := make([]byte, 0, padded+8)
	out = binary.LittleEndian.AppendUint32(out, 0xFFFFFFFF)
	out = binary.LittleEndian.AppendUint32(out, uint32(padded-8))
	out = append(out, msg...)
	out = append(out, make([]byte, padded-8-len(msg))...)
	out = append(out, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0)
	return base64.StdEncoding.EncodeToString(out)
}

// fieldToFB builds a Field table as arrow/ipc's fieldVisitor.result
// does: the name, the type table, an empty children vector, the metadata.
func fieldToFB(b *flatbuffers.Builder, f batch.Field) flatbuffers.UOffsetT {
	name := b.CreateString(f.Name)
	var typ byte
	var typeFB flatbuffers.UOffsetT
	switch f.Type {
	case batch.Bool:
		typ = fbTypeBool
		b.StartObject(0)
		typeFB = b.EndObject()
	case batch.Int32, batch.Int64:
		typ = fbTypeInt
		bits := int32(32)
		if f.Type == batch.Int64 {
			bits = 64
		}
		b.StartObject(2)
		b.PrependInt32Slot(0, bits, 0)
		b.PrependBoolSlot(1, true, false)
		typeFB = b.EndObject()
	case batch.Float64:
		typ = fbTypeFloatingPoint
		b.StartObject(1)
		b.PrependInt16Slot(0, fbPrecisionDouble, 0)
		typeFB = b.EndObject()
	case batch.String:
		typ = fbTypeUtf8
		b.StartObject(0)
		typeFB = b.EndObject()
	}
	b.StartVector(4, 0, 4)
	kids := b.EndVector(0)
	var metaFB flatbuffers.UOffsetT
	if f.Metadata.Len() > 0 {
		kvs := keyValuesToFB(b, f.Metadata)
		b.StartVector(4, len(kvs), 4)
		for i := len(kvs) - 1; i >= 0; i-- {
			b.PrependUOffsetT(kvs[i])
		}
		metaFB = b.EndVector(len(kvs))
	}
	b.StartObject(7) // Field
	b.PrependUOffsetTSlot(0, name, 0)
	b.PrependBoolSlot(1, f.Nullable, false)
	b.PrependByteSlot(2, typ, 0)
	b.PrependUOffsetTSlot(3, typeFB, 0)
	b.PrependUOffsetTSlot(4, 0, 0) // dictionary
	b.PrependUOffsetTSlot(5, kids, 0)
	b.PrependUOffsetTSlot(6, metaFB, 0)
	return b.EndObject()
}

// metadataToFB is the custom_metadata vector of md, 0 when md is empty.
func metadataToFB(b *flatbuffers.Builder, md batch.Metadata) flatbuffers.UOffsetT {
	if md.Len() == 0 {
		return 0
	}
	kvs := keyValuesToFB(b, md)
	b.StartVector(4, len(kvs), 4)
	for i := len(kvs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(kvs[i])
	}
	return b.EndVector(len(kvs))
}

// keyValuesToFB builds a KeyValue table per pair, in order.
func keyValuesToFB(b *flatbuffers.Builder, md batch.Metadata) []flatbuffers.UOffsetT {
	kvs := make([]flatbuffers.UOffsetT, md.Len())
	for i, k := range md.Keys() {
		kk := b.CreateString(k)
		vv := b.CreateString(md.Values()[i])
		b.StartObject(2)
		b.PrependUOffsetTSlot(0, kk, 0)
		b.PrependUOffsetTSlot(1, vv, 0)
		kvs[i] = b.EndObject()
	}
	return kvs
}

// storedSchema is what the reader takes from an ARROW:schema: the number
// of fields, each field's metadata and the schema's metadata (the types
// come from the Parquet schema, as pqarrow takes them).
type storedSchema struct {
	fieldMeta []batch.Metadata
	meta      batch.Metadata
}

// decodeSchema reads an ARROW:schema value. Like pqarrow, it accepts the
// padded and the unpadded base64 alphabet (other writers use either).
func decodeSchema(s string) (*storedSchema, error) {
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
	return readStoredSchema(raw)
}

// readStoredSchema reads the IPC schema message raw: the field count,
// each top-level field's metadata and the schema's metadata. Every length
// must fit in the bytes that hold it, the nesting stay within
// maxThriftDepth and the fields visited within the tables the bytes can
// hold, so a few hostile bytes in a file's footer can neither ask for
// gigabytes nor recurse forever (arrow/ipc, which read it before, did
// both; found by FuzzReader).
//
// The layout is Arrow's format/Message.fbs and Schema.fbs (apache/arrow):
// a stream message is [0xFFFFFFFF] <int32 length> <flatbuffer Message>
// <body>; Message: 1 header_type, 2 header, 3 bodyLength; Schema:
// 1 fields, 2 custom_metadata; Field: 0 name, 2 type_type, 3 type,
// 5 children, 6 custom_metadata; KeyValue: 0 key, 1 value; Union (type
// 14): 1 typeIds. Numbers are slots in a table's vtable.
func readStoredSchema(raw []byte) (*storedSchema, error) {
	pos := 0
	if len(raw) >= 4 && binary.LittleEndian.Uint32(raw) == 0xFFFFFFFF {
		pos = 4
	}
	if len(raw)-pos < 4 {
		return nil, fmt.Errorf("stored Arrow schema: truncated")
	}
	n := int64(int32(binary.LittleEndian.Uint32(raw[pos:])))
	pos += 4
	if n < 4 || n > int64(len(raw)-pos) {
		return nil, fmt.Errorf("stored Arrow schema: message of %d bytes in %d", n, len(raw)-pos)
	}
	fb := flatbuf(raw[pos : pos+int(n)])
	body := int64(len(raw) - pos - int(n))
	w := &fbWalk{b: fb, budget: len(fb) / 4}
	root, err := fb.ref(0)
	if err != nil {
		return nil, err
	}
	if bl, ok, err := fb.scalar(root, 3, 8); err != nil || (ok && (int64(bl) < 0 || int64(bl) > body)) {
		return nil, fmt.Errorf("stored Arrow schema: body length %d, %d bytes follow (%v)", int64(bl), body, err)
	}
	if ht, _, err := fb.scalar(root, 1, 1); err != nil || ht != fbHeaderSchema {
		return nil, fmt.Errorf("stored Arrow schema: message header type %d, not a schema (%v)", ht, err)
	}
	schema, ok, err := fb.table(root, 2)
	if err != nil || !ok {
		return nil, fmt.Errorf("stored Arrow schema: no schema (%v)", err)
	}
	out := &storedSchema{}
	if out.meta, err = w.keyValues(schema, 2); err != nil {
		return nil, err
	}
	if err := w.fields(schema, 1, 0, &out.fieldMeta); err != nil {
		return nil, err
	}
	return out, nil
}

// flatbuf reads a flatbuffer with every offset and length checked.
type flatbuf []byte

// errFlatbuf is made by errors.New, which the compiler lays out as data;
// fmt.Errorf would be called by a package init in every process.
var errFlatbuf = errors.New("stored Arrow schema: an offset or length outside its bytes")

func (b flatbuf) u32(at int) (int, error) {
	if at < 0 || at > len(b)-4 {
		return 0, errFlatbuf
	}
	return int(binary.LittleEndian.Uint32(b[at:])), nil
}

// ref follows the offset stored at at.
func (b flatbuf) ref(at int) (int, error) {
	off, err := b.u32(at)
	if err != nil || off > len(b) {
		return 0, errFlatbuf
	}
	return at + off, nil
}

// slot is where field id of the table at t is, 0 when absent.
func (b flatbuf) slot(t, id int) (int, error) {
	soff, err := b.u32(t)
	if err != nil {
		return 0, err
	}
	vt := t - int(int32(uint32(soff)))
	if vt < 0 || vt > len(b)-4 {
		return 0, errFlatbuf
	}
	size := int(binary.LittleEndian.Uint16(b[vt:]))
	at := 4 + 2*id
	if at+2 > size || vt+at+2 > len(b) {
		return 0, nil
	}
	off := int(binary.LittleEndian.Uint16(b[vt+at:]))
	if off == 0 {
		return 0, nil
	}
	return t + off, nil
}

func (b flatbuf) scalar(t, id, size int) (uint64, bool, error) {
	p, err := b.slot(t, id)
	if err != nil || p == 0 {
		return 0, false, err
	}
	if p > len(b)-size {
		return 0, false, errFlatbuf
	}
	var v uint64
	for i := range size {
		v |= uint64(b[p+i]) << (8 * i)
	}
	return v, true, nil
}

func (b flatbuf) table(t, id int) (int, bool, error) {
	p, err := b.slot(t, id)
	if err != nil || p == 0 {
		return 0, false, err
	}
	r, err := b.ref(p)
	return r, err == nil, err
}

// vector is the start and length of the vector (or string) field id,
// checked to fit elem bytes per element.
func (b flatbuf) vector(t, id, elem int) (start, n int, err error) {
	v, ok, err := b.table(t, id)
	if err != nil || !ok {
		return 0, 0, err
	}
	if n, err = b.u32(v); err != nil {
		return 0, 0, err
	}
	if n > (len(b)-v-4)/elem {
		return 0, 0, fmt.Errorf("stored Arrow schema: a vector of %d elements in %d bytes", n, len(b)-v-4)
	}
	return v + 4, n, nil
}

// fbWalk visits the fields of a schema, within a budget of tables.
type fbWalk struct {
	b      flatbuf
	budget int
}

func (w *fbWalk) fields(t, id, depth int, meta *[]batch.Metadata) error {
	if depth > maxThriftDepth {
		return fmt.Errorf("stored Arrow schema: fields nested deeper than %d", maxThriftDepth)
	}
	start, n, err := w.b.vector(t, id, 4)
	if err != nil {
		return err
	}
	for i := range n {
		if w.budget--; w.budget < 0 {
			return fmt.Errorf("stored Arrow schema: more fields than its bytes hold")
		}
		f, err := w.b.ref(start + 4*i)
		if err != nil {
			return err
		}
		if _, _, err := w.b.vector(f, 0, 1); err != nil { // name
			return err
		}
		if typ, _, err := w.b.scalar(f, 2, 1); err != nil {
			return err
		} else if typ == 14 { // Union: typeIds
			if u, ok, err := w.b.table(f, 3); err != nil {
				return err
			} else if ok {
				if _, _, err := w.b.vector(u, 1, 4); err != nil {
					return err
				}
			}
		}
		md, err := w.keyValues(f, 6)
		if err != nil {
			return err
		}
		if meta != nil {
			*meta = append(*meta, md)
		}
		if err := w.fields(f, 5, depth+1, nil); err != nil {
			return err
		}
	}
	return nil
}

// keyValues reads the KeyValue vector in slot id of table t.
func (w *fbWalk) keyValues(t, id int) (batch.Metadata, error) {
	start, n, err := w.b.vector(t, id, 4)
	if err != nil || n == 0 {
		return batch.Metadata{}, err
	}
	keys, values := make([]string, n), make([]string, n)
	for i := range n {
		kv, err := w.b.ref(start + 4*i)
		if err != nil {
			return batch.Metadata{}, err
		}
		for slot, dst := range [2][]string{keys, values} {
			at, l, err := w.b.vector(kv, slot, 1)
			if err != nil {
				return batch.Metadata{}, err
			}
			dst[i] = string(w.b[at : at+l])
		}
	}
	return batch.NewMetadata(keys, values), nil
}
