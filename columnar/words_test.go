package columnar

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

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

// eachWordLoop calls fn under every word loop the machine has, with the
// loop's name, and restores the machine's choice after.
func eachWordLoop(tb testing.TB, fn func(loop string)) {
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

// TestWordLoopsAvailable: on amd64 with AVX2 the tests below do run the
// AVX2 loop (a test that checks nothing would pass if it were never
// selected).
func TestWordLoopsAvailable(t *testing.T) {
	var ran []string
	eachWordLoop(t, func(loop string) { ran = append(ran, loop) })
	if ran[len(ran)-1] != "swar" {
		t.Fatalf("loops %v: the SWAR fallback did not run", ran)
	}
	t.Logf("word loops on this machine: %v", ran)
}

// wordPieces are bits of JSON string bodies: ASCII words and spaces, raw
// control bytes, every escape, Unicode spaces and non-spaces whose UTF-8
// starts with the bytes the AVX2 loop stops at (0xC2, 0xE1, 0xE2, 0xE3) or
// not, four-byte characters and invalid UTF-8 of each kind (lone and
// truncated, overlong, surrogate, too large).
var wordPieces = []string{
	"a", "word", " ", "  ", "the quick brown fox jumps over a lazy dog ", "\t", "\x01", "\x1f",
	`\n`, `\t`, `\r`, `\f`, `\b`, `\"`, `\\`, `\/`, `\u0020`, `\u00a0`, `\u3000`, `\u0041`, `\u00e9`,
	`\ud83d\ude00`, `\ud83d`, `\ude00`, `\ud83d\u0020`,
	"é", "日本語", "—", "→", "x²", "\u00a0", "\u0085", "\u1680", "\u2003", "\u200a", "\u200b", "\u2010",
	"\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u3001", "😀", "\u00c2",
	"\xff", "\x80", "\xe2\x80", "\xc2", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe0\x80\xaf",
	"\xf0\x80\x80\x80", "\xe6\x97",
}

// refStringRun is the word run of the JSON string body (raw bytes between
// the quotes, valid escapes) computed the slow way: unescaped, then split
// as Python's str.split() splits.
func refStringRun(body string) scan.WordRun {
	line := []byte(`"` + body + `"`)
	text := string(scan.AppendUnescaped(nil, line, scan.Value{Kind: scan.VString, Esc: true, Start: 0, End: len(line)}))
	run := scan.WordRun{Words: len(strings.FieldsFunc(text, scan.PyIsSpace)), Bytes: len(text)}
	if text != "" {
		first, _ := utf8.DecodeRuneInString(text)
		last, _ := utf8.DecodeLastRuneInString(text)
		run.Lead, run.Trail = !scan.PyIsSpace(first), !scan.PyIsSpace(last)
	}
	return run
}

// checkStringWords scans body as a string inside a line (followed by
// tail) after each kind of run before it, under every word loop, against
// refStringRun; on invalid UTF-8 only badUTF8 is checked (the decoder then
// counts the joined text instead).
func checkStringWords(t *testing.T, body, tail string) {
	t.Helper()
	line := []byte(`["` + body + `"` + tail)
	valid := utf8.ValidString(body)
	ref := refStringRun(body)
	for _, before := range []scan.WordRun{{}, {Words: 1, Bytes: 1, Lead: true, Trail: true}, {Words: 1, Bytes: 2, Lead: true}} {
		want := before.Then(ref)
		eachWordLoop(t, func(loop string) {
			run := before
			end, err := scan.ScanStringWords(line, 1, &run)
			switch {
			case err != nil || end != len(body)+3:
				t.Fatalf("%s: %q+%q: end %d, %v; want %d", loop, body, tail, end, err, len(body)+3)
			case run.BadUTF8 == valid:
				t.Fatalf("%s: %q: badUTF8 %v, want %v", loop, body, run.BadUTF8, !valid)
			case valid && run != want:
				t.Fatalf("%s: %q after %+v:\ngot  %+v\nwant %+v", loop, body, before, run, want)
			}
		})
	}
}

// TestScanStringWordsLoops puts every piece at every offset of a 32-byte
// block (so escapes and characters straddle the AVX2 loop's blocks and its
// overlapping last block), then random mixes of pieces, and checks each
// loop against the slow count.
func TestScanStringWordsLoops(t *testing.T) {
	filler := "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod"
	for _, p := range wordPieces {
		for off := 0; off < 70; off++ {
			pre := filler[:off%len(filler)]
			for _, tail := range []string{"]", ",null]}" + strings.Repeat(" ", 40)} {
				checkStringWords(t, pre+p+filler[:off/2], tail)
				checkStringWords(t, pre+p, tail)
				checkStringWords(t, pre+p+p+" "+p, tail)
			}
		}
	}
	rng := rand.New(rand.NewPCG(16, 22))
	for range 3000 {
		var sb strings.Builder
		for n := 1 + rng.IntN(60); n > 0; n-- {
			sb.WriteString(wordPieces[rng.IntN(len(wordPieces))])
		}
		checkStringWords(t, sb.String(), ",null]}"+strings.Repeat(" ", rng.IntN(40)))
	}
}

// FuzzScanStringWords: any body (escapes, quotes, any bytes) scans to the
// same end and error and the same UTF-8 verdict under every word loop,
// and to the same run when it is valid UTF-8; a body that scans as one
// whole valid string also matches the slow count.
//
//	go test -run '^$' -fuzz FuzzScanStringWords -fuzztime 60s ./columnar/
func FuzzScanStringWords(f *testing.F) {
	for _, p := range wordPieces {
		f.Add(strings.Repeat("ab ", 10)+p+" x", uint8(40))
	}
	f.Add(`aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"`, uint8(0))
	f.Fuzz(func(t *testing.T, body string, pad uint8) {
		line := []byte(`["` + body + `"]` + strings.Repeat(" ", int(pad%64)))
		type result struct {
			loop string
			end  int
			err  error
			run  scan.WordRun
		}
		var rs []result
		eachWordLoop(t, func(loop string) {
			r := result{loop: loop}
			r.end, r.err = scan.ScanStringWords(line, 1, &r.run)
			rs = append(rs, r)
		})
		first, valid := rs[0], utf8.ValidString(body)
		for _, r := range rs[1:] {
			if r.end != first.end || r.err != first.err || r.err == nil && r.run.BadUTF8 != first.run.BadUTF8 ||
				valid && r.run != first.run {
				t.Fatalf("%q: %s %+v, %s %+v", body, r.loop, r, first.loop, first)
			}
		}
		if first.err == nil && first.end == len(body)+3 && utf8.ValidString(body) {
			if want := refStringRun(body); first.run != want {
				t.Fatalf("%q: %+v, want %+v", body, first.run, want)
			}
		}
	})
}
