package endpoints_test

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/scan/scantest"
)

// splitLine is one line as forEachLine reports it.
type splitLine struct {
	text   string
	lineNo int64
	last   bool
}

// refSplit splits buf the slow way: \r\n, then lone \r, rewritten as \n,
// then split at \n (Python's universal newlines); a last line without a
// terminator is last when final.
func refSplit(buf string, final bool) (lines []splitLine, lastCut bool) {
	norm := strings.ReplaceAll(strings.ReplaceAll(buf, "\r\n", "\n"), "\r", "\n")
	if norm == "" {
		return nil, false
	}
	parts := strings.Split(norm, "\n")
	terminated := strings.HasSuffix(norm, "\n")
	if terminated {
		parts = parts[:len(parts)-1]
	}
	for i, p := range parts {
		l := splitLine{text: p, lineNo: int64(i + 1)}
		if i == len(parts)-1 && !terminated && final {
			l.last, lastCut = true, p != ""
		}
		lines = append(lines, l)
	}
	return lines, lastCut
}

// checkSplit runs forEachLine over buf under every word loop (the AVX2
// one also scans the lines) against refSplit, and checks that any facts
// it reports are the line's.
func checkSplit(t *testing.T, buf string, final bool) {
	t.Helper()
	want, wantCut := refSplit(buf, final)
	scantest.EachWordLoop(t, func(loop string) {
		var got []splitLine
		n, cut := endpoints.ForEachLine([]byte(buf), final, func(line []byte, lineNo int64, last bool, facts endpoints.LineFacts) {
			got = append(got, splitLine{string(line), lineNo, last})
			if facts&endpoints.FactsKnown == 0 {
				return
			}
			high := bytes.ContainsFunc(line, func(r rune) bool { return r >= 0x80 })
			bad := !utf8.Valid(line)
			if nul := bytes.IndexByte(line, 0) >= 0; facts&endpoints.FactNUL != 0 != nul || facts&endpoints.FactHigh != 0 != high ||
				facts&endpoints.FactBadUTF8 != 0 != bad {
				t.Fatalf("%s: line %q: facts %b, want NUL %v, high %v, bad UTF-8 %v", loop, line, facts, nul, high, bad)
			}
		})
		if !reflect.DeepEqual(got, want) || cut != wantCut || n != int64(len(want)) {
			t.Fatalf("%s: %q (final %v):\ngot  %d %v %+v\nwant %d %v %+v", loop, buf, final, n, cut, got, len(want), wantCut, want)
		}
	})
}

// TestForEachLineLoops: line ends of every kind, NULs and bytes 0x80 and
// up at every offset of the AVX2 scan's 32-byte blocks and its byte-wise
// tail, against refSplit.
func TestForEachLineLoops(t *testing.T) {
	for _, buf := range []string{"", "\n", "\r", "\r\n", "\n\r", "a", "a\n", "a\r", "a\r\n", "a\r\rb", "a\r\r\n", "\r\n\r\n", "a\nb"} {
		checkSplit(t, buf, false)
		checkSplit(t, buf, true)
	}
	alphabet := []string{"a", "b", " ", "\n", "\r", "\r\n", "\x00", "é", "\xff", "\x80", strings.Repeat("x", 31),
		// UTF-8 at the edges: three- and four-byte characters, their
		// parts alone, and each kind of invalid sequence (overlong,
		// surrogate, above U+10FFFF, a stray continuation, a cut lead).
		"日本", "\xe2\x80\x83", "\xe2\x80", "\xe2", "\xf0\x9f\x98\x80", "\xf0\x9f\x98", "\xf0\x9f", "\xf0",
		"\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xed\x9f\xbf", "\xf4\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf5\x80\x80\x80", "\xc2"}
	filler := strings.Repeat("0123456789", 8)
	for _, p := range alphabet {
		for off := 0; off < 70; off++ {
			checkSplit(t, filler[:off]+p+filler[:70-off], true)
			checkSplit(t, filler[:off]+p, false)
		}
	}
	rng := rand.New(rand.NewPCG(16, 3))
	for range 2000 {
		var sb strings.Builder
		for n := rng.IntN(50); n > 0; n-- {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		checkSplit(t, sb.String(), rng.IntN(2) == 0)
	}
}

// FuzzForEachLine: any block splits as refSplit splits it, with true
// facts, under every word loop.
//
//	go test -run '^$' -fuzz FuzzForEachLine -fuzztime 60s ./columnar/
func FuzzForEachLine(f *testing.F) {
	f.Add("a\r\nb\rc\n\x00é", true)
	f.Add(strings.Repeat("x", 40)+"\r"+strings.Repeat("\xe2\x80\x83", 20), false)
	f.Add(strings.Repeat("x", 30)+"\xf0\x9f\x98\x80\xed\xa0\x80"+strings.Repeat("é", 20)+"\xe2\x80", true)
	f.Fuzz(func(t *testing.T, buf string, final bool) { checkSplit(t, buf, final) })
}
