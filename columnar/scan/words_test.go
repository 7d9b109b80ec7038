package scan_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/scan/scantest"
)

// TestWordLoopsAvailable: on amd64 with AVX2 the tests below do run the
// AVX2 loop (a test that checks nothing would pass if it were never
// selected).
func TestWordLoopsAvailable(t *testing.T) {
	var ran []string
	scantest.EachWordLoop(t, func(loop string) { ran = append(ran, loop) })
	if ran[len(ran)-1] != "swar" {
		t.Fatalf("loops %v: the SWAR fallback did not run", ran)
	}
	t.Logf("word loops on this machine: %v", ran)
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
		scantest.EachWordLoop(t, func(loop string) {
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
	for _, p := range scantest.WordPieces {
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
			sb.WriteString(scantest.WordPieces[rng.IntN(len(scantest.WordPieces))])
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
	for _, p := range scantest.WordPieces {
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
		scantest.EachWordLoop(t, func(loop string) {
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
