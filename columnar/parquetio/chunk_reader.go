package parquetio

import (
	"encoding/binary"
	"fmt"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// chunkReader reads one column chunk into batch columns, a batch at a
// time: page headers, decompression, definition levels here; values in
// the typed half (typedValues), one per physical type.
type chunkReader struct {
	field    batch.Field
	physical int32
	optional bool
	codec    Codec
	chunk    []byte // the chunk's bytes, pages one after another
	pos      int
	rows     int64 // the row group's rows
	read     int64 // rows read so far

	page   []byte      // the current data page, decompressed (reused)
	left   int         // its values not yet read
	defs   *rleDecoder // its definition levels (nil: a required column)
	levels []uint32    // scratch
	valid  []bool      // scratch
	values typedValues
}

// typedValues is the physical-type half of a chunk reader.
type typedValues interface {
	// setDict decodes a dictionary page of n PLAIN values.
	setDict(b []byte, n int) error
	// startPage starts a data page whose values (at most n) are b in enc.
	startPage(enc int32, b []byte, n int) error
	// appendTo decodes m values and appends len(valid) rows of them to
	// col, nulls where valid is false (valid nil: m rows, no nulls).
	appendTo(col *batch.Column, m int, valid []bool) error
}

func newChunkReader(chunk []byte, rows int64, leaf schemaElement, f batch.Field, codec Codec) (*chunkReader, error) {
	c := &chunkReader{field: f, physical: leaf.typ, optional: f.Nullable, codec: codec, chunk: chunk, rows: rows}
	switch leaf.typ {
	case typeBoolean:
		c.values = &typed[bool]{}
	case typeInt32:
		c.values = &typed[int32]{}
	case typeInt64:
		c.values = &typed[int64]{}
	case typeDouble:
		c.values = &typed[float64]{}
	case typeByteArray:
		c.values = &typed[[]byte]{}
	default:
		return nil, fmt.Errorf("unsupported physical type %s", typeName(leaf.typ))
	}
	return c, nil
}

// next appends the next n rows to col.
func (c *chunkReader) next(col *batch.Column, n int) error {
	for got := 0; got < n; {
		if c.left == 0 {
			if err := c.nextPage(); err != nil {
				return err
			}
			continue
		}
		k := min(n-got, c.left)
		var valid []bool
		m := k
		if c.defs != nil {
			c.levels, c.valid = grow(c.levels, k), grow(c.valid, k)
			if err := c.defs.next(c.levels); err != nil {
				return fmt.Errorf("definition levels: %w", err)
			}
			valid, m = c.valid, 0
			for i, l := range c.levels {
				if l > 1 {
					return fmt.Errorf("definition level %d in a flat column", l)
				}
				valid[i] = l == 1
				m += int(l)
			}
		}
		if err := c.values.appendTo(col, m, valid); err != nil {
			return err
		}
		c.left -= k
		got += k
		c.read += int64(k)
	}
	return nil
}

// nextPage reads page headers up to the next data page with values,
// taking in a dictionary page on the way, and starts it.
func (c *chunkReader) nextPage() error {
	for {
		if c.pos >= len(c.chunk) {
			return fmt.Errorf("column chunk ended after %d of %d rows", c.read, c.rows)
		}
		at := c.pos
		h, hl, err := decodePageHeader(c.chunk[c.pos:])
		if err != nil {
			return fmt.Errorf("page header at chunk byte %d: %w", at, err)
		}
		c.pos += hl
		if int(h.compressedSize) > len(c.chunk)-c.pos {
			return fmt.Errorf("page at chunk byte %d: compressed_page_size %d, %d bytes left in the chunk", at, h.compressedSize, len(c.chunk)-c.pos)
		}
		body := c.chunk[c.pos : c.pos+int(h.compressedSize)]
		c.pos += int(h.compressedSize)
		switch h.typ {
		case pageDictionary:
			err = c.dictionaryPage(h, body)
		case pageData:
			err = c.dataPage(h, body)
		case pageDataV2:
			err = c.dataPageV2(h, body)
		default:
			continue // index pages and types to come carry no values
		}
		if err != nil {
			return fmt.Errorf("page at chunk byte %d: %w", at, err)
		}
		if c.left > 0 {
			return nil
		}
	}
}

func (c *chunkReader) dictionaryPage(h pageHeader, body []byte) error {
	if h.encoding != encPlain && h.encoding != encPlainDictionary {
		return fmt.Errorf("dictionary_page_header.encoding: %s", encodingName(h.encoding))
	}
	// A buffer of its own: byte-array values point into it for the rest
	// of the chunk.
	raw, err := c.codec.decompress(nil, body, int(h.uncompressedSize))
	if err != nil {
		return err
	}
	if err := plainCount(c.physical, int(h.numValues), len(raw)); err != nil {
		return fmt.Errorf("dictionary_page_header.num_values: %w", err)
	}
	return c.values.setDict(raw, int(h.numValues))
}

// dataPage starts a version-1 data page: the whole page compressed, the
// definition levels first with a 4-byte length.
func (c *chunkReader) dataPage(h pageHeader, body []byte) error {
	raw, err := c.codec.decompress(c.page, body, int(h.uncompressedSize))
	if err != nil {
		return err
	}
	c.page = raw
	c.defs = nil
	if c.optional {
		if h.defEncoding != encRLE {
			return fmt.Errorf("data_page_header.definition_level_encoding: %s (RLE is read)", encodingName(h.defEncoding))
		}
		if len(raw) < 4 {
			return fmt.Errorf("definition levels: length truncated")
		}
		n := binary.LittleEndian.Uint32(raw)
		if uint64(n) > uint64(len(raw)-4) {
			return fmt.Errorf("definition levels: %d bytes in a page of %d", n, len(raw))
		}
		c.defs = newRLEDecoder(raw[4:4+n], 1)
		raw = raw[4+n:]
	}
	return c.start(h, raw)
}

// dataPageV2 starts a version-2 data page: repetition then definition
// levels uncompressed, their lengths in the header, then the values,
// compressed unless is_compressed says not.
func (c *chunkReader) dataPageV2(h pageHeader, body []byte) error {
	lv := int(h.repLength) + int(h.defLength)
	if lv > len(body) || lv > int(h.uncompressedSize) {
		return fmt.Errorf("data_page_header_v2.definition_levels_byte_length: %d level bytes in a page of %d", lv, len(body))
	}
	if h.numValues != h.numRows {
		return fmt.Errorf("data_page_header_v2.num_values: %d values in %d rows of a flat column", h.numValues, h.numRows)
	}
	vals := body[lv:]
	if h.isCompressed && c.codec != Uncompressed {
		raw, err := c.codec.decompress(c.page, vals, int(h.uncompressedSize)-lv)
		if err != nil {
			return err
		}
		c.page, vals = raw, raw
	}
	c.defs = nil
	if c.optional {
		c.defs = newRLEDecoder(body[h.repLength:lv], 1)
	}
	return c.start(h, vals)
}

// start hands a data page's values to the typed half.
func (c *chunkReader) start(h pageHeader, vals []byte) error {
	if err := c.values.startPage(h.encoding, vals, int(h.numValues)); err != nil {
		return fmt.Errorf("encoding %s: %w", encodingName(h.encoding), err)
	}
	c.left = int(h.numValues)
	return nil
}

// typed decodes the values of one physical type T.
type typed[T value] struct {
	dict []T
	dec  valueDecoder[T]
	vals []T // scratch: the present values
	full []T // scratch: the values spread over the rows
}

func (t *typed[T]) setDict(b []byte, n int) error {
	t.dict = make([]T, n)
	if err := newPlainDecoder[T](b).decode(t.dict); err != nil {
		return fmt.Errorf("dictionary: %w", err)
	}
	return nil
}

func (t *typed[T]) startPage(enc int32, b []byte, n int) error {
	var d any
	var err error
	var z T
	switch enc {
	case encPlain:
		d = newPlainDecoder[T](b)
	case encPlainDictionary, encRLEDictionary:
		if t.dict == nil {
			return fmt.Errorf("indices without a dictionary page")
		}
		d, err = newDictDecoder(b, t.dict)
	case encDeltaBinaryPacked:
		var dd *deltaDecoder
		if dd, err = newDeltaDecoder(b); err == nil {
			switch any(z).(type) {
			case int32:
				d = deltaInts[int32]{dd}
			case int64:
				d = deltaInts[int64]{dd}
			}
		}
	case encDeltaLengthBytes:
		if _, ok := any(z).([]byte); ok {
			d, _, err = newDeltaLengthBytes(b, n)
		}
	case encDeltaBytes:
		if _, ok := any(z).([]byte); ok {
			d, err = newDeltaBytes(b, n)
		}
	case encRLE:
		if _, ok := any(z).(bool); ok {
			d, err = newRLEBools(b)
		}
	case encByteStreamSplit:
		switch any(z).(type) {
		case int32:
			d = &streamSplit[int32]{b: b, n: len(b) / 4}
		case int64:
			d = &streamSplit[int64]{b: b, n: len(b) / 8}
		case float64:
			d = &streamSplit[float64]{b: b, n: len(b) / 8}
		}
	}
	if err != nil {
		return err
	}
	dec, ok := d.(valueDecoder[T])
	if !ok {
		return fmt.Errorf("not read for this column's type")
	}
	t.dec = dec
	return nil
}

func (t *typed[T]) appendTo(col *batch.Column, m int, valid []bool) error {
	t.vals = grow(t.vals, m)
	if err := t.dec.decode(t.vals); err != nil {
		return err
	}
	full := t.vals
	if valid != nil {
		t.full = grow(t.full, len(valid))
		full = t.full
		k := 0
		var z T
		for i, ok := range valid {
			if ok {
				full[i] = t.vals[k]
				k++
			} else {
				full[i] = z
			}
		}
	}
	batch.AppendValues(col, full, valid)
	return nil
}

// rleBools is the RLE encoding of booleans (version-2 writers): a 4-byte
// length, then the hybrid of bit width 1.
type rleBools struct {
	d   *rleDecoder
	buf []uint32
}

func newRLEBools(b []byte) (*rleBools, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("RLE booleans: length truncated")
	}
	n := binary.LittleEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return nil, fmt.Errorf("RLE booleans: %d bytes in a page of %d", n, len(b))
	}
	return &rleBools{d: newRLEDecoder(b[4:4+n], 1)}, nil
}

func (r *rleBools) decode(dst []bool) error {
	r.buf = grow(r.buf, len(dst))
	if err := r.d.next(r.buf); err != nil {
		return err
	}
	for i, v := range r.buf {
		dst[i] = v == 1
	}
	return nil
}

// streamSplit is BYTE_STREAM_SPLIT: byte k of value i at b[k*n+i].
type streamSplit[T fixed] struct {
	b    []byte
	n, i int
}

func (s *streamSplit[T]) decode(dst []T) error {
	size := sizeOf[T]()
	if s.i+len(dst) > s.n {
		return fmt.Errorf("BYTE_STREAM_SPLIT: %d values, %d left", len(dst), s.n-s.i)
	}
	var tmp [8]byte
	for j := range dst {
		for k := range size {
			tmp[k] = s.b[k*s.n+s.i]
		}
		dst[j] = getFixed[T](tmp[:])
		s.i++
	}
	return nil
}

// grow returns s with length n (its contents are scratch).
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
