package tokenizer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// The compiled form of a tokenizer: the parts (load.go) of a tokenizer.json
// written as one flat little-endian file, so that a later load reads it in
// one read instead of parsing megabytes of JSON (gpt-oss's tokenizer.json
// is 27 MB with 200k vocabulary entries and 446k merges).
//
//	magic      compiledMagic (the layout's version is in it)
//	flags      u32: 1 nfc, 2 ignore_merges
//	identity   str
//	patterns   u32 count, then str each
//	raw        u32 count, then an added token each: u32 id, u8 flags, str content
//	normalized the same
//	symbols    4×256 u32
//	merges     u32 count, then u64 pair key and u64 rank<<32|id each
//	vocab      u32 count, then u32 id and u32 length each, then the keys
//	           (raw bytes) one after another; only with ignore_merges
//	crc        u32 CRC-32C of everything before it
//
// where str is a u32 length and the bytes. The CRC catches a truncated or
// altered entry, which is then rebuilt from the JSON (cache.go); every
// count and length is also checked against what is left, so no entry,
// however damaged, can make decoding read out of bounds or allocate more
// than the entry's size.
const compiledMagic = "steadysweep compiled tokenizer 1\n"

const (
	compiledNFC          = 1
	compiledIgnoreMerges = 2
)

const (
	addedSingleWord = 1 << iota
	addedLStrip
	addedRStrip
	addedNormalized
	addedSpecial
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendCompiled appends the compiled form of p to dst.
func (p *parts) appendCompiled(dst []byte) []byte {
	le := binary.LittleEndian
	str := func(s string) {
		dst = le.AppendUint32(dst, uint32(len(s)))
		dst = append(dst, s...)
	}
	start := len(dst)
	dst = append(dst, compiledMagic...)
	var flags uint32
	if p.nfc {
		flags |= compiledNFC
	}
	if p.model.ignoreMerges {
		flags |= compiledIgnoreMerges
	}
	dst = le.AppendUint32(dst, flags)
	str(p.identity)
	dst = le.AppendUint32(dst, uint32(len(p.patterns)))
	for _, s := range p.patterns {
		str(s)
	}
	for _, list := range [][]addedToken{p.raw, p.normalized} {
		dst = le.AppendUint32(dst, uint32(len(list)))
		for _, a := range list {
			dst = le.AppendUint32(dst, a.ID)
			dst = append(dst, addedFlags(a))
			str(a.Content)
		}
	}
	for k := range p.model.symbols {
		for _, id := range p.model.symbols[k] {
			dst = le.AppendUint32(dst, id)
		}
	}
	dst = le.AppendUint32(dst, uint32(p.model.merges.len()))
	p.model.merges.each(func(key, value uint64) { dst = le.AppendUint64(le.AppendUint64(dst, key), value) })
	if v := p.model.vocab; v == nil {
		dst = le.AppendUint32(dst, 0)
	} else {
		dst = le.AppendUint32(dst, uint32(v.n))
		v.each(func(s string, id uint32) { dst = le.AppendUint32(le.AppendUint32(dst, id), uint32(len(s))) })
		v.each(func(s string, _ uint32) { dst = append(dst, s...) })
	}
	return le.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

func addedFlags(a addedToken) byte {
	var f byte
	for _, b := range []struct {
		on  bool
		bit byte
	}{{a.SingleWord, addedSingleWord}, {a.LStrip, addedLStrip}, {a.RStrip, addedRStrip}, {a.Normalized, addedNormalized}, {a.Special, addedSpecial}} {
		if b.on {
			f |= b.bit
		}
	}
	return f
}

// errCompiled is the error of an entry that is not a whole compiled
// tokenizer of this layout; the caller rebuilds it.
var errCompiled = errors.New("not a valid compiled tokenizer")

// compiledReader reads the fields of a compiled tokenizer; the first
// field that does not fit what is left sets err, and every later read
// returns zero values.
type compiledReader struct {
	b   []byte
	err error
}

func (r *compiledReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", errCompiled, what)
	}
	r.b = nil
}

// take returns the next n bytes, nil when fewer are left (failing).
func (r *compiledReader) take(n uint64, what string) []byte {
	if n > uint64(len(r.b)) {
		r.fail(what)
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func (r *compiledReader) u32(what string) uint32 {
	if b := r.take(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *compiledReader) u64(what string) uint64 {
	if b := r.take(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *compiledReader) byte1(what string) byte {
	if b := r.take(1, what); b != nil {
		return b[0]
	}
	return 0
}

func (r *compiledReader) str(what string) string {
	return string(r.take(uint64(r.u32(what)), what))
}

// count reads a count of items of at least minSize bytes each, refusing
// one that the rest of the entry cannot hold.
func (r *compiledReader) count(what string, minSize int) int {
	n := r.u32(what)
	if uint64(n)*uint64(minSize) > uint64(len(r.b)) {
		r.fail(what + " count")
		return 0
	}
	return int(n)
}

// decodeCompiled reads the parts written by appendCompiled.
func decodeCompiled(data []byte) (*parts, error) {
	if len(data) < len(compiledMagic)+4 || string(data[:len(compiledMagic)]) != compiledMagic {
		return nil, fmt.Errorf("%w: no header of this version", errCompiled)
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(body):]) {
		return nil, fmt.Errorf("%w: checksum mismatch", errCompiled)
	}
	r := &compiledReader{b: body[len(compiledMagic):]}
	flags := r.u32("flags")
	p := &parts{nfc: flags&compiledNFC != 0, model: &bpeModel{ignoreMerges: flags&compiledIgnoreMerges != 0, cache: newBPECache()}}
	p.identity = r.str("identity")
	p.patterns = make([]string, r.count("patterns", 4))
	for i := range p.patterns {
		p.patterns[i] = r.str("pattern")
	}
	for _, list := range []*[]addedToken{&p.raw, &p.normalized} {
		n := r.count("added tokens", 9)
		if n > 0 {
			*list = make([]addedToken, n)
		}
		for i := range *list {
			a := &(*list)[i]
			a.ID = r.u32("added token id")
			f := r.byte1("added token flags")
			a.SingleWord, a.LStrip, a.RStrip = f&addedSingleWord != 0, f&addedLStrip != 0, f&addedRStrip != 0
			a.Normalized, a.Special = f&addedNormalized != 0, f&addedSpecial != 0
			a.Content = r.str("added token")
		}
	}
	for k := range p.model.symbols {
		for c := range p.model.symbols[k] {
			p.model.symbols[k][c] = r.u32("symbols")
		}
	}
	n := r.count("merges", 16)
	p.model.merges = newMergeTable(n)
	for range n {
		key, value := r.u64("merge"), r.u64("merge")
		if key == emptyPair {
			r.fail("merge of two ids 4294967295")
		}
		p.model.merges.set(key, value)
	}
	if n := r.count("vocab", 8); p.model.ignoreMerges {
		ids, lens := make([]uint32, n), make([]uint32, n)
		total := uint64(0)
		for i := range n {
			ids[i], lens[i] = r.u32("vocab id"), r.u32("vocab length")
			total += uint64(lens[i])
		}
		if total > uint64(len(r.b)) {
			r.fail("vocab keys")
		} else {
			p.model.vocab = newVocabTable(string(r.b[:total]), lens, ids)
			r.b = r.b[total:]
		}
	} else if n != 0 {
		r.fail("vocab without ignore_merges")
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, r.err
	}
	return p, nil
}
