package scan

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// PackHex packs 32 lowercase hex digits into dst.
func PackHex(dst *[16]byte, s []byte) bool {
	_ = s[31]
	good := byte(0x10)
	for i := 0; i < 16; i++ {
		hi, lo := hexNibble[s[2*i]], hexNibble[s[2*i+1]]
		good &= hi & lo
		dst[i] = hi<<4 | lo&15
	}
	return good != 0
}

// hexNibble maps a lowercase hex digit to 0x10 | its value and any other
// byte to 0 (PackHex ANDs them to find one). A literal the linker lays
// out: a table computed at package init is written in every process
// (issue 32). TestHexNibble checks it against lowerHex.
var hexNibble = [256]byte{
	'0': 0x10, '1': 0x11, '2': 0x12, '3': 0x13, '4': 0x14, '5': 0x15, '6': 0x16, '7': 0x17,
	'8': 0x18, '9': 0x19, 'a': 0x1a, 'b': 0x1b, 'c': 0x1c, 'd': 0x1d, 'e': 0x1e, 'f': 0x1f,
}

// UnpackHex renders a packed uuid as 32 lowercase hex digits.
func UnpackHex(u [16]byte) string {
	const hex = "0123456789abcdef"
	var b [32]byte
	for i, c := range u {
		b[2*i], b[2*i+1] = hex[c>>4], hex[c&15]
	}
	return string(b[:])
}

// SampleKey identifies a sample_uuid: packed hex, or the raw string in
// ext (a map key for readers that keep per-uuid state of their own).
type SampleKey struct {
	Hex [16]byte
	Ext string
}

// String renders the key as the uuid string of the log.
func (k SampleKey) String() string {
	if k.Ext != "" {
		return k.Ext
	}
	return UnpackHex(k.Hex)
}

// UUIDIndex maps a uuid of 32 lowercase hex digits (what the writer
// emits), packed to 16 bytes in a keys column, to its position in that
// column: an open-addressing table probed linearly by a seeded hash,
// whose 8-byte slots hold a 32-bit fingerprint of the hash beside the
// position, so a probe reads the keys column only on a likely match. At
// most three quarters full; sized ahead of the columns. The decoder keeps
// the uuids that are not packed hex in ext.
type UUIDIndex struct {
	seed0, seed1 uint64
	slots        []uint64 // fingerprint<<32 | position+1; 0 is empty
	used         int
	Ext          map[string]int32
	// HugePages advises the slots to huge pages (safeopen.HugeRoom): for
	// sample_idx_map.json's table, filled whole, not the decoder's, sized
	// from a projection that may be far above the samples it gets.
	HugePages bool
}

func (x *UUIDIndex) Reset() {
	if x.seed0 == 0 {
		x.seed0, x.seed1 = rand.Uint64()|1, rand.Uint64()
	}
	clear(x.slots)
	x.used = 0
	x.Ext = nil
}

func (x *UUIDIndex) hash(k *[16]byte) uint64 {
	hi, lo := bits.Mul64(binary.LittleEndian.Uint64(k[:8])^x.seed0, binary.LittleEndian.Uint64(k[8:])^x.seed1)
	return hi ^ lo
}

// locate returns the slot of k: holding it (found, with its position), or
// the empty slot it would take.
func (x *UUIDIndex) locate(keys [][16]byte, k *[16]byte) (slot int, pos int32, found bool) {
	return x.locateHashed(keys, k, x.hash(k))
}

// locateHashed is locate with k's hash h.
func (x *UUIDIndex) locateHashed(keys [][16]byte, k *[16]byte, h uint64) (slot int, pos int32, found bool) {
	fp, mask := h>>32, len(x.slots)-1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			return i, 0, false
		}
		if v>>32 == fp && keys[uint32(v)-1] == *k {
			return i, int32(uint32(v) - 1), true
		}
	}
}

// Touch loads the slot where k's probe starts and returns it, for the
// caller to keep (so the load is not optimised away): a pass of Touch
// over a block's keys before their lookups overlaps the cache misses of a
// table larger than the cache, which the lookups, one an event and each
// waiting on its own, took in turn (nine tenths of locate's time).
func (x *UUIDIndex) Touch(k *[16]byte) uint64 {
	if len(x.slots) == 0 {
		return 0
	}
	return x.slots[int(x.hash(k))&(len(x.slots)-1)]
}

func (x *UUIDIndex) Lookup(keys [][16]byte, k *[16]byte) (int32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	_, pos, found := x.locate(keys, k)
	return pos, found
}

// upsert returns k's position when it is in the table; else it enters k
// at position newPos (where the caller puts it in keys before the next
// call) and returns that.
func (x *UUIDIndex) upsert(keys [][16]byte, k *[16]byte, newPos int32) (int32, bool) {
	x.Ensure(keys, x.used+1)
	slot, pos, found := x.locate(keys, k)
	if found {
		return pos, true
	}
	x.slots[slot] = x.hash(k)>>32<<32 | uint64(uint32(newPos)+1)
	x.used++
	return newPos, false
}

// Set points k at position pos, whose key keys[pos] is k.
func (x *UUIDIndex) Set(keys [][16]byte, k *[16]byte, pos int32) {
	x.Ensure(keys, x.used+1)
	slot, _, _ := x.locate(keys, k)
	if x.slots[slot] == 0 {
		x.used++
	}
	x.slots[slot] = x.hash(k)>>32<<32 | uint64(uint32(pos)+1)
}

// Ensure makes room for n keys, rehashing from the keys column.
func (x *UUIDIndex) Ensure(keys [][16]byte, n int) { x.EnsureFrom(keys, n, nil) }

// SlotsFor is the number of slots Ensure gives the table to make room for
// n keys (0 when it has room already): what a caller that provides the
// slots (EnsureFrom) sets aside.
func (x *UUIDIndex) SlotsFor(n int) int {
	if 4*n <= 3*len(x.slots) {
		return 0
	}
	size := max(1024, len(x.slots))
	for 4*n > 3*size {
		size *= 2
	}
	return size
}

// EnsureFrom is Ensure taking the new table from alloc when not nil,
// which returns size zeroed slots: the decoder cuts them from its
// huge-page column slab, where a table of 1 MiB in make's 4 KiB pages
// took 260 page faults as its random probes touched them.
func (x *UUIDIndex) EnsureFrom(keys [][16]byte, n int, alloc func(size int) []uint64) {
	size := x.SlotsFor(n)
	if size == 0 {
		return
	}
	old := x.slots
	switch {
	case alloc != nil:
		x.slots = alloc(size)
	case x.HugePages:
		x.slots = safeopen.HugeRoom[uint64](size)[:size]
	default:
		x.slots = make([]uint64, size)
	}
	mask := size - 1
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := int(x.hash(&keys[uint32(v)-1])) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = v
	}
}

// Insert indexes keys[lo:hi] into x, sized for them already, calling dup
// for each key found at an earlier position. It returns a sum of the
// slots it loaded (kept, so the loads are not optimised away).
func (x *UUIDIndex) Insert(keys [][16]byte, lo, hi int, dup func(pos, i int32)) (touch uint64) {
	mask := len(x.slots) - 1
	const batch = 16
	var hs [batch]uint64
	for b := lo; b < hi; b += batch {
		e := min(b+batch, hi)
		// Hash a batch and load its home slots first, so that their cache
		// misses overlap instead of each waiting for the probe before it.
		for i := b; i < e; i++ {
			hs[i-b] = x.hash(&keys[i])
			touch += x.slots[int(hs[i-b])&mask]
		}
		for i := b; i < e; i++ {
			slot, pos, found := x.locateHashed(keys, &keys[i], hs[i-b])
			if !found {
				x.slots[slot] = hs[i-b]>>32<<32 | uint64(uint32(i)+1)
				x.used++
				continue
			}
			dup(pos, int32(i))
		}
	}
	return touch
}
