package htmlpage

import (
	"bytes"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// TestScriptSafe: the record a page embeds is compact (no whitespace
// outside strings), cannot end its script element early, and Record gives
// back text that parses to exactly the values written — strings with
// spaces, quotes, backslashes and markup, and numbers as pyjson spells
// them.
func TestScriptSafe(t *testing.T) {
	rec := pyjson.Object{
		{Key: "reason", Value: `a "quoted" </script><b>x & y</b> \ end\`},
		{Key: "spaces", Value: "  two  spaces\tand a tab\n"},
		{Key: "nested", Value: pyjson.Object{{Key: "xs", Value: []float64{0.1, 1e-7, 2617694.0, -0.0}}, {Key: "n", Value: 40}}},
		{Key: "none", Value: nil}, {Key: "list", Value: []any{}}, {Key: "obj", Value: pyjson.Object{}},
	}
	written := pyjson.Marshal(rec)
	safe := scriptSafe(written)
	for _, bad := range []string{"<", ">", "&", "\n", `": `, "[ ", "{ "} {
		if strings.Contains(safe, bad) {
			t.Errorf("embedded record holds %q: %s", bad, safe)
		}
	}
	if !strings.Contains(safe, `"  two  spaces\t`) {
		t.Errorf("the spaces inside a string were touched: %s", safe)
	}
	if len(safe) >= len(written) {
		t.Errorf("embedded record is %d bytes, the indented one %d", len(safe), len(written))
	}
	var page bytes.Buffer
	page.WriteString(`<script type="application/json" id="` + DataID + `">` + safe + `</script>`)
	raw, err := Record(page.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	v, err := pyjson.Parse(raw)
	if err != nil {
		t.Fatalf("record does not parse: %v\n%s", err, raw)
	}
	if got := pyjson.Marshal(v); !bytes.Equal(got, written) {
		t.Errorf("round trip:\n%s\nwant\n%s", got, written)
	}
}

// TestScriptWriterInPieces: the record made script-safe in pieces cut
// anywhere (inside strings, between a backslash and the byte it escapes),
// streamed or gathered, is the record made safe whole.
func TestScriptWriterInPieces(t *testing.T) {
	rec := pyjson.Object{
		{Key: "reason", Value: `a "quoted" </script><b>x & y</b> \ end\`},
		{Key: "spaces", Value: "  two  spaces\tand a tab\n"},
		{Key: "xs", Value: []float64{0.1, 1e-7, -0.0}}, {Key: "none", Value: nil},
	}
	written := pyjson.Marshal(rec)
	want := scriptSafe(written)
	for size := 1; size <= 8; size++ {
		var out bytes.Buffer
		streamed, gathered := &scriptWriter{out: &out}, &scriptWriter{}
		for i := 0; i < len(written); i += size {
			piece := written[i:min(i+size, len(written))]
			streamed.Write(piece)
			gathered.Write(piece)
		}
		if err := streamed.flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want || gathered.b.String() != want {
			t.Fatalf("pieces of %d bytes:\nstreamed %s\ngathered %s\n    want %s", size, out.String(), gathered.b.String(), want)
		}
	}
}
