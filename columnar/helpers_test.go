package columnar

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// words counts tokens as Python's len(text.split()): maximal runs of
// characters that are not str.isspace.
type words struct{}

func (words) Identity() string { return "test-words" }

func (words) CountsWhitespaceWords() {}

func (words) Count(text string) int {
	n := 0
	in := false
	for i := 0; i < len(text); {
		c := text[i]
		var sp bool
		if c < utf8.RuneSelf {
			sp = c == ' ' || c >= '\t' && c <= '\r' || c >= 0x1C && c <= 0x1F
			i++
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			sp = scan.PyIsSpace(r)
			i += size
		}
		if sp {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// sharedDir returns ../shared relative to the module root, skipping the
// test when it is absent.
func sharedDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "parity/runs")
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
