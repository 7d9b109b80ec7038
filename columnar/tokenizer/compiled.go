package tokenizer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"slices"
	"unsafe"
)

// The compiled form of a tokenizer: the parts (load.go) of a tokenizer.json
// written as one flat little-endian file, so that a later load reads it in
// one read instead of parsing megabytes of JSON (gpt-oss's tokenizer.json
// is 27 MB with 200k vocabulary entries and 446k merges).
//
//	magic      compiledMagic (the layout's version is in it)
//	flags      u32: 1 nfc, 2 ignore_merges
//	identity   str
//	header crc u32 CRC-32C of magic, flags and identity (compiledIdentity
//	           reads the identity alone, without the whole entry's CRC)
//	patterns   u32 count, then str each
//	raw        u32 count, then an added token each: u32 id, u8 flags, str content
//	normalized the same
//	symbols    4×256 u32
//	merges     u32 log2 of the table's entries, zeros to a multiple of 8
//	           bytes from the start, then the mergeTable's entries as they
//	           are in memory (u64 inverted key, u64 rank<<32|id)
//	vocab      u32 log2 of its slots (0: no table, without ignore_merges),
//	           u32 keys length, the keys (raw bytes), zeros to a multiple
//	           of 4, then the vocabTable's slots as they are in memory (u32
//	           offset, length, id+1)
//	crc        u32 CRC-32C of everything before it
//
// where str is a u32 length and the bytes. Both hash tables are stored
// whole (their hashes are fixed: merge keys by a multiply, vocabHash), so
// that a load, on a little-endian machine, uses them where the read put
// them — no insert per merge or key, no memory but the read's. The CRC
// catches a truncated or altered entry, which is then rebuilt from the
// JSON (cache.go); every count and length is also checked against what is
// left, each table must keep a free slot (a lookup ends there) and each
// vocabulary slot must lie inside the keys, so no entry, however damaged,
// can make decoding or a lookup read out of bounds, loop, or allocate more
// than the entry's size.
const compiledMagic = "steadysweep compiled tokenizer 3\n"

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

// castagnoli is the CRC-32C table, made on first use (crc32 keeps it):
// a package variable made it at start-up, 8 KiB of tables computed by
// every command.
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

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
	dst = le.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli()))
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
	pad := func(align int) {
		for (len(dst)-start)%align != 0 {
			dst = append(dst, 0)
		}
	}
	m := p.model.merges.entries
	dst = le.AppendUint32(dst, uint32(bits.TrailingZeros(uint(len(m)))))
	pad(8)
	for _, e := range m {
		dst = le.AppendUint64(le.AppendUint64(dst, e.nkey), e.value)
	}
	if v := p.model.vocab; v == nil {
		dst = le.AppendUint32(dst, 0)
	} else {
		dst = le.AppendUint32(dst, uint32(bits.TrailingZeros(uint(len(v.slots)))))
		str(v.keys)
		pad(4)
		for _, e := range v.slots {
			dst = le.AppendUint32(le.AppendUint32(le.AppendUint32(dst, e.off), e.len), e.id1)
		}
	}
	return le.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli()))
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

// strInPlace is str without the copy: the string shares the entry's
// bytes, which nothing writes once read.
func (r *compiledReader) strInPlace(what string) string {
	n := r.u32(what)
	if n == 0 || uint64(n) > uint64(len(r.b)) {
		r.fail(what)
		return ""
	}
	s := unsafe.String(unsafe.SliceData(r.b), n)
	r.b = r.b[n:]
	return s
}

// compiledSlots reads a hash table of 1<<log2 slots of type T stored as
// they lie in memory after padding to align bytes from the start of data
// (appendCompiled): in place where the host is little-endian and the
// bytes are aligned for T, else copied into a new aligned array (a
// big-endian host refuses the entry and rebuilds it from the JSON).
func compiledSlots[T mergeEntry | vocabSlot](r *compiledReader, data []byte, log2 uint32, what string, align int) []T {
	if r.err != nil {
		return nil
	}
	if !littleEndian() {
		r.fail(what + ": stored little-endian")
		return nil
	}
	pos := len(data) - 4 - len(r.b) // r.b is the rest of data's body
	skip := (align - pos%align) % align
	var zero T
	size := uint64(unsafe.Sizeof(zero))
	if log2 < 4 || log2 > 31 || uint64(skip)+size<<log2 > uint64(len(r.b)) {
		r.fail(what + " table")
		return nil
	}
	n := 1 << log2
	raw := r.b[skip : skip+n*int(size)]
	r.b = r.b[skip+len(raw):]
	p := unsafe.Pointer(unsafe.SliceData(raw))
	if uintptr(p)%uintptr(align) == 0 {
		return unsafe.Slice((*T)(p), n)
	}
	out := make([]T, n)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), len(raw)), raw)
	return out
}

// littleEndian reports whether the host stores integers little-endian,
// as the compiled form does (a function, not a variable set at start-up:
// the package then has no initialisation at all).
func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
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
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(data[len(body):]) {
		return nil, fmt.Errorf("%w: checksum mismatch", errCompiled)
	}
	r := &compiledReader{b: body[len(compiledMagic):]}
	flags, identity := r.header(body)
	p := &parts{nfc: flags&compiledNFC != 0, model: &bpeModel{ignoreMerges: flags&compiledIgnoreMerges != 0, cache: newBPECache()}}
	p.identity = identity
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
	if entries := compiledSlots[mergeEntry](r, data, r.u32("merges"), "merges", 8); entries != nil {
		p.model.merges = &mergeTable{entries: entries, shift: uint8(64 - bits.Len(uint(len(entries)-1)))}
		if !slices.ContainsFunc(entries, func(e mergeEntry) bool { return e.nkey == 0 }) {
			r.fail("merges: no free entry")
		}
	}
	switch log2 := r.u32("vocab"); {
	case log2 == 0 && !p.model.ignoreMerges:
	case log2 == 0 || !p.model.ignoreMerges:
		r.fail("vocab without ignore_merges, or none with it")
	default:
		keys := r.strInPlace("vocab keys")
		slots := compiledSlots[vocabSlot](r, data, log2, "vocab", 4)
		t := &vocabTable{keys: keys, slots: slots}
		free := false
		for _, e := range slots {
			switch {
			case e.id1 == 0:
				free = true
			case uint64(e.off)+uint64(e.len) > uint64(len(keys)):
				r.fail("vocab slot outside the keys")
			default:
				t.n++
			}
		}
		if slots != nil && !free {
			r.fail("vocab: no free slot")
		}
		p.model.vocab = t
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, r.err
	}
	return p, nil
}

// compiledIdentity returns the identity in the header of a compiled
// entry (data is its start: at least the header), checked by the header's
// own CRC — without reading, mapping or checking the rest, which a caller
// that only keys on the identity never needs.
func compiledIdentity(data []byte) (string, error) {
	if len(data) < len(compiledMagic) || string(data[:len(compiledMagic)]) != compiledMagic {
		return "", fmt.Errorf("%w: no header of this version", errCompiled)
	}
	r := &compiledReader{b: data[len(compiledMagic):]}
	_, identity := r.header(data)
	return identity, r.err
}

// header reads the flags and identity after the magic and checks the
// header's CRC; r.b is a suffix of buf, which starts at the magic.
func (r *compiledReader) header(buf []byte) (flags uint32, identity string) {
	flags = r.u32("flags")
	identity = r.str("identity")
	header := buf[:len(buf)-len(r.b)]
	if crc := r.u32("header checksum"); r.err == nil && crc != crc32.Checksum(header, castagnoli()) {
		r.fail("header checksum mismatch")
	}
	return flags, identity
}
