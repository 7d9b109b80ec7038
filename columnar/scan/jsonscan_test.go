package scan_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/scan/scantest"
)

// checkScanString scans `"`+body+tail at offset 1 of a line under every
// word loop (with AVX2 scanString finds quotes and backslashes in one
// vector pass) and checks each against the others and, for the end and
// the error, against encoding/json on the string alone (valid UTF-8
// bodies without raw control bytes, which json rejects and the scanner
// deliberately does not).
func checkScanString(t *testing.T, body, tail string) {
	t.Helper()
	line := []byte(`["` + body + tail)
	type result struct {
		end int
		esc bool
		err error
	}
	var rs []result
	var loops []string
	scantest.EachWordLoop(t, func(loop string) {
		var r result
		r.end, r.esc, r.err = scan.ScanString(line, 1)
		rs, loops = append(rs, r), append(loops, loop)
	})
	for k, r := range rs[1:] {
		if r != rs[0] {
			t.Fatalf("%q: %s %+v, %s %+v", line, loops[k+1], r, loops[0], rs[0])
		}
	}
	if strings.ContainsFunc(body+tail, func(r rune) bool { return r < 0x20 || r == 0xFFFD }) {
		return
	}
	var s string
	if rs[0].err == nil {
		if err := json.Unmarshal(line[1:rs[0].end], &s); err != nil {
			t.Fatalf("%q: scanned to %d, json: %v", line, rs[0].end, err)
		}
		if want := strings.ContainsRune(string(line[2:rs[0].end-1]), '\\'); rs[0].esc != want {
			t.Fatalf("%q: esc %v, want %v", line, rs[0].esc, want)
		}
	} else if tok, err := json.NewDecoder(bytes.NewReader(line[1:])).Token(); err == nil {
		t.Fatalf("%q: %v, json reads %q", line, rs[0].err, tok)
	}
}

// TestScanStringLoops: quotes, escapes (good, bad, cut short) and their
// absence at every offset of the 32-byte blocks, before the end of the
// line and at it.
func TestScanStringLoops(t *testing.T) {
	filler := strings.Repeat("abcdefghij", 8)
	pieces := []string{`"`, `\"`, `\\`, `\\"`, `\n`, `\b`, `\/`, `\t`, `\f`, `\r`, `\u00e9`, `\ud83d\ude00`, `\u12`, `\x`, `\`, "é", ""}
	for _, p := range pieces {
		for off := 0; off < 80; off++ {
			for _, tail := range []string{"", `"`, `"]`, `",` + filler} {
				checkScanString(t, filler[:off]+p, tail)
				checkScanString(t, p+filler[:off], tail)
			}
		}
	}
	rng := rand.New(rand.NewPCG(16, 4))
	for range 3000 {
		var sb strings.Builder
		for n := rng.IntN(30); n > 0; n-- {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
			sb.WriteString(filler[:rng.IntN(20)])
		}
		checkScanString(t, sb.String(), `"`+filler[:rng.IntN(40)])
	}
}

// FuzzScanString: any bytes scan alike under every word loop.
//
//	go test -run '^$' -fuzz FuzzScanString -fuzztime 60s ./columnar/
func FuzzScanString(f *testing.F) {
	f.Add(`abc\"def\\`, `"`)
	f.Add(strings.Repeat("x", 40)+`\u00`, "")
	f.Fuzz(func(t *testing.T, body, tail string) { checkScanString(t, body, tail) })
}
