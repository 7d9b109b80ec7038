package tokenizer

import "strings"

// byteRunes is GPT-2's bytes_to_unicode table, which HF's ByteLevel uses:
// printable Latin-1 bytes stand for themselves and the other 68 bytes are
// mapped, in order, to U+0100 onwards.
var byteRunes, runeBytes = func() (b2r [256]rune, r2b map[rune]byte) {
	r2b = make(map[rune]byte, 256)
	n := rune(0)
	for b := 0; b < 256; b++ {
		printable := '!' <= b && b <= '~' || 0xA1 <= b && b <= 0xAC || 0xAE <= b && b <= 0xFF
		if printable {
			b2r[b] = rune(b)
		} else {
			b2r[b] = 256 + n
			n++
		}
		r2b[b2r[b]] = byte(b)
	}
	return b2r, r2b
}()

// unmapByteLevel turns a byte-mapped vocabulary string back into the bytes
// it stands for; ok is false if it holds a character outside the table.
func unmapByteLevel(s string) (raw string, ok bool) {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		c, ok := runeBytes[r]
		if !ok {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}
