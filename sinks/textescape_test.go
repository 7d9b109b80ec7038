package sinks

import (
	"testing"
	"unicode/utf8"
)

// TestValidTextAndOneLine: the escapes of a name made of invalid UTF-8,
// C0/C1 controls and line breaks (written out by hand: Go's spelling of
// each byte), and well-formed text (tabs and newlines in ValidText,
// non-ASCII letters in both) returned unchanged.
func TestValidTextAndOneLine(t *testing.T) {
	hostile := "bad\xff\x01name\nline2\u0085\u2028é\x7f\t"
	cases := []struct {
		fn       func(string) string
		in, want string
	}{
		{ValidText, hostile, "bad\\xff\\x01name\nline2\u0085\u2028é\\x7f\t"},
		{OneLine, hostile, `bad\xff\x01name\nline2\u0085\u2028é\x7f\t`},
		{ValidText, "run/conc 4\tα\n", "run/conc 4\tα\n"},
		{OneLine, "run/conc 4 α", "run/conc 4 α"},
		{OneLine, "\xe2\x82", `\xe2\x82`}, // a truncated 3-byte sequence: two invalid bytes
	}
	for _, c := range cases {
		got := c.fn(c.in)
		if got != c.want {
			t.Errorf("escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("escape(%q) = %q is not valid UTF-8", c.in, got)
		}
	}
}
