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
			if !valid {
				return
			}
			// Told the UTF-8 is valid, the loop counts alike without its check.
			run = before
			if end, err := scan.ScanWordsKnownUTF8(line, 1, &run, false); err != nil || end != len(body)+3 || run != want {
				t.Fatalf("%s known UTF-8: %q after %+v: end %d, %v\ngot  %+v\nwant %+v", loop, body, before, end, err, run, want)
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

// chunkWordsOracle is scan.ScanChunkWords the slow way: each string of
// the chunk list by scan.ScanStringWords into the same run (which appends
// its text to the run's: the concatenation), stepping over a separator
// that is exactly `,"`.
func chunkWordsOracle(line []byte, i int, run *scan.WordRun) (int, error) {
	for {
		end, err := scan.ScanStringWords(line, i, run)
		if err != nil || end+2 >= len(line) || line[end] != ',' || line[end+1] != '"' {
			return end, err
		}
		i = end + 1
	}
}

// checkChunkWords scans the chunk list line[1:] (line[0] == '[') with
// ScanChunkWords under every word loop and with chunkWordsOracle, and
// fails on a different end, error or UTF-8 verdict, or, on valid UTF-8,
// a different run. It returns the oracle's run and end.
func checkChunkWords(t *testing.T, line []byte, before scan.WordRun) (scan.WordRun, int) {
	t.Helper()
	want := before
	wantEnd, wantErr := chunkWordsOracle(line, 1, &want)
	valid := utf8.Valid(line)
	scantest.EachWordLoop(t, func(loop string) {
		run := before
		end, err := scan.ScanChunkWords(line, 1, &run)
		switch {
		case end != wantEnd || err != wantErr:
			t.Fatalf("%s: %q: end %d, %v; oracle %d, %v", loop, line, end, err, wantEnd, wantErr)
		case err == nil && run.BadUTF8 != want.BadUTF8:
			t.Fatalf("%s: %q: badUTF8 %v, oracle %v", loop, line, run.BadUTF8, want.BadUTF8)
		case err == nil && valid && run != want:
			t.Fatalf("%s: %q after %+v:\ngot    %+v\noracle %+v", loop, line, before, run, want)
		}
		if !valid {
			return
		}
		// Told the UTF-8 is valid, the loop scans alike without its check.
		run = before
		if end, err := scan.ScanWordsKnownUTF8(line, 1, &run, true); end != wantEnd || err != wantErr || err == nil && run != want {
			t.Fatalf("%s known UTF-8: %q after %+v: end %d, %v; oracle %d, %v\ngot    %+v\noracle %+v", loop, line, before, end, err, wantEnd, wantErr, run, want)
		}
	})
	return want, wantEnd
}

// TestScanChunkWordsLoops: chunk lists as a client that keeps every chunk
// writes them — many short strings (a word with its separator, a piece,
// an empty string, an escape alone) — and long ones, separated mostly by
// `","` and now and then otherwise (`", "`, a null), so that separators
// fall at every offset of the AVX2 loop's blocks, next to each other
// (empty chunks), across them and in its overlapping last block. Each loop
// must match chunkWordsOracle, and the oracle's run on valid UTF-8 must
// be the concatenation of each chunk's slow count (refStringRun).
func TestScanChunkWordsLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 7))
	var valid []string
	for _, p := range scantest.WordPieces {
		if utf8.ValidString(p) {
			valid = append(valid, p)
		}
	}
	// An escaped quote followed by `,"` looks like a separator (\","); past an
	// escape taken in the block (wordsAVX2 goes on from its masks) its
	// quote, and the string's end after it, must still stop the loop.
	for off := range 40 {
		for _, body := range []string{`\b\","000`, `\n\"," x`, `\\\"," y","z`} {
			checkChunkWords(t, []byte(`["`+strings.Repeat("w ", off)[:off]+body+`"]`+strings.Repeat(" ", 40)), scan.WordRun{})
		}
	}
	short := []string{"", " ", "a", "The", " the", " quick", ",", `,\",\"`, `\b\",\"0`, `\n`, `\n\n`, `\"`, "\u00a0", " 日本語", "—", `\u3000`, `\ud83d\ude00`}
	for i := range 4000 {
		pieces := valid
		if i%5 == 0 {
			pieces = scantest.WordPieces
		}
		var sb strings.Builder
		sb.WriteByte('[')
		var bodies []string // the chunks up to the first other separator
		open := true
		for n := 1 + rng.IntN(60); n > 0; n-- {
			var body strings.Builder
			switch r := rng.IntN(10); {
			case r < 6:
				body.WriteString(short[rng.IntN(len(short))])
			case r < 9:
				body.WriteString(" " + scantest.WordPieces[rng.IntN(len(scantest.WordPieces))] + pieces[rng.IntN(len(pieces))])
			default:
				for m := rng.IntN(30); m > 0; m-- {
					body.WriteString(pieces[rng.IntN(len(pieces))])
				}
			}
			sb.WriteString(`"` + body.String() + `"`)
			if open {
				bodies = append(bodies, body.String())
			}
			if n > 1 {
				sep := `,`
				switch rng.IntN(40) {
				case 0:
					sep = `, `
					open = false
				case 1:
					sep = `,null,`
					open = false
				}
				sb.WriteString(sep)
			}
		}
		sb.WriteString(`],null]}` + strings.Repeat(" ", rng.IntN(40)))
		line := []byte(sb.String())
		for _, before := range []scan.WordRun{{}, {Words: 1, Bytes: 1, Lead: true, Trail: true}, {Words: 1, Bytes: 2, Lead: true}} {
			got, end := checkChunkWords(t, line, before)
			joined := before
			ok := true
			for _, body := range bodies {
				ok = ok && utf8.ValidString(body)
				joined = joined.Then(refStringRun(body))
			}
			if ok && got != joined {
				t.Fatalf("%q after %+v: oracle %+v, chunks one by one %+v", line, before, got, joined)
			}
			wantEnd := 0 // '[' and each chunk's quotes and comma, less the last comma
			for _, body := range bodies {
				wantEnd += len(body) + 3
			}
			if end != wantEnd {
				t.Fatalf("%q: end %d, want %d (after %d chunks)", line, end, wantEnd, len(bodies))
			}
		}
	}
}

// FuzzScanChunkWords: any bytes as the inside of a chunk list (`["` body
// `"]`, so a `","` in the body separates chunks) scan to the same end,
// error, UTF-8 verdict and, on valid UTF-8, run under every word loop as
// under chunkWordsOracle.
//
//	go test -run '^$' -fuzz FuzzScanChunkWords -fuzztime 60s ./columnar/
func FuzzScanChunkWords(f *testing.F) {
	f.Add(`The"," quick"," brown"," fox","","\n"," jumps`, uint8(40))
	f.Add(`a","","","b\",\"c"," \u00a0","x`, uint8(0))
	f.Add(strings.Repeat(`w"," `, 30), uint8(7))
	f.Add("a\xe2\x80\",\"\x83 b", uint8(33))
	f.Fuzz(func(t *testing.T, body string, pad uint8) {
		line := []byte(`["` + body + `"]` + strings.Repeat(" ", int(pad%64)))
		checkChunkWords(t, line, scan.WordRun{})
	})
}
