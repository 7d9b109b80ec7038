package tokenizer

import (
	"strings"
	"sync"
)

// byteLevel holds GPT-2's bytes_to_unicode table, which HF's ByteLevel
// uses: printable Latin-1 bytes stand for themselves and the other 68
// bytes are mapped, in order, to U+0100 onwards (runes). bytes is its
// inverse, indexed by the character (every one of them is below 256+68),
// holding byte+1 and 0 for a character outside the table: arrays, not a
// map, built on first use (byteLevelTables) — only a tokenizer load needs
// them, not every command at start-up.
var byteLevel struct {
	once  sync.Once
	runes [256]rune
	bytes [256 + 68]uint16
}

func byteLevelTables() (byteRunes *[256]rune, runeBytes *[256 + 68]uint16) {
	byteLevel.once.Do(func() {
		n := rune(0)
		for b := 0; b < 256; b++ {
			printable := '!' <= b && b <= '~' || 0xA1 <= b && b <= 0xAC || 0xAE <= b && b <= 0xFF
			if printable {
				byteLevel.runes[b] = rune(b)
			} else {
				byteLevel.runes[b] = 256 + n
				n++
			}
			byteLevel.bytes[byteLevel.runes[b]] = uint16(b) + 1
		}
	})
	return &byteLevel.runes, &byteLevel.bytes
}

// unmapByteLevel turns a byte-mapped vocabulary string back into the bytes
// it stands for; ok is false if it holds a character outside the table.
func unmapByteLevel(s string) (raw string, ok bool) {
	_, runeBytes := byteLevelTables()
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < 0 || int(r) >= len(runeBytes) || runeBytes[r] == 0 {
			return "", false
		}
		b.WriteByte(byte(runeBytes[r] - 1))
	}
	return b.String(), true
}
