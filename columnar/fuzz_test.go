package columnar

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/internal/coltest"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// FuzzDecodeLine feeds arbitrary bytes, framed between valid lines, to the
// decoder. Properties: no panic; every column has one entry per sample;
// every problem names a line of the input; the parallel decoder (tiny
// blocks) agrees with the sequential one.
//
//	go test -run '^$' -fuzz FuzzDecodeLine -fuzztime 60s ./columnar/
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		lnIssue1, lnFirst1, lnDone1, lnEnded, "", "\xEF\xBB\xBF{}", "[1,2]", "{\"a\":NaN}",
		`{"event_type":"sample.complete","timestamp_ns":1500,"sample_uuid":"` + u1 + `","data":["TextModelOutput","O",["r1","r2"],[{"a":1.5e300,"b":"é\u2028"}]]}`,
		`{"event_type":"sample.issued","timestamp_ns":"1","sample_uuid":[1]}`,
		`{"event_type":"sample.recv_first","timestamp_ns":1e3,"sample_uuid":"` + u1 + `","turn":"x"}`,
		`{"event_type":"sample.complete","timestamp_ns":-0,"sample_uuid":"` + u1 + `","data":["T",[1,{"x":[]}],true]}`,
		"{\"event_type\":\"sample.issued\"\r,\"timestamp_ns\":1}", "\x00", "{\"\\ud800\":\"\\udc00\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		in := bytes.Join([][]byte{[]byte(lnStart), []byte(lnIssue1), []byte(lnFirst1), line, []byte(lnDone1), line}, []byte("\n"))
		var seq, par contract.Decoded
		if err := endpoints.DecodeReader(context.Background(), bytes.NewReader(in), endpoints.DecodeOptions{Name: "f", Counter: tokenizer.Words{}, Workers: 1, FullTokens: contract.FullAlways}, &seq); err != nil {
			t.Fatal(err)
		}
		if err := endpoints.DecodeReader(context.Background(), bytes.NewReader(in), endpoints.DecodeOptions{Name: "f", Counter: tokenizer.Words{}, Workers: 2, BlockSize: 13, FullTokens: contract.FullAlways}, &par); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(seq.Samples, par.Samples) || !reflect.DeepEqual(seq.Summary, par.Summary) {
			t.Fatalf("parallel differs:\nseq %+v\npar %+v", seq.Summary, par.Summary)
		}
		s := &seq.Samples
		coltest.CheckColumns(t, s)
		if len(seq.TextBytes) != s.Len() || len(seq.Keys) != s.Len() {
			t.Fatalf("side columns %d/%d, want %d", len(seq.TextBytes), len(seq.Keys), s.Len())
		}
		for _, p := range seq.Summary.Problems {
			for _, e := range p.First {
				if e.Line < 1 || int64(e.Line) > seq.Summary.Lines+1 {
					t.Fatalf("problem %v outside lines 1..%d", e, seq.Summary.Lines)
				}
			}
		}
	})
}
