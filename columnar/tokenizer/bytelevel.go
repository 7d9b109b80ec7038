package tokenizer

import "strings"

// byteRunes is GPT-2's bytes_to_unicode table, which HF's ByteLevel uses:
// printable Latin-1 bytes stand for themselves and the other 68 bytes are
// mapped, in order, to U+0100 onwards. runeBytes is its inverse, indexed
// by the character (every one of them is below 256+68), holding byte+1
// and 0 for a character outside the table: arrays, not a map, so that
// building them at start-up allocates nothing.
var byteRunes, runeBytes = func() (b2r [256]rune, r2b [256 + 68]uint16) {
	n := rune(0)
	for b := 0; b < 256; b++ {
		printable := '!' <= b && b <= '~' || 0xA1 <= b && b <= 0xAC || 0xAE <= b && b <= 0xFF
		if printable {
			b2r[b] = rune(b)
		} else {
			b2r[b] = 256 + n
			n++
		}
		r2b[b2r[b]] = uint16(b) + 1
	}
	return b2r, r2b
}()

// unmapByteLevel turns a byte-mapped vocabulary string back into the bytes
// it stands for; ok is false if it holds a character outside the table.
func unmapByteLevel(s string) (raw string, ok bool) {
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
