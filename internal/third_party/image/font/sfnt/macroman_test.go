package sfnt

import (
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// steadysweep: TestMacintoshRoman holds macroman.go's table to
// golang.org/x/text's charmap.Macintosh, which it replaces: every byte
// decodes to the same text, and every rune encodes to the same byte
// (runes up to U+FFFF). Run here: go test ./font/sfnt/.
func TestMacintoshRoman(t *testing.T) {
	for b := 0; b < 256; b++ {
		want, err := charmap.Macintosh.NewDecoder().Bytes([]byte{'a', byte(b), 'z'})
		if err != nil {
			t.Fatal(err)
		}
		if got := macintoshDecode([]byte{'a', byte(b), 'z'}); got != string(want) {
			t.Errorf("byte %#x: decodes to %q, x/text %q", b, got, want)
		}
	}
	for r := rune(0); r <= 0xFFFF; r++ {
		wb, wok := charmap.Macintosh.EncodeRune(r)
		gb, gok := macintoshEncodeRune(r)
		if wb != gb || wok != gok {
			t.Errorf("rune %U: encodes to %#x %v, x/text %#x %v", r, gb, gok, wb, wok)
		}
	}
}
