// Package scantest holds what the tests of the scanners and of the
// decoders over them share: the word loops to run a check under, and
// string bodies that exercise them.
package scantest

import (
	"testing"

	"github.com/steadysweep/steadysweep/columnar/scan"
)

// wordLoops are the loops scanStringWords can count with, fastest first:
// AVX2 (words_amd64.s; non-ASCII text and two-byte escapes in the loop),
// SSE2 and SWAR (printable ASCII only). The tests of the counter run
// under every one this machine has, so the fallbacks stay tested on a
// machine with AVX2.
var wordLoops = []struct {
	name       string
	avx2, sse2 bool
}{{"avx2", true, true}, {"sse2", false, true}, {"swar", false, false}}

// EachWordLoop calls fn under every word loop the machine has, with the
// loop's name, and restores the machine's choice after.
func EachWordLoop(tb testing.TB, fn func(loop string)) {
	avx2, sse2 := scan.HaveWordsAVX2, scan.HaveWordsSSE2
	defer func() { scan.HaveWordsAVX2, scan.HaveWordsSSE2 = avx2, sse2 }()
	for _, l := range wordLoops {
		if l.avx2 && !avx2 || l.sse2 && !sse2 {
			continue
		}
		scan.HaveWordsAVX2, scan.HaveWordsSSE2 = l.avx2, l.sse2
		fn(l.name)
	}
}

// WordPieces are bits of JSON string bodies: ASCII words and spaces, raw
// control bytes, every escape, Unicode spaces and non-spaces whose UTF-8
// starts with the bytes the AVX2 loop stops at (0xC2, 0xE1, 0xE2, 0xE3) or
// not, four-byte characters and invalid UTF-8 of each kind (lone and
// truncated, overlong, surrogate, too large).
var WordPieces = []string{
	"a", "word", " ", "  ", "the quick brown fox jumps over a lazy dog ", "\t", "\x01", "\x1f",
	`\n`, `\t`, `\r`, `\f`, `\b`, `\"`, `\\`, `\/`, `\u0020`, `\u00a0`, `\u3000`, `\u0041`, `\u00e9`,
	`\ud83d\ude00`, `\ud83d`, `\ude00`, `\ud83d\u0020`,
	"é", "日本語", "—", "→", "x²", "\u00a0", "\u0085", "\u1680", "\u2003", "\u200a", "\u200b", "\u2010",
	"\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u3001", "😀", "\u00c2",
	"\xff", "\x80", "\xe2\x80", "\xc2", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe0\x80\xaf",
	"\xf0\x80\x80\x80", "\xe6\x97",
}
