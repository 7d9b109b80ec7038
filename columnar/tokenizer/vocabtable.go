package tokenizer

import (
	"math/bits"
)

// vocabTable maps the raw bytes of a vocabulary entry to its id: the
// whole-piece lookup of ignore_merges. Every key lives in one string and
// the table is open addressing over 12-byte slots, so building it for a
// 200k-entry vocabulary is two allocations and no per-key string, where a
// Go map costs an allocation and a hashed insert per key — most of the
// time of reading a compiled tokenizer (compiled.go). Its hash is fixed
// (vocabHash), not seeded per process, so that the compiled form can hold
// the table as it is and a load use it where it lies.
type vocabTable struct {
	keys  string
	slots []vocabSlot // a power of two, at most half full
	n     int
}

// vocabHash is the table's hash of a key: the bytes 8 at a time, each
// word mixed in by a multiply and an xor-shift (the finaliser of
// SplitMix64), so that the low bits the table indexes by depend on every
// byte. Fixed: the compiled form stores the slots it chose.
func vocabHash(s string) uint64 {
	h := uint64(len(s)) * 0x9E3779B97F4A7C15
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
		s = s[8:]
	}
	var w uint64
	for i := 0; i < len(s); i++ {
		w |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ w) * 0x94d049bb133111eb
	return h ^ h>>32
}

// vocabSlot is keys[off:off+len] ↦ id; id1 is id+1, 0 marking a free slot.
type vocabSlot struct {
	off, len, id1 uint32
}

// newVocabTable builds the table of n entries whose keys are the
// consecutive substrings of keys cut at the given lengths.
func newVocabTable(keys string, lens, ids []uint32) *vocabTable {
	size := 1 << max(4, bits.Len(uint(len(lens)*2)))
	t := &vocabTable{keys: keys, slots: make([]vocabSlot, size)}
	off := uint32(0)
	for i, n := range lens {
		t.set(vocabSlot{off: off, len: n, id1: ids[i] + 1})
		off += n
	}
	return t
}

func (t *vocabTable) set(s vocabSlot) {
	key := t.keys[s.off : s.off+s.len]
	mask := uint64(len(t.slots) - 1)
	for i := vocabHash(key) & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if e.id1 == 0 {
			*e = s
			t.n++
			return
		}
		if t.keys[e.off:e.off+e.len] == key {
			e.id1 = s.id1 // a repeated key keeps its last id, as a map would
			return
		}
	}
}

// get returns the id of key.
func (t *vocabTable) get(key string) (uint32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := vocabHash(key) & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if e.id1 == 0 {
			return 0, false
		}
		if e.len == uint32(len(key)) && t.keys[e.off:e.off+e.len] == key {
			return e.id1 - 1, true
		}
	}
}

// each calls fn with every key and id, in slot order.
func (t *vocabTable) each(fn func(key string, id uint32)) {
	for _, e := range t.slots {
		if e.id1 != 0 {
			fn(t.keys[e.off:e.off+e.len], e.id1-1)
		}
	}
}
