package parquetio

import (
	"fmt"
	"math"
)

// Dictionary encoding (Encodings.md): a column chunk's dictionary page
// holds its distinct values PLAIN; its data pages hold indices into it,
// one byte of bit width then the RLE/bit-packed hybrid without a length
// prefix. PLAIN_DICTIONARY (2) is the 1.0 name of RLE_DICTIONARY (8)
// for the data pages (and of PLAIN for the dictionary page).

// dictDecoder yields a data page's values through the chunk's dictionary.
type dictDecoder[T value] struct {
	idx  *rleDecoder
	dict []T
	buf  []uint32
}

func newDictDecoder[T value](b []byte, dict []T) (*dictDecoder[T], error) {
	if len(b) < 1 {
		return nil, fmt.Errorf("dictionary indices without a bit width")
	}
	w := int(b[0])
	if w > 32 {
		return nil, fmt.Errorf("dictionary index bit width %d", w)
	}
	return &dictDecoder[T]{idx: newRLEDecoder(b[1:], w), dict: dict}, nil
}

func (d *dictDecoder[T]) decode(dst []T) error {
	if cap(d.buf) < len(dst) {
		d.buf = make([]uint32, len(dst))
	}
	buf := d.buf[:len(dst)]
	if err := d.idx.next(buf); err != nil {
		return err
	}
	for i, k := range buf {
		if int(k) >= len(d.dict) {
			return fmt.Errorf("dictionary index %d of a dictionary of %d values", k, len(d.dict))
		}
		dst[i] = d.dict[k]
	}
	return nil
}

// dictionary builds a column chunk's dictionary while the writer encodes
// it: the distinct values in first-seen order, PLAIN-encoded, and each
// value's index.
type dictionary struct {
	plain []byte // the dictionary page's values
	n     int
	ints  map[uint64]uint32 // int32, int64, float64 by their bits
	strs  map[string]uint32
}

func newDictionary() *dictionary {
	return &dictionary{ints: map[uint64]uint32{}, strs: map[string]uint32{}}
}

// index is the index of a fixed-width value, added when new.
func index[T fixed](d *dictionary, v T) uint32 {
	var key uint64
	switch x := any(v).(type) {
	case int32:
		key = uint64(uint32(x))
	case int64:
		key = uint64(x)
	case float64:
		key = math.Float64bits(x) // NaNs of one payload share an entry
	}
	if k, ok := d.ints[key]; ok {
		return k
	}
	k := uint32(d.n)
	d.ints[key] = k
	d.n++
	d.plain = appendFixed(d.plain, v)
	return k
}

// indexBytes is the index of a byte array, added when new.
func (d *dictionary) indexBytes(v []byte) uint32 {
	if k, ok := d.strs[string(v)]; ok {
		return k
	}
	k := uint32(d.n)
	d.strs[string(v)] = k
	d.n++
	d.plain = appendPlainBytes(d.plain, v)
	return k
}
