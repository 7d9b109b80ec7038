package columnar

import (
	"bufio"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/scan/scantest"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// byteCounter is a TokenCounter that is not a WhitespaceWordCounter: the
// decoder must build the text for it (the real-tokenizer path).
type byteCounter struct{}

func (byteCounter) Identity() string      { return "test-bytes" }
func (byteCounter) Count(text string) int { return len(text) + strings.Count(text, " ") }

// lineResult is everything phase 1 makes of one line.
type lineResult struct {
	ok     bool
	ev     endpoints.Event
	issues []endpoints.LineIssue
	counts [endpoints.NumEvKinds]int64
	other  map[string]int64
}

// decoderModes are the counter settings the fast path must agree with the
// oracle under.
var decoderModes = []struct {
	name string
	mk   func() *endpoints.LineDecoder
}{
	{"words", func() *endpoints.LineDecoder {
		return &endpoints.LineDecoder{Counter: tokenizer.Words{}, Words: true, CountText: true, CountConvs: true}
	}},
	{"words-full", func() *endpoints.LineDecoder {
		return &endpoints.LineDecoder{Counter: tokenizer.Words{}, Words: true, CountText: true, CountFull: true}
	}},
	{"nocounter", func() *endpoints.LineDecoder { return &endpoints.LineDecoder{CountText: true, CountConvs: true} }},
	{"tokenizer", func() *endpoints.LineDecoder {
		return &endpoints.LineDecoder{Counter: byteCounter{}, CountText: true, CountConvs: true}
	}},
	{"deferred", func() *endpoints.LineDecoder {
		return &endpoints.LineDecoder{Counter: tokenizer.Words{}, Words: true, CountConvs: true}
	}},
}

func runLine(d *endpoints.LineDecoder, oracle bool, line []byte, last bool) lineResult {
	d.Issues, d.Counts, d.OtherTypes = nil, [endpoints.NumEvKinds]int64{}, nil
	var r lineResult
	if oracle {
		r.ok = decodeOracle(d, line, 7, last, &r.ev)
	} else {
		// The facts the line split would hand over, as decodeOne does.
		if i, facts := endpoints.LineStop(line); i == len(line) {
			d.Facts = facts
		}
		r.ok = d.Decode(line, 7, last, &r.ev)
	}
	r.issues, r.counts, r.other = d.Issues, d.Counts, d.OtherTypes
	return r
}

// checkAgainstOracle decodes one stripped line with the one-pass decoder
// and with the oracle under every mode and fails on any difference.
func checkAgainstOracle(t *testing.T, line []byte) { checkModes(t, line, len(decoderModes)) }

// checkModes checks the first n modes; a line with a syntax problem is
// also checked as an unterminated last line.
func checkModes(t *testing.T, line []byte, n int) {
	t.Helper()
	line = scan.PyStrip(line)
	if len(line) == 0 {
		return
	}
	for _, m := range decoderModes[:n] {
		for _, last := range []bool{false, true} {
			fast := runLine(m.mk(), false, line, last)
			want := runLine(m.mk(), true, line, last)
			if !reflect.DeepEqual(fast, want) {
				t.Fatalf("%s: line %q:\nfast   %+v\noracle %+v", m.name, line, fast, want)
			}
			if fast.ok || len(fast.issues) == 0 || fast.issues[len(fast.issues)-1].Kind != contract.KindSyntax {
				break
			}
		}
	}
}

// TestFastPathMatchesOracleEdges: payload shapes, escapes, whitespace of
// every class and invalid UTF-8, each checked against the oracle.
func TestFastPathMatchesOracleEdges(t *testing.T) {
	chunks := []string{
		`""`, `"a"`, `" "`, `"a b"`, `" a "`, `"\n"`, `"x\ny"`, `"\t\f\r\b"`, `"\u0020"`, `"\u00a0x"`,
		`"\u3000"`, `"\u2028\u2029"`, `"\u001c\u001f"`, `"\u000b"`, `"\ud83d\ude00 x"`, `"\ud83d"`, `"\ude00"`,
		`"\ud83d\u0020"`, `"\"\\\/"`, "\"caf\u00e9 \u00a0 \u2003 \u3000 \u0085x\"", "\"\xc2\x85\"", "\"\xe2\x80\"", "\"\x85 \"",
		"\"\xff\xfe\"", "\"tab\there\"", "\"\x0b\x1c\"", `"12345678 abcdefgh ijklmnop"`, `"        "`,
		`"aaaaaaaa bbbbbbbb\ncccccccc"`, "\"\xe2\x80\x83\xe2\x80\x83\"", `"\u"`, `"\x"`, `"abc`,
		`1`, `null`, `true`, `[]`, `{}`, `["n"]`, `{"a":"b"}`,
	}
	var outputs, reasonings []string
	for _, c := range chunks {
		outputs = append(outputs, c)
	}
	for i := range chunks {
		a, b := chunks[i], chunks[(i*7+3)%len(chunks)]
		outputs = append(outputs, "["+a+"]", "["+a+","+b+"]", "[ "+b+" , "+a+" , "+a+" ]", "[]")
		reasonings = append(reasonings, "["+a+","+b+"]", "["+b+"]", a, "null")
	}
	for i, o := range outputs {
		for j := 0; j < len(reasonings); j += 5 {
			r := reasonings[(i+j)%len(reasonings)]
			for _, data := range []string{
				`["TextModelOutput",` + o + `,` + r + `,null]`,
				`["TextModelOutput",` + o + `]`,
				`["TextModelOutput" , ` + o + ` , ` + r + ` , [{"name":"f","arguments":"{}"}]]`,
				`[` + o + `,` + r + `]`,
			} {
				checkAgainstOracle(t, []byte(evLine("sample.complete", 1500, u1, `"turn":null,"data":`+data)))
				checkAgainstOracle(t, []byte(`{"data":`+data+`,"event_type":"sample.complete","timestamp_ns":5,"sample_uuid":"`+u1+`"}`))
			}
		}
	}
	for _, line := range []string{
		`{"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `","data":["T",["a","b"]],"data":["T",["c"," d e"]]}`,
		`{"event_type":"sample.complete","data":["T",["a"," b"]],"event_type":"sample.issued","timestamp_ns":1,"sample_uuid":"` + u1 + `"}`,
		`{"event_type":"x","data":["T",["a"," b"]],"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `"}`,
		`{"event_type":"sample\u002ecomplete","timestamp_ns":1,"sample_uuid":"` + u1 + `","data":["T",["a"," b"]]}`,
		`{"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `","data":"str"}`,
		`{"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `","data":[]}`,
		`{"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `","data":["T",["a"," b"]`,
		`{"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `","data":["T",["a"," b"],]}`,
		`{"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `","data":["T",["a" " b"]]}`,
		"{\"event_type\":\"sample.complete\",\"timestamp_ns\":1,\"sample_uuid\":\"" + u1 + "\",\"data\":[\"T\",[\"a\xe2\x80\",\"\x83b\"]]}",
		"{\"event_type\":\"sample.complete\",\"timestamp_ns\":1,\"sample_uuid\":\"" + u1 + "\",\"data\":[\"T\",[\"a\xc2\",\"\xa0b\"]],\"x\":\"\xff\"}",
		`{"event_type":"sample.complete","timestamp_ns":1,"sample_uuid":"` + u1 + `","conversation_id":"c","data":["T",["a"," b"],["r1"," r2"],[{"x":1}]]}`,
		lnIssue1, lnFirst1, lnDone1, lnStart, lnEnded, "[1]", "{}", `{"a":1} x`, "\x00", "\xef\xbb\xbf{}",
	} {
		checkAgainstOracle(t, []byte(line))
	}
}

// TestFastPathMatchesOracleCorpora checks every line of the shared parity
// and accuracy runs (real writer output: reasoning parts, string outputs,
// tool calls, escapes) against the oracle.
func TestFastPathMatchesOracleCorpora(t *testing.T) {
	var files []string
	shared := sharedtest.Dir(t, "parity/runs")
	for _, sub := range []string{"parity/runs", "accuracy/runs"} {
		m, _ := filepath.Glob(filepath.Join(shared, sub, "*", "events.jsonl*"))
		files = append(files, m...)
	}
	if len(files) < 18 {
		t.Fatalf("found %d event logs, want the 18 parity runs and more", len(files))
	}
	lines := 0
	for _, path := range files {
		f, err := contract.OpenEvents(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			checkModes(t, sc.Bytes(), 3) // words, words-full, no counter
			lines++
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d lines of %d logs agree", lines, len(files))
}

// TestFastPathMatchesOracleLongChunks: COMPLETE lines whose chunks are
// long mixes of scantest.WordPieces (so the AVX2 word loop runs, with escapes and
// characters across its blocks), as output and reasoning chunks, checked
// against the oracle under every word loop.
func TestFastPathMatchesOracleLongChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	var valid []string // most lines valid UTF-8, so that the counts matter
	for _, p := range scantest.WordPieces {
		if utf8.ValidString(p) {
			valid = append(valid, p)
		}
	}
	pieces := valid
	chunk := func() string {
		var sb strings.Builder
		sb.WriteByte('"')
		for n := rng.IntN(40); n > 0; n-- {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		sb.WriteByte('"')
		return sb.String()
	}
	for i := range 400 {
		pieces = valid
		if i%4 == 0 {
			pieces = scantest.WordPieces
		}
		o := "[" + chunk() + "," + chunk() + "," + chunk() + "]"
		r := []string{"null", "[" + chunk() + "," + chunk() + "]", chunk()}[rng.IntN(3)]
		line := []byte(evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput",`+o+`,`+r+`,null]`))
		scantest.EachWordLoop(t, func(string) { checkModes(t, line, 2) })
	}
}

// TestFastPathMatchesOracleManyChunks: COMPLETE lines whose output (or
// reasoning) is a list of many short chunks, as a client that keeps every
// chunk writes it (one word with its separator a chunk, empty chunks,
// escapes and Unicode spaces alone in a chunk, now and then a long one),
// so that scan.ScanChunkWords takes many separators a block; checked
// against the oracle (the chunks decoded, joined and counted as Python's
// str.split() counts) under every word loop.
func TestFastPathMatchesOracleManyChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 3))
	short := []string{"", " ", "The", " the", " quick", `\n`, `\n\n`, `.\n`, `\"`, "\u00a0", " 日本語", " —", `\u3000`, `\ud83d\ude00`, "\u0085", `\u001c`, "\u2029"}
	var long []string // the pieces a valid line can hold
	for _, p := range scantest.WordPieces {
		if utf8.ValidString(p) && !strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 }) {
			long = append(long, p)
		}
	}
	list := func(n int) string {
		var sb strings.Builder
		sb.WriteByte('[')
		for k := range n {
			if k > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte('"')
			if rng.IntN(20) == 0 {
				for m := rng.IntN(40); m > 0; m-- {
					sb.WriteString(long[rng.IntN(len(long))])
				}
			} else {
				sb.WriteString(short[rng.IntN(len(short))])
			}
			sb.WriteByte('"')
		}
		sb.WriteByte(']')
		return sb.String()
	}
	counted := 0
	for range 300 {
		o := list(1 + rng.IntN(120))
		r := []string{"null", list(1 + rng.IntN(40)), `""`}[rng.IntN(3)]
		line := []byte(evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput",`+o+`,`+r+`,null]`))
		scantest.EachWordLoop(t, func(string) { checkModes(t, line, 2) })
		if res := runLine(decoderModes[0].mk(), true, line, false); res.ok && len(res.issues) == 0 {
			counted++
		}
	}
	if counted < 300 { // every line is valid: the counts, not problems, were compared
		t.Fatalf("%d of 300 lines decoded without a problem", counted)
	}
}

// FuzzFastPathLine: any line decodes to the same event, problems and
// counts as under the oracle, in every counter mode.
//
//	go test -run '^$' -fuzz FuzzFastPathLine -fuzztime 60s ./columnar/
func FuzzFastPathLine(f *testing.F) {
	for _, s := range []string{
		lnIssue1, lnFirst1, lnDone1, lnEnded, "[1,2]", "{\"a\":NaN}",
		`{"event_type":"sample.complete","timestamp_ns":1500,"sample_uuid":"` + u1 + `","data":["TextModelOutput","O",["r1","r2"],[{"a":1.5e300,"b":"é\u2028"}]]}`,
		`{"event_type":"sample.complete","timestamp_ns":-0,"sample_uuid":"` + u1 + `","data":["T",[1,{"x":[]}],true]}`,
		"{\"event_type\":\"sample.complete\",\"timestamp_ns\":1,\"sample_uuid\":\"" + u1 + "\",\"data\":[\"T\",[\"a\xe2\x80\",\"\x83b\"]]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkAgainstOracle(t, line)
	})
}

// FuzzFastPathChunks builds COMPLETE payloads from fuzzed chunk bodies
// (raw bytes between quotes: escapes, any UTF-8 or none) in the shapes
// the writer uses, and checks them against the oracle.
//
//	go test -run '^$' -fuzz FuzzFastPathChunks -fuzztime 60s ./columnar/
func FuzzFastPathChunks(f *testing.F) {
	f.Add("The", " article\\n argues", "r", uint8(0))
	f.Add("\\ud83d", "\\ude00 x\\u00a0", "", uint8(3))
	f.Add("a\xe2\x80", "\x83 b", "\\u3000", uint8(1))
	f.Add("  ", "\\t", "x y", uint8(6))
	f.Fuzz(func(t *testing.T, a, b, c string, shape uint8) {
		q := func(s string) string { return `"` + s + `"` }
		outputs := []string{"[" + q(a) + "," + q(b) + "]", q(a + b), "[" + q(a) + "," + q(b) + "," + q(c) + "]", "[" + q(a) + "]"}
		reasonings := []string{"null", "[" + q(c) + "," + q(a) + "]", q(c), "[" + q(b) + "]"}
		o, r := outputs[int(shape)%len(outputs)], reasonings[int(shape/4)%len(reasonings)]
		line := evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput",`+o+`,`+r+`,null]`)
		checkAgainstOracle(t, []byte(line))
		if utf8.ValidString(line) {
			checkAgainstOracle(t, []byte(strings.Replace(line, `"conversation_id":""`, `"conversation_id":"c"`, 1)))
		}
		// The chunks again, long (each body three times, so that the
		// AVX2 loop runs across them), under every word loop.
		long := func(s string) string { return s + " " + s + s }
		a, b, c = long(a), long(b), long(c)
		outputs = []string{"[" + q(a) + "," + q(b) + "]", q(a + b), "[" + q(a) + "," + q(b) + "," + q(c) + "]", "[" + q(a) + "]"}
		reasonings = []string{"null", "[" + q(c) + "," + q(a) + "]", q(c), "[" + q(b) + "]"}
		o, r = outputs[int(shape)%len(outputs)], reasonings[int(shape/4)%len(reasonings)]
		line = evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput",`+o+`,`+r+`,null]`)
		scantest.EachWordLoop(t, func(string) { checkModes(t, []byte(line), 2) })
	})
}
