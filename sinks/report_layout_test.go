package sinks

import (
	"slices"
	"testing"
)

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		width int
		cont  string
		want  []string
	}{
		{"fits, spacing kept", "  a    b", 10, "    ", []string{"  a    b"}},
		{"breaks at a space", "  aaa bbb ccc", 9, "    ", []string{"  aaa bbb", "    ccc"}},
		{"inner spacing kept", "  k  aaa  bbb", 10, "     ", []string{"  k  aaa", "     bbb"}},
		{"long word cut", "  abcdefghij", 6, "  ", []string{"  abcd", "  efgh", "  ij"}},
		{"escapes take no width", "\x1b[1m12345\x1b[0m 678", 9, "", []string{"\x1b[1m12345\x1b[0m 678"}},
	} {
		if got := wrap(c.in, c.width, c.cont); !slices.Equal(got, c.want) {
			t.Errorf("%s: wrap(%q, %d) = %q, want %q", c.name, c.in, c.width, got, c.want)
		}
	}
}

// Columns are as wide as their widest cell, two spaces apart, aligned as
// asked, and styles do not shift them.
func TestTextTable(t *testing.T) {
	tab := &textTable{indent: " ", align: "lr"}
	tab.add(txt("a"), txt("1"))
	tab.add(cell{"bbb", bold}, txt("222"))
	want := []string{" a      1", " bbb  222"}
	if got := tab.lines(palette{}); !slices.Equal(got, want) {
		t.Errorf("plain table = %q, want %q", got, want)
	}
	colored := tab.lines(palette{color: true})
	if colored[1] != " \x1b[1mbbb\x1b[0m  222" || visibleWidth(colored[1]) != len(want[1]) {
		t.Errorf("coloured row = %q", colored[1])
	}
}
