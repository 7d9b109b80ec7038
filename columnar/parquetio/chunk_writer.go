package parquetio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// chunkWriter encodes one column chunk of the open row group: column
// values in, finished pages out (the dictionary page is written ahead of
// them when the chunk is closed, since it grows until then).
type chunkWriter struct {
	name     string
	typ      int32
	optional bool
	opts     *Options

	dict     *dictionary // nil: PLAIN
	fallback bool        // the dictionary grew too big: PLAIN from here on
	usedDict bool        // some page holds dictionary indices

	// The open page: its levels, its PLAIN values or dictionary indices.
	defs  []uint32
	plain []byte
	bools []bool
	idx   []uint32
	rows  int
	nulls int

	pages        []byte // the chunk's finished data pages, headers included
	uncompressed int64  // their size uncompressed, headers included
	values       int64
	stats        chunkStats
	scratch      []byte
}

func newChunkWriter(f batch.Field, e schemaElement, opts *Options) *chunkWriter {
	c := &chunkWriter{name: f.Name, typ: e.typ, optional: f.Nullable, opts: opts}
	if e.typ != typeBoolean && opts.dictionaryFor(f.Name) {
		c.dict = newDictionary()
	}
	c.stats.typ = e.typ
	return c
}

// add appends rows [off, off+n) of a, cutting pages as they fill.
func (c *chunkWriter) add(a *batch.Column, off, n int) error {
	if !c.optional && a.NullN() > 0 {
		for i := off; i < off+n; i++ {
			if a.IsNull(i) {
				return fmt.Errorf("a null at row %d in a column that is not nullable", i)
			}
		}
	}
	for n > 0 {
		k := min(n, c.opts.PageRows-c.rows)
		if err := c.addValues(a, off, k); err != nil {
			return err
		}
		off, n = off+k, n-k
		if c.rows >= c.opts.PageRows || len(c.plain)+4*len(c.idx) >= c.opts.PageBytes {
			if err := c.flushPage(); err != nil {
				return err
			}
		}
		if c.dict != nil && !c.fallback && len(c.dict.plain) >= c.opts.DictionaryPageBytes {
			// arrow-go and arrow-rs fall back the same way: the pages
			// so far keep their indices, the rest of the chunk is PLAIN.
			if err := c.flushPage(); err != nil {
				return err
			}
			c.fallback = true
		}
	}
	return nil
}

// addValues appends rows [off, off+n) of a to the open page.
func (c *chunkWriter) addValues(a *batch.Column, off, n int) error {
	if want := physicalOf(a.Type()); want != c.typ {
		return fmt.Errorf("a %s column for a Parquet %s column", a.Type(), typeName(c.typ))
	}
	useDict := c.dict != nil && !c.fallback
	for i := off; i < off+n; i++ {
		valid := a.IsValid(i)
		if c.optional {
			c.defs = append(c.defs, b2u(valid))
		}
		c.rows++
		c.values++
		if !valid {
			c.nulls++
			c.stats.nulls++
			continue
		}
		switch a.Type() {
		case batch.Bool:
			v := a.Bool(i)
			c.bools = append(c.bools, v)
			c.stats.addBool(v)
		case batch.Int32:
			addFixed(c, a.Int32(i), useDict)
		case batch.Int64:
			addFixed(c, a.Int64(i), useDict)
		case batch.Float64:
			addFixed(c, a.Float64(i), useDict)
		case batch.String:
			v := a.StrBytes(i)
			c.stats.addBytes(v)
			if useDict {
				c.idx = append(c.idx, c.dict.indexBytes(v))
			} else {
				c.plain = appendPlainBytes(c.plain, v)
			}
		}
	}
	return nil
}

// physicalOf is the Parquet physical type of a column type.
func physicalOf(t batch.Type) int32 {
	switch t {
	case batch.Bool:
		return typeBoolean
	case batch.Int32:
		return typeInt32
	case batch.Int64:
		return typeInt64
	case batch.Float64:
		return typeDouble
	case batch.String:
		return typeByteArray
	}
	return -1
}

// addFixed adds a fixed-width value to the open page: to the statistics,
// then as a dictionary index or PLAIN.
func addFixed[T fixed](c *chunkWriter, v T, useDict bool) {
	switch x := any(v).(type) {
	case int32:
		c.stats.addInt(int64(x))
	case int64:
		c.stats.addInt(x)
	case float64:
		c.stats.addFloat(x)
	}
	if useDict {
		c.idx = append(c.idx, index(c.dict, v))
	} else {
		c.plain = appendFixed(c.plain, v)
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// flushPage encodes the open page (levels, values, compression, header)
// onto the chunk's pages.
func (c *chunkWriter) flushPage() error {
	if c.rows == 0 {
		return nil
	}
	var levels []byte
	if c.optional {
		levels = appendRLE(nil, c.defs, 1)
	}
	encoding := encPlain
	values := c.scratch[:0]
	switch {
	case c.dict != nil && !c.fallback:
		encoding = encRLEDictionary
		w := bitWidth(uint64(max(c.dict.n, 1) - 1))
		values = append(values, byte(w))
		values = appendRLE(values, c.idx, w)
		c.usedDict = true
	case c.typ == typeBoolean:
		values = appendPlainBools(values, c.bools)
	default:
		values = append(values, c.plain...)
	}
	c.scratch = values
	codec := c.opts.Compression
	var body []byte
	var uncompressed int
	var err error
	if c.opts.DataPageV2 {
		// Version 2: the levels stay outside the compressed block, their
		// length in the header.
		body = append(body, levels...)
		if body, err = codec.compress(body, values); err != nil {
			return err
		}
		uncompressed = len(levels) + len(values)
	} else {
		page := make([]byte, 0, 4+len(levels)+len(values))
		if c.optional {
			page = binary.LittleEndian.AppendUint32(page, uint32(len(levels)))
			page = append(page, levels...)
		}
		page = append(page, values...)
		if body, err = codec.compress(nil, page); err != nil {
			return err
		}
		uncompressed = len(page)
	}
	if uncompressed > math.MaxInt32 || len(body) > math.MaxInt32 {
		return fmt.Errorf("a page of %d bytes", uncompressed)
	}
	start := len(c.pages)
	c.pages = encodeDataPageHeader(c.pages, c.opts.DataPageV2, c.rows, c.nulls, encoding, len(levels), uncompressed, len(body))
	c.uncompressed += int64(len(c.pages)-start) + int64(uncompressed)
	c.pages = append(c.pages, body...)
	c.defs, c.plain, c.bools, c.idx = c.defs[:0], c.plain[:0], c.bools[:0], c.idx[:0]
	c.rows, c.nulls = 0, 0
	return nil
}

// finish writes the chunk (dictionary page, data pages) at file offset
// pos through out and returns its ColumnChunk metadata.
func (c *chunkWriter) finish(pos int64, out func([]byte) error) (columnChunk, error) {
	if err := c.flushPage(); err != nil {
		return columnChunk{}, err
	}
	m := columnMeta{typ: c.typ, path: []string{c.name}, codec: int32(c.opts.Compression), numValues: c.values}
	var dictPage []byte
	if c.usedDict {
		body, err := c.opts.Compression.compress(nil, c.dict.plain)
		if err != nil {
			return columnChunk{}, err
		}
		dictPage = encodeDictPageHeader(nil, c.dict.n, len(c.dict.plain), len(body))
		m.uncompressedSize = int64(len(dictPage) + len(c.dict.plain))
		dictPage = append(dictPage, body...)
		m.hasDictOffset, m.dictPageOffset = true, pos
	}
	m.dataPageOffset = pos + int64(len(dictPage))
	m.uncompressedSize += c.uncompressed
	m.compressedSize = int64(len(dictPage) + len(c.pages))
	// The encodings of the chunk: of the dictionary page and the data
	// pages' values, and RLE for the levels.
	m.encodings = []int32{encPlain, encRLE}
	if c.usedDict {
		m.encodings = append(m.encodings, encRLEDictionary)
	}
	m.stats, m.hasStats = c.stats.thrift(), true
	for _, b := range [][]byte{dictPage, c.pages} {
		if err := out(b); err != nil {
			return columnChunk{}, err
		}
	}
	return columnChunk{fileOffset: pos, meta: m, hasMeta: true}, nil
}

// chunkStats are a chunk's null count and the bounds of its values in
// the column's type order: signed integers, doubles without NaNs (−0
// and +0 widened as parquet.thrift's ColumnOrder asks), booleans false
// before true, byte arrays as unsigned bytes.
type chunkStats struct {
	typ      int32
	nulls    int64
	any      bool
	lo, hi   int64
	flo, fhi float64
	blo, bhi []byte
}

func (s *chunkStats) addInt(v int64) {
	if !s.any {
		s.lo, s.hi, s.any = v, v, true
		return
	}
	s.lo, s.hi = min(s.lo, v), max(s.hi, v)
}

func (s *chunkStats) addBool(v bool) { s.addInt(int64(b2u(v))) }

func (s *chunkStats) addFloat(v float64) {
	if math.IsNaN(v) {
		return
	}
	if !s.any {
		s.flo, s.fhi, s.any = v, v, true
		return
	}
	if v < s.flo {
		s.flo = v
	}
	if v > s.fhi {
		s.fhi = v
	}
}

func (s *chunkStats) addBytes(v []byte) {
	if !s.any {
		s.blo, s.bhi, s.any = bytes.Clone(v), bytes.Clone(v), true
		return
	}
	if bytes.Compare(v, s.blo) < 0 {
		s.blo = append(s.blo[:0], v...)
	}
	if bytes.Compare(v, s.bhi) > 0 {
		s.bhi = append(s.bhi[:0], v...)
	}
}

// thrift is the Statistics struct: null_count always, min_value and
// max_value PLAIN-encoded (byte arrays without their length) when a
// value was seen.
func (s *chunkStats) thrift() statistics {
	st := statistics{hasNulls: true, nullCount: s.nulls}
	if !s.any {
		return st
	}
	st.hasMin, st.hasMax = true, true
	switch s.typ {
	case typeBoolean:
		st.minValue, st.maxValue = []byte{byte(s.lo)}, []byte{byte(s.hi)}
	case typeInt32:
		st.minValue, st.maxValue = appendFixed(nil, int32(s.lo)), appendFixed(nil, int32(s.hi))
	case typeInt64:
		st.minValue, st.maxValue = appendFixed(nil, s.lo), appendFixed(nil, s.hi)
	case typeDouble:
		lo, hi := s.flo, s.fhi
		if lo == 0 {
			lo = math.Copysign(0, -1)
		}
		if hi == 0 {
			hi = 0
		}
		st.minValue, st.maxValue = appendFixed(nil, lo), appendFixed(nil, hi)
	case typeByteArray:
		st.minValue, st.maxValue = s.blo, s.bhi
	}
	return st
}
