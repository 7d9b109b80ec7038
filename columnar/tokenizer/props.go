package tokenizer

import "sync"

//go:generate go run ./internal/gen -unicode ../../../shared/tokenizers/unicode -out tables_gen.go

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }

// A property is one bit of the per-code-point property word. The categories
// are the ones Oniguruma's \p{..} knows in the shared tokenizers' patterns;
// Go's unicode tables cannot be used for them because they are Unicode 15
// while HF's regex engine is Unicode 16.
type property uint16

const (
	propL property = 1 << iota
	propLu
	propLl
	propLt
	propLm
	propLo
	propM
	propN
	propP
	propS
	propSpace     // \s in Oniguruma: Unicode White_Space
	propNFCUnsafe // NFC may change a text containing this code point
	numProperties = iota
)

// propertyNames are the names accepted in \p{..} and their bits: an
// array the linker lays out, not a map every process builds at start-up.
var propertyNames = [...]struct {
	name string
	p    property
}{
	{"L", propL}, {"Lu", propLu}, {"Ll", propLl}, {"Lt", propLt}, {"Lm", propLm}, {"Lo", propLo},
	{"M", propM}, {"N", propN}, {"P", propP}, {"S", propS},
}

// propertyNamed is the bit of the \p{..} name, false for a name not
// accepted.
func propertyNamed(name string) (property, bool) {
	for _, pn := range propertyNames {
		if pn.name == name {
			return pn.p, true
		}
	}
	return 0, false
}

// onigClassBounds names a class of onigClasses and its ranges' bounds in
// onigClassRanges.
type onigClassBounds struct {
	name     string
	from, to int
}

// onigClass returns the ranges of the class named (onigClasses), nil for
// none.
func onigClass(name string) []runeRange {
	for _, c := range onigClasses {
		if c.name == name {
			return onigClassRanges[c.from:c.to:c.to]
		}
	}
	return nil
}

// propertyTable is a two-stage lookup table: the code point's high bits
// select a 256-entry block, shared between all identical blocks, so a lookup
// is two loads instead of a binary search over thousands of ranges.
type propertyTable struct {
	blockIndex [0x110000 >> 8]uint16
	blocks     []property
	distinct   []property // every property word that occurs
}

var (
	propertiesOnce sync.Once
	properties     *propertyTable
)

// unicodeProperties builds the property table on first use; it costs a few
// milliseconds, which only tokenizer loading pays.
func unicodeProperties() *propertyTable {
	propertiesOnce.Do(func() { properties = buildPropertyTable() })
	return properties
}

// buildPropertyTable fills the table a block of 256 code points at a
// time, walking each property's sorted ranges alongside: no flat array of
// every code point (2.2 MB of fresh pages), and the blocks that are one
// value throughout (most of the code space) are shared without hashing
// them.
func buildPropertyTable() *propertyTable {
	type source struct {
		ranges []runeRange // sorted, disjoint
		p      property
	}
	var sources []source
	for _, pn := range propertyNames {
		sources = append(sources, source{onigClass(pn.name), pn.p})
	}
	sources = append(sources, source{onigClass("s"), propSpace})
	var unsafe []runeRange
	for _, c := range nfcUnsafeRunes() { // sorted
		if n := len(unsafe); n > 0 && unsafe[n-1].hi == c-1 {
			unsafe[n-1].hi = c
		} else {
			unsafe = append(unsafe, runeRange{c, c})
		}
	}
	sources = append(sources, source{unsafe, propNFCUnsafe})

	t := &propertyTable{blocks: make([]property, 0, 512<<8)}
	uniform := make(map[property]uint16)
	mixed := make(map[[256]property]uint16)
	for b := range t.blockIndex {
		lo, hi := rune(b<<8), rune(b<<8|0xFF)
		var block [256]property
		for i := range sources {
			src := &sources[i]
			for len(src.ranges) > 0 && src.ranges[0].hi < lo {
				src.ranges = src.ranges[1:]
			}
			for _, r := range src.ranges {
				if r.lo > hi {
					break
				}
				for c := max(r.lo, lo); c <= min(r.hi, hi); c++ {
					block[c-lo] |= src.p
				}
			}
		}
		same := true
		for _, p := range block[1:] {
			if p != block[0] {
				same = false
				break
			}
		}
		var idx uint16
		var ok bool
		if same {
			idx, ok = uniform[block[0]]
		} else {
			idx, ok = mixed[block]
		}
		if !ok {
			idx = uint16(len(t.blocks) >> 8)
			if same {
				uniform[block[0]] = idx
			} else {
				mixed[block] = idx
			}
			t.blocks = append(t.blocks, block[:]...)
		}
		t.blockIndex[b] = idx
	}
	seenProps := make(map[property]bool)
	for _, p := range t.blocks {
		if !seenProps[p] {
			seenProps[p] = true
			t.distinct = append(t.distinct, p)
		}
	}
	return t
}

// of returns the properties of r; code points outside Unicode have none.
func (t *propertyTable) of(r rune) property {
	if r < 0 || r > 0x10FFFF {
		return 0
	}
	return t.blocks[int(t.blockIndex[r>>8])<<8|int(r&0xFF)]
}
