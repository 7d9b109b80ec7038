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
		{"escapes take no width", "\x1b[1m12345\x1b[0m 678", 9, "", []string{"\x1b[1m12345\x1b[0m 678"}},
		// Issue 20: "(registry:" / "gpt-oss → openai/gpt-oss-120b)" wrapped
		// mid-phrase at 100 columns.
		{"between phrases first", "  x aa bb · cc dd · ee", 14, "    ", []string{"  x aa bb", "    cc dd · ee"}},
		{"parenthesis kept whole", "  tok  gpt (registry: gpt-oss → openai/x)", 40, "       ",
			[]string{"  tok  gpt", "       (registry: gpt-oss → openai/x)"}},
		{"parenthesis wider than a line broken at its spaces", "  a (bb cc dd)", 9, "  ",
			[]string{"  a (bb", "  cc dd)"}},
		{"a path that fits a line is kept whole", "  p /a/long/path/x.json", 22, "  ", []string{"  p", "  /a/long/path/x.json"}},
		// Issue 26: a path wider than a line ran past the promised width.
		{"a path wider than a line is continued after its slashes", "  p /a/very/long/path/x.json", 12, "  ",
			[]string{"  p /a/very/", "  long/path/", "  x.json"}},
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
	if got := tab.lines(palette{}, 80); !slices.Equal(got, want) {
		t.Errorf("plain table = %q, want %q", got, want)
	}
	colored := tab.lines(palette{color: true}, 80)
	if colored[1] != " \x1b[1mbbb\x1b[0m  222" || visibleWidth(colored[1]) != len(want[1]) {
		t.Errorf("coloured row = %q", colored[1])
	}
}

// A table wider than its line is cut into blocks of whole columns that
// each repeat the key columns; no row wraps (issue 20: nothing adapted to
// an 80-column terminal).
func TestTextTableBlocks(t *testing.T) {
	tab := &textTable{indent: "  ", key: 2}
	tab.add(txt("k"), txt("id"), txt("aaaa"), txt("bbbb"), txt("cccc"))
	tab.add(txt("k2"), txt("x"), txt("1"), txt("2"), txt("3"))
	want := []string{"  k   id  aaaa  bbbb", "  k2  x   1     2", "", "  k   id  cccc", "  k2  x   3"}
	if got := tab.lines(palette{}, 20); !slices.Equal(got, want) {
		t.Errorf("blocks at 20 = %q, want %q", got, want)
	}
	if got := tab.lines(palette{}, 26); len(got) != 2 {
		t.Errorf("at 26 the table fits in one block: %q", got)
	}
}
