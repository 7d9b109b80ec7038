package tokenizer

import "math/bits"

// mergeTable maps a pair of token ids to rank<<32 | merged id. It is an
// open-addressing hash table with linear probing over 16-byte entries: a
// lookup is usually one cache line, where Go's map, probed hundreds of
// thousands of times per megabyte of text, costs about twice as much.
type mergeTable struct {
	entries []mergeEntry
	shift   uint8 // 64 - log2(len(entries))
}

type mergeEntry struct {
	// nkey is the key inverted, so that a free entry is all zeros: a new
	// table is memory fresh from the allocator, with nothing to fill, and
	// its pages are touched only where entries land.
	nkey, value uint64
}

// emptyPair is the key of a free entry; it would be the pair of two ids
// 2³²−1, which buildBPE rejects.
const emptyPair = ^uint64(0)

func newMergeTable(n int) *mergeTable {
	size := 1 << max(4, bits.Len(uint(n*2))) // load factor at most 1/2
	return &mergeTable{entries: make([]mergeEntry, size), shift: uint8(64 - bits.Len(uint(size-1)))}
}

func (t *mergeTable) slot(key uint64) uint64 {
	return (key * 0x9E3779B97F4A7C15) >> t.shift
}

// set inserts or replaces the value of key.
func (t *mergeTable) set(key, value uint64) {
	mask := uint64(len(t.entries) - 1)
	for i := t.slot(key); ; i = (i + 1) & mask {
		e := &t.entries[i]
		if e.nkey == ^key || e.nkey == 0 {
			e.nkey, e.value = ^key, value
			return
		}
	}
}

// get returns the value of key, or noMerge.
func (t *mergeTable) get(key uint64) uint64 {
	mask := uint64(len(t.entries) - 1)
	for i := t.slot(key); ; i = (i + 1) & mask {
		e := &t.entries[i]
		if e.nkey == ^key {
			return e.value
		}
		if e.nkey == 0 {
			return noMerge
		}
	}
}

// each calls fn with every key and value, in slot order.
func (t *mergeTable) each(fn func(key, value uint64)) {
	for _, e := range t.entries {
		if e.nkey != 0 {
			fn(^e.nkey, e.value)
		}
	}
}

// len is the number of keys.
func (t *mergeTable) len() int {
	n := 0
	for _, e := range t.entries {
		if e.nkey != 0 {
			n++
		}
	}
	return n
}
