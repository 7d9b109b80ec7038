package tokenizer

import (
	"hash/maphash"
	"sync/atomic"
)

// bpeCache remembers the ids of pieces seen before. Each slot is one
// 64-byte cache line holding the piece and its ids inline, so a hit costs
// one memory access rather than a chain of pointers. Slots are written
// once and never replaced: memory stays bounded, readers need no lock
// (a slot's contents are published by the atomic store of its state), and
// once the table has filled encoding allocates nothing — the same trade
// HF makes by no longer inserting into a full cache.
type bpeCache struct {
	seed  maphash.Seed
	slots []cacheSlot
}

const (
	cacheKeyMax      = 26 // longest cached piece, in bytes
	cacheIDsMax      = 8  // most ids of a cached piece
	cacheSlots       = 1 << 16
	cacheProbeLength = 2
)

const (
	slotEmpty uint32 = iota
	slotWriting
	slotReady
)

type cacheSlot struct {
	state  atomic.Uint32
	keyLen uint8
	n      uint8
	key    [cacheKeyMax]byte
	ids    [cacheIDsMax]uint32
}

func newBPECache() bpeCache {
	return bpeCache{seed: maphash.MakeSeed(), slots: make([]cacheSlot, cacheSlots)}
}

func (c *bpeCache) hash(piece string) (uint64, bool) {
	if len(piece) > cacheKeyMax || c.slots == nil {
		return 0, false
	}
	return maphash.String(c.seed, piece), true
}

func (c *bpeCache) get(piece string, h uint64) ([]uint32, bool) {
	for i := uint64(0); i < cacheProbeLength; i++ {
		s := &c.slots[(h+i)&(cacheSlots-1)]
		if s.state.Load() == slotReady && int(s.keyLen) == len(piece) && string(s.key[:s.keyLen]) == piece {
			return s.ids[:s.n], true
		}
	}
	return nil, false
}

func (c *bpeCache) put(piece string, h uint64, ids []uint32) {
	if len(ids) > cacheIDsMax {
		return
	}
	for i := uint64(0); i < cacheProbeLength; i++ {
		s := &c.slots[(h+i)&(cacheSlots-1)]
		if s.state.Load() == slotEmpty && s.state.CompareAndSwap(slotEmpty, slotWriting) {
			s.keyLen = uint8(copy(s.key[:], piece))
			s.n = uint8(copy(s.ids[:], ids))
			s.state.Store(slotReady)
			return
		}
	}
}
