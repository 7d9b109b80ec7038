package tokenizer

import "unicode/utf8"

// A Counter counts the tokens of a text. Implementations are safe for
// concurrent use.
type Counter interface {
	// Count returns the number of tokens in text.
	Count(text string) int
	// Identity names the counting rule exactly, for keying caches of
	// counts: "words", or "sha256:<hex>" of a tokenizer.json.
	Identity() string
}

// Words counts whitespace-separated words, exactly Python's
// len(text.split()). It is an approximation of tokens, used for parity
// with the reference detector, whose tests count this way.
type Words struct{}

var _ Counter = Words{}

// Identity returns "words".
func (Words) Identity() string { return "words" }

// CountsWhitespaceWords marks Words as columnar.WhitespaceWordCounter:
// the decoder counts its words on the escaped JSON bytes of a line.
func (Words) CountsWhitespaceWords() {}

// Count returns the number of maximal runs of characters that are not
// Python whitespace. Bytes that are not UTF-8 count as non-space, as the
// U+FFFD a decoder would put in their place.
func (Words) Count(text string) int {
	n := 0
	inWord := false
	for i := 0; i < len(text); {
		c := text[i]
		var space bool
		if c < utf8.RuneSelf {
			space = asciiPythonSpace[c]
			i++
		} else {
			r, w := utf8.DecodeRuneInString(text[i:])
			space = isPythonSpace(r)
			i += w
		}
		if !space && !inWord {
			n++
		}
		inWord = !space
	}
	return n
}

// asciiPythonSpace marks the ASCII characters str.isspace accepts: \t \n
// \v \f \r, the separators U+001C–U+001F (which Go's unicode.IsSpace
// rejects) and space.
var asciiPythonSpace = [utf8.RuneSelf]bool{
	'\t': true, '\n': true, '\v': true, '\f': true, '\r': true,
	0x1C: true, 0x1D: true, 0x1E: true, 0x1F: true, ' ': true,
}

// isPythonSpace is str.isspace for non-ASCII code points: bidirectional
// class WS, B or S, or category Zs.
func isPythonSpace(r rune) bool {
	switch r {
	case 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}
