package columnar

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// Event line builders in the current wire format (event-log spec §1.5).
func evLine(typ string, ts int64, uuid string, extra string) string {
	if extra == "" {
		extra = `"turn":null,"data":null`
	}
	return fmt.Sprintf(`{"event_type":%q,"timestamp_ns":%d,"sample_uuid":%q,"conversation_id":"",%s}`, typ, ts, uuid, extra)
}

const (
	u1 = "00000000000000000000000000000001"
	u2 = "00000000000000000000000000000002"
)

var (
	lnStart  = evLine("session.start_performance_tracking", 10, "", "")
	lnEnded  = evLine("session.ended", 99999, "", "")
	lnIssue1 = evLine("sample.issued", 1000, u1, `"turn":null,"data":["PromptData","p",null,null,null,null,null,null]`)
	lnFirst1 = evLine("sample.recv_first", 1100, u1, "")
	lnDone1  = evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput",["a"," b c"],null,null]`)
	lnIssue2 = evLine("sample.issued", 2000, u2, `"turn":null,"data":["PromptData","q",null,null,null,null,null,null]`)
	lnFirst2 = evLine("sample.recv_first", 2100, u2, "")
	lnDone2  = evLine("sample.complete", 2900, u2, `"turn":null,"data":["TextModelOutput",["x"," y z w"],null,null]`)
)

func decodeString(t testing.TB, in string, workers int) *contract.Decoded {
	t.Helper()
	var d contract.Decoded
	err := endpoints.DecodeReader(context.Background(), strings.NewReader(in),
		endpoints.DecodeOptions{Name: "events.jsonl", Counter: tokenizer.Words{}, Workers: workers, BlockSize: 97}, &d)
	if err != nil {
		t.Fatal(err)
	}
	return &d
}

func joinLines(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// TestDecodeMalformed: each bad input is reported with file, line and
// field, and the sample after it is still ingested.
func TestDecodeMalformed(t *testing.T) {
	tests := []struct {
		name    string
		bad     string // inserted as line 5, after sample 1
		kind    contract.Kind
		field   string
		samples int // tracked samples expected
	}{
		{name: "Garbage", bad: `not json at all`, kind: contract.KindSyntax, samples: 2},
		{name: "ExtraData", bad: lnIssue2 + ` x`, kind: contract.KindSyntax, samples: 2},
		{name: "BOM", bad: "\xEF\xBB\xBF" + evLine("sample.issued", 1700, "00000000000000000000000000000003", ""), kind: contract.KindBOM, samples: 2},
		{name: "NotObject", bad: `[1,2,3]`, kind: contract.KindNotObject, samples: 2},
		{name: "NotObjectString", bad: `"sample.issued"`, kind: contract.KindNotObject, samples: 2},
		{name: "NULByte", bad: `{"event_type":"sample.issued","timestamp_ns":1700,"sample_uuid":"abc` + "\x00" + `","data":null}`, kind: contract.KindNUL, samples: 2},
		{name: "StringTimestamp", bad: `{"event_type":"sample.issued","timestamp_ns":"1700","sample_uuid":"00000000000000000000000000000003","data":null}`, kind: contract.KindFieldType, field: "timestamp_ns", samples: 2},
		{name: "StringTurn", bad: `{"event_type":"sample.recv_first","timestamp_ns":1700,"sample_uuid":"00000000000000000000000000000009","turn":"2","data":null}`, kind: contract.KindFieldType, field: "turn", samples: 2},
		{name: "ArrayUUID", bad: `{"event_type":"sample.complete","timestamp_ns":1700,"sample_uuid":["x"],"data":null}`, kind: contract.KindFieldType, field: "sample_uuid", samples: 2},
		{name: "NonStringEventType", bad: `{"event_type":7,"timestamp_ns":1700,"sample_uuid":"","data":null}`, kind: contract.KindFieldType, field: "event_type", samples: 2},
		{name: "NullTimestamp", bad: `{"event_type":"sample.issued","timestamp_ns":null,"sample_uuid":"00000000000000000000000000000003","data":null}`, kind: contract.KindMissingField, field: "timestamp_ns", samples: 2},
		{name: "EmptyUUID", bad: evLine("sample.issued", 1700, "", ""), kind: contract.KindMissingField, field: "sample_uuid", samples: 2},
		{name: "MissingEventType", bad: `{"timestamp_ns":1700}`, kind: contract.KindMissingField, field: "event_type", samples: 2},
		{name: "InvalidUTF8", bad: evLine("sample.issued", 1700, "00000000000000000000000000000003", `"turn":null,"data":["PromptData","caf`+"\xff\xfe"+`",null]`), kind: contract.KindInvalidUTF8, samples: 3},
		{name: "NonStringChunk", bad: evLine("sample.issued", 1700, "00000000000000000000000000000003", "") + "\n" +
			evLine("sample.recv_first", 1710, "00000000000000000000000000000003", "") + "\n" +
			evLine("sample.complete", 1800, "00000000000000000000000000000003", `"turn":null,"data":["TextModelOutput",["a",5],null,null]`),
			kind: contract.KindFieldType, field: "data", samples: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := joinLines(lnStart, lnIssue1, lnFirst1, lnDone1, tt.bad, lnIssue2, lnFirst2, lnDone2, lnEnded)
			for _, workers := range []int{1, 2} {
				d := decodeString(t, in, workers)
				p := d.Summary.Problem(tt.kind)
				if p.Count != 1 {
					t.Fatalf("workers=%d: %s problems = %d, want 1; all: %v", workers, tt.kind, p.Count, d.Summary.Warnings())
				}
				e := p.First[0]
				wantLine := 5
				if tt.name == "NonStringChunk" {
					wantLine = 7
				}
				if e.File != "events.jsonl" || e.Line != wantLine || e.Field != tt.field || !errors.Is(e, tt.kind.Err()) {
					t.Errorf("problem = %#v (%v), want events.jsonl line %d field %q %v", e, e, wantLine, tt.field, tt.kind.Err())
				}
				if msg := e.Error(); !strings.Contains(msg, fmt.Sprintf("events.jsonl:%d", wantLine)) {
					t.Errorf("message %q does not name file and line", msg)
				}
				if got := d.Samples.Len(); got != tt.samples {
					t.Errorf("samples = %d, want %d", got, tt.samples)
				}
				// The sample after the bad line is complete, with its 3 words after the first chunk.
				last := d.Samples.Len() - 1
				if d.UUID(last) != u2 || !d.Samples.HasComplete[last] || d.Samples.OutTokens[last] != 3 || d.Samples.LatencyNs[last] != 900 {
					t.Errorf("sample after the bad line: uuid %s complete %v tokens %d latency %d",
						d.UUID(last), d.Samples.HasComplete[last], d.Samples.OutTokens[last], d.Samples.LatencyNs[last])
				}
				if d.Summary.Truncated {
					t.Errorf("truncated: %s", d.Summary.TruncatedReason)
				}
			}
		})
	}
}

func TestDecodeTruncatedLastLine(t *testing.T) {
	in := joinLines(lnStart, lnIssue1, lnFirst1, lnDone1) + `{"event_type":"sample.iss`
	d := decodeString(t, in, 2)
	p := d.Summary.Problem(contract.KindTruncatedLine)
	if p.Count != 1 || p.First[0].Line != 5 {
		t.Fatalf("truncated-line problem = %+v", p)
	}
	if !d.Summary.Truncated || d.Summary.TruncatedReason != "last line has no newline" {
		t.Errorf("Truncated = %v %q", d.Summary.Truncated, d.Summary.TruncatedReason)
	}
	if d.Samples.Len() != 1 || d.Samples.OutTokens[0] != 2 {
		t.Errorf("samples %d tokens %v", d.Samples.Len(), d.Samples.OutTokens)
	}
}

func TestDecodeNoSessionEnded(t *testing.T) {
	d := decodeString(t, joinLines(lnStart, lnIssue1), 1)
	if !d.Summary.Truncated || d.Summary.TruncatedReason != "no session.ended event" || d.Summary.Pending != 1 {
		t.Errorf("summary = %+v", d.Summary)
	}
}

// TestDecodeGating walks the reference's gating rules (detector spec §3.4–3.6).
func TestDecodeGating(t *testing.T) {
	const w = "0000000000000000000000000000000a" // warmup straggler
	in := joinLines(
		evLine("sample.issued", 5, w, ""), // before START: never tracked
		lnStart,
		evLine("sample.recv_first", 20, w, ""),
		evLine("sample.complete", 30, w, `"turn":null,"data":["TextModelOutput",["a","b"],null,null]`),
		lnIssue1,
		evLine("sample.issued", 1050, u1, ""), // retry while pending
		evLine("sample.recv_first", 1100, u1, `"turn":1,"data":null`),
		evLine("sample.recv_first", 1200, u1, ""), // second first token: last_event only
		evLine("session.stop_performance_tracking", 1300, "", ""),
		evLine("sample.issued", 1310, u2, ""), // after STOP: ignored
		evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput","R",["r1","r2 r3"],null]`),
		evLine("sample.complete", 1600, u1, `"turn":null,"data":null`), // after completion: ignored
		lnEnded,
	)
	d := decodeString(t, in, 1)
	s := &d.Samples
	if s.Len() != 1 {
		t.Fatalf("samples = %d, want 1", s.Len())
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"IssueNs", s.IssueNs[0], int64(1000)},
		{"LastIssueNs", s.LastIssueNs[0], int64(1050)},
		{"LastEventNs", s.LastEventNs[0], int64(1500)},
		{"TTFTNs (from the retry)", s.TTFTNs[0], int64(50)},
		{"WarmTTFT (turn 1 is cold)", s.WarmTTFT[0], false},
		{"LatencyNs (from the retry)", s.LatencyNs[0], int64(450)},
		{"Retries", s.Retries[0], int32(1)},
		{"OutTokens (reasoning [r1, r2 r3] + string output R: 'r2 r3R')", s.OutTokens[0], int64(2)},
		{"Failed", s.Failed[0], false},
		{"FirstTokenSeq", s.FirstTokenSeq[0], int64(6)},
		{"CompleteSeq", s.CompleteSeq[0], int64(10)},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if d.Summary.TrackingStartNs != 10 || d.Summary.TrackingStopNs != 1300 {
		t.Errorf("tracking window %d..%d", d.Summary.TrackingStartNs, d.Summary.TrackingStopNs)
	}
}

// TestTextAfterFirstChunk is the truth table of detector spec §3.10.
func TestTextAfterFirstChunk(t *testing.T) {
	outputs := []string{`""`, `"O"`, `["o1"]`, `["o1","o2"]`}
	reasonings := []string{`null`, `"R"`, `["r1"]`, `["r1","r2"]`}
	want := [4][4]string{
		{"", "", "", "r2"},
		{"", "", "O", "r2O"},
		{"", "o1", "o1", "r2o1"},
		{"o2", "o1o2", "o1o2", "r2o1o2"},
	}
	var ps endpoints.PayloadScratch
	for i, o := range outputs {
		for j, r := range reasonings {
			line := []byte(`["TextModelOutput",` + o + `,` + r + `,null]`)
			v, err := scan.ScanValue(line, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := ps.TextAfterFirstChunk(line, v)
			if string(got) != want[i][j] {
				t.Errorf("output %s reasoning %s: %q, want %q", o, r, got, want[i][j])
			}
		}
	}
}

func TestDecodeLineEndings(t *testing.T) {
	base := []string{lnStart, lnIssue1, lnFirst1, lnDone1, lnEnded}
	for name, in := range map[string]string{
		"CRLF":     strings.Join(base, "\r\n") + "\r\n",
		"CR":       strings.Join(base, "\r") + "\r",
		"NBSP":     "\u00a0" + strings.Join(base, "\n\u3000"),
		"Escaped":  strings.Replace(joinLines(base...), `"event_type"`, `"event\u005ftype"`, -1),
		"DupKeys":  strings.Replace(joinLines(base...), `"timestamp_ns":1500`, `"timestamp_ns":1,"timestamp_ns":1500`, 1),
		"NoTrailN": strings.Join(base, "\n"),
	} {
		d := decodeString(t, in, 1)
		if d.Samples.Len() != 1 || d.Samples.LatencyNs[0] != 500 || d.Samples.OutTokens[0] != 2 || d.Summary.ProblemTotal() != 0 {
			t.Errorf("%s: samples %d latency %v tokens %v problems %v", name, d.Samples.Len(), d.Samples.LatencyNs, d.Samples.OutTokens, d.Summary.Warnings())
		}
		if lines := d.Summary.Lines; lines != 5 {
			t.Errorf("%s: %d lines, want 5", name, lines)
		}
	}
}

func TestDecodeCompletedTwice(t *testing.T) {
	in := joinLines(lnStart, lnIssue1, lnFirst1, lnDone1,
		evLine("sample.issued", 3000, u1, ""),
		evLine("sample.complete", 3500, u1, `"turn":null,"data":null`), lnEnded)
	d := decodeString(t, in, 1)
	p := d.Summary.Problem(contract.KindCompletedTwice)
	if d.Samples.Len() != 2 || p.Count != 1 || p.First[0].Line != 6 {
		t.Fatalf("samples %d, problem %+v", d.Samples.Len(), p)
	}
	if !d.Samples.Failed[1] || d.Samples.LatencyNs[1] != 500 {
		t.Errorf("second sample: failed %v latency %d", d.Samples.Failed[1], d.Samples.LatencyNs[1])
	}
}

// repeatReader yields n copies of byte c.
type repeatReader struct {
	n int64
	c byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	for i := range p[:k] {
		p[i] = r.c
	}
	r.n -= int64(k)
	return k, nil
}

// TestDecodeHugeLine: a 300 MB line is skipped with a positional problem
// without holding it in memory; the rest of the run is ingested.
func TestDecodeHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("300 MB line: skipped under -short")
	}
	head := joinLines(lnStart, lnIssue1, lnFirst1) + `{"event_type":"sample.issued","timestamp_ns":1,"sample_uuid":"` + u2 + `","data":["PromptData","`
	tail := `"]}` + "\n" + joinLines(lnDone1, lnEnded)
	r := io.MultiReader(strings.NewReader(head), &repeatReader{n: 300 << 20, c: 'a'}, strings.NewReader(tail))
	var d contract.Decoded
	if err := endpoints.DecodeReader(context.Background(), r, endpoints.DecodeOptions{Name: "huge.jsonl", Counter: tokenizer.Words{}, Workers: 2}, &d); err != nil {
		t.Fatal(err)
	}
	p := d.Summary.Problem(contract.KindLineTooLong)
	if p.Count != 1 || p.First[0].Line != 4 {
		t.Fatalf("line-too-long problem %+v; all %v", p, d.Summary.Warnings())
	}
	if d.Samples.Len() != 1 || !d.Samples.HasComplete[0] || d.Samples.OutTokens[0] != 2 || d.Summary.Lines != 6 {
		t.Errorf("samples %d complete %v tokens %v lines %d", d.Samples.Len(), d.Samples.HasComplete, d.Samples.OutTokens, d.Summary.Lines)
	}
}

func compressed(t testing.TB, kind string, data []byte) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch kind {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zstd":
		zw, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w = zw
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDecodeCompressed: gzip and zstd decode like plain text; a cut or
// damaged stream keeps the lines before the damage and says where.
func TestDecodeCompressed(t *testing.T) {
	var lines []string
	lines = append(lines, lnStart)
	for i := 0; i < 3000; i++ {
		u := fmt.Sprintf("%032x", i+1)
		lines = append(lines,
			evLine("sample.issued", int64(1000+10*i), u, ""),
			evLine("sample.recv_first", int64(1005+10*i), u, ""),
			evLine("sample.complete", int64(1009+10*i), u, `"turn":null,"data":["TextModelOutput",["a"," b c d"],null,null]`))
	}
	lines = append(lines, lnEnded)
	plain := []byte(joinLines(lines...))
	for _, kind := range []string{"gzip", "zstd"} {
		z := compressed(t, kind, plain)
		decode := func(b []byte) *contract.Decoded {
			rc, err := contract.Decompress(bytes.NewReader(b), "events.jsonl."+kind)
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			defer rc.Close()
			var d contract.Decoded
			if err := endpoints.DecodeReader(context.Background(), rc, endpoints.DecodeOptions{Name: "events.jsonl." + kind, Counter: tokenizer.Words{}, Workers: 2, BlockSize: 4096}, &d); err != nil {
				t.Fatal(err)
			}
			return &d
		}
		d := decode(z)
		if d.Samples.Len() != 3000 || d.Summary.ProblemTotal() != 0 || d.Summary.Truncated {
			t.Errorf("%s: samples %d problems %v", kind, d.Samples.Len(), d.Summary.Warnings())
		}
		for name, bad := range map[string][]byte{
			"cut":     z[:len(z)/2],
			"damaged": append(append(slicesClone(z[:len(z)/2]), bytes.Repeat([]byte{0xff}, 64)...), z[len(z)/2+64:]...),
		} {
			d := decode(bad)
			p := d.Summary.Problem(contract.KindCorruptStream)
			if p.Count != 1 || !d.Summary.Truncated || d.Samples.Len() == 0 || d.Samples.Len() >= 3000 {
				t.Errorf("%s %s: corrupt problems %d, truncated %v (%s), samples %d", kind, name, p.Count, d.Summary.Truncated, d.Summary.TruncatedReason, d.Samples.Len())
				continue
			}
			if e := p.First[0]; e.Line < 2 || e.File != "events.jsonl."+kind || !errors.Is(e, contract.ErrCorruptStream) {
				t.Errorf("%s %s: problem %v", kind, name, e)
			}
		}
	}
	if _, err := contract.Decompress(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0}), "bad.gz"); !errors.Is(err, contract.ErrCorruptStream) {
		t.Errorf("bad gzip header: %v", err)
	}
}

func slicesClone(b []byte) []byte { return append([]byte(nil), b...) }

// TestDecodeWorkersAgree: the parallel decoder gives the sequential
// result on inputs with every kind of damage, whatever the block size.
func TestDecodeWorkersAgree(t *testing.T) {
	in := joinLines(lnStart, lnIssue1, "garbage", lnFirst1, "\xEF\xBB\xBF{}", lnDone1, "[1]", lnIssue2, "\r", lnFirst2, lnDone2, lnEnded) + `{"x`
	want := decodeString(t, in, 1)
	for _, bs := range []int{1, 7, 64, 1 << 20} {
		var got contract.Decoded
		if err := endpoints.DecodeReader(context.Background(), strings.NewReader(in), endpoints.DecodeOptions{Name: "events.jsonl", Counter: tokenizer.Words{}, Workers: 3, BlockSize: bs}, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Samples, want.Samples) || !reflect.DeepEqual(got.Summary, want.Summary) {
			t.Errorf("block size %d: parallel decode differs:\ngot  %+v\nwant %+v", bs, got.Summary, want.Summary)
		}
	}
}

// TestLastIssueSharedUntilARetry: without a retry, LastIssueNs is
// IssueNs itself (one column, not two; capacity cut so an append copies);
// a retry, here after the columns have grown several times, gives it a
// column of its own with the retried sample's last issue and everyone
// else's first, IssueNs untouched, and latencies from the issue current
// at completion (the retry's for the retried sample) — also when the
// Decoded is reused after a decode that shared them.
func TestLastIssueSharedUntilARetry(t *testing.T) {
	const n = 3000
	uuid := func(i int) string { return fmt.Sprintf("%032x", i+1) }
	log := func(retry int) string {
		lines := []string{lnStart}
		for i := range n {
			issue := int64(1000 + 10*i)
			lines = append(lines, evLine("sample.issued", issue, uuid(i), ""))
			if i == retry {
				lines = append(lines, evLine("sample.issued", issue+5, uuid(i), ""))
			}
			lines = append(lines, evLine("sample.complete", issue+7, uuid(i), `"turn":null,"data":["TextModelOutput",["a"," b"],null,null]`))
		}
		return joinLines(append(lines, lnEnded)...)
	}
	check := func(name string, d *contract.Decoded, retry int) {
		t.Helper()
		s := &d.Samples
		if s.Len() != n || len(s.LastIssueNs) != n {
			t.Fatalf("%s: %d samples, %d last issues, want %d", name, s.Len(), len(s.LastIssueNs), n)
		}
		for i := range n {
			issue, last := int64(1000+10*i), int64(1000+10*i)
			if i == retry {
				last += 5
			}
			if s.IssueNs[i] != issue || s.LastIssueNs[i] != last || s.LatencyNs[i] != issue+7-last {
				t.Fatalf("%s: sample %d issue %d last %d latency %d, want %d %d %d", name, i,
					s.IssueNs[i], s.LastIssueNs[i], s.LatencyNs[i], issue, last, issue+7-last)
			}
		}
		shared := &s.LastIssueNs[0] == &s.IssueNs[0]
		if shared != (retry < 0) || (shared && cap(s.LastIssueNs) != n) {
			t.Errorf("%s: LastIssueNs shared %v (cap %d), want %v", name, shared, cap(s.LastIssueNs), retry < 0)
		}
	}
	for _, workers := range []int{1, 2} {
		var d contract.Decoded
		for _, retry := range []int{-1, 2500, -1, 0} {
			err := endpoints.DecodeReader(context.Background(), strings.NewReader(log(retry)),
				endpoints.DecodeOptions{Name: "events.jsonl", Counter: tokenizer.Words{}, Workers: workers}, &d)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("workers %d, retry %d", workers, retry), &d, retry)
		}
	}
}
