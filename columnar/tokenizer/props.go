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

// propertyNames maps the names accepted in \p{..} to their bit.
var propertyNames = map[string]property{
	"L": propL, "Lu": propLu, "Ll": propLl, "Lt": propLt, "Lm": propLm, "Lo": propLo,
	"M": propM, "N": propN, "P": propP, "S": propS,
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

func buildPropertyTable() *propertyTable {
	flat := make([]property, 0x110000)
	set := func(ranges []runeRange, p property) {
		for _, r := range ranges {
			for c := r.lo; c <= r.hi; c++ {
				flat[c] |= p
			}
		}
	}
	for name, p := range propertyNames {
		set(onigClasses[name], p)
	}
	set(onigClasses["s"], propSpace)
	for _, c := range nfcUnsafeRunes() {
		flat[c] |= propNFCUnsafe
	}

	t := &propertyTable{}
	seen := make(map[[256]property]uint16)
	for b := range t.blockIndex {
		var block [256]property
		copy(block[:], flat[b<<8:(b+1)<<8])
		idx, ok := seen[block]
		if !ok {
			idx = uint16(len(t.blocks) >> 8)
			seen[block] = idx
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
