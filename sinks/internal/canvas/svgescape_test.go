package canvas

import (
	"bytes"
	"html"
	"testing"
)

// TestWriteEscapedHTML: writeEscaped writes what html.EscapeString (the
// escape the SVG text used before, issue 32) returns, on text with
// each of the five characters, at the ends and repeated, entities
// already escaped, NUL and other controls, multi-byte runes and
// invalid UTF-8.
func TestWriteEscapedHTML(t *testing.T) {
	for _, s := range []string{
		"", "plain", "a < b & c", `"quoted"`, "it's", "<>", "&&", "&amp;", "&#39;",
		"<", ">", "&", "'", `"`, `&'<>"`, `x"y'z<w>v&u`, "tok/s ≥ 2 · μ", "\x00\x01\t\n\x7f",
		"\xff\xfe<\xc3", "τ_{90%} > 1.5 s", "a\u00a0&\u2028b", "+ = ; # %",
	} {
		var b bytes.Buffer
		b.WriteString("pre")
		writeEscaped(&b, s)
		if got, want := b.String(), "pre"+html.EscapeString(s); got != want {
			t.Errorf("writeEscaped(%q) = %q, html.EscapeString %q", s, got[3:], want[3:])
		}
	}
}
