package parquetio

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrowSchemaKey is the file key-value metadata entry holding the Arrow
// schema the file was written from, as every Arrow implementation's
// Parquet bridge stores and reads it.
const arrowSchemaKey = "ARROW:schema"

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
	if err := checkStoredSchema(raw); err != nil {
		return nil, err
	}
	r, err := ipc.NewReader(bytes.NewReader(raw), ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.Schema(), nil
}

// checkStoredSchema walks the IPC schema message raw before arrow/ipc
// reads it: arrow/ipc allocates from the message length, the body
// length and every vector length of the flatbuffer (fields, children,
// metadata) as the bytes say, and follows children without a depth
// limit, so a few hostile bytes in a file's footer would ask it for
// gigabytes or recurse forever (found by FuzzReader). Every length must
// fit in the bytes that hold it, the nesting stay within maxThriftDepth
// and the fields visited within the tables the bytes can hold.
//
// The layout is Arrow's format/Message.fbs and Schema.fbs (apache/arrow):
// a stream message is [0xFFFFFFFF] <int32 length> <flatbuffer Message>
// <body>; Message: 1 header_type, 2 header, 3 bodyLength; Schema:
// 1 fields, 2 custom_metadata; Field: 0 name, 2 type_type, 3 type,
// 5 children, 6 custom_metadata; KeyValue: 0 key, 1 value; Union (type
// 14): 1 typeIds. Numbers are slots in a table's vtable.
func checkStoredSchema(raw []byte) error {
	pos := 0
	if len(raw) >= 4 && binary.LittleEndian.Uint32(raw) == 0xFFFFFFFF {
		pos = 4
	}
	if len(raw)-pos < 4 {
		return fmt.Errorf("stored Arrow schema: truncated")
	}
	n := int64(int32(binary.LittleEndian.Uint32(raw[pos:])))
	pos += 4
	if n < 4 || n > int64(len(raw)-pos) {
		return fmt.Errorf("stored Arrow schema: message of %d bytes in %d", n, len(raw)-pos)
	}
	fb := flatbuf(raw[pos : pos+int(n)])
	body := int64(len(raw) - pos - int(n))
	w := &fbWalk{b: fb, budget: len(fb) / 4}
	root, err := fb.ref(0)
	if err != nil {
		return err
	}
	if bl, ok, err := fb.scalar(root, 3, 8); err != nil || (ok && (int64(bl) < 0 || int64(bl) > body)) {
		return fmt.Errorf("stored Arrow schema: body length %d, %d bytes follow (%v)", int64(bl), body, err)
	}
	schema, ok, err := fb.table(root, 2)
	if err != nil || !ok {
		return fmt.Errorf("stored Arrow schema: no schema (%v)", err)
	}
	if err := w.keyValues(schema, 2); err != nil {
		return err
	}
	return w.fields(schema, 1, 0)
}

// flatbuf reads a flatbuffer with every offset and length checked.
type flatbuf []byte

var errFlatbuf = fmt.Errorf("stored Arrow schema: an offset or length outside its bytes")

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

func (w *fbWalk) fields(t, id, depth int) error {
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
		if err := w.keyValues(f, 6); err != nil {
			return err
		}
		if err := w.fields(f, 5, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (w *fbWalk) keyValues(t, id int) error {
	start, n, err := w.b.vector(t, id, 4)
	if err != nil {
		return err
	}
	for i := range n {
		kv, err := w.b.ref(start + 4*i)
		if err != nil {
			return err
		}
		for slot := range 2 {
			if _, _, err := w.b.vector(kv, slot, 1); err != nil {
				return err
			}
		}
	}
	return nil
}
