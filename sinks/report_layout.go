package sinks

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// reportWidth is the report's maximum line width in columns.
const reportWidth = 100

// cell is one table cell: its text and style.
type cell struct {
	text string
	st   style
}

// txt is a plain cell.
func txt(s string) cell { return cell{text: s} }

// textTable lays cells out in columns two spaces apart, each column as
// wide as its widest cell, aligned left ('l') or right ('r'). Styles are
// applied after padding so escape sequences never shift a column.
type textTable struct {
	indent string
	align  string
	rows   [][]cell
}

func (t *textTable) add(cells ...cell) { t.rows = append(t.rows, cells) }

// lines renders the table, one string per row.
func (t *textTable) lines(p palette) []string {
	var widths []int
	for _, row := range t.rows {
		for i, c := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c.text))
		}
	}
	out := make([]string, 0, len(t.rows))
	for _, row := range t.rows {
		var b strings.Builder
		b.WriteString(t.indent)
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c.text))
			right := i < len(t.align) && t.align[i] == 'r'
			if right {
				b.WriteString(pad)
			}
			b.WriteString(p.paint(c.st, c.text))
			if !right && i < len(row)-1 {
				b.WriteString(pad)
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

// reportBuilder accumulates the report's lines, wrapping any longer than
// reportWidth.
type reportBuilder struct {
	p     palette
	lines []string
}

// line adds one line; a line too wide is wrapped at spaces and its
// continuation lines are indented two columns past its own indent.
func (b *reportBuilder) line(s string) {
	indent := s[:len(s)-len(strings.TrimLeft(s, " "))]
	b.lines = append(b.lines, wrap(s, reportWidth, indent+"  ")...)
}

// fieldIndent is where the value of a field starts.
const fieldIndent = "           "

// field adds "  label    value", the value starting at column 12 and
// wrapped lines aligned under it.
func (b *reportBuilder) field(label, value string) {
	s := fmt.Sprintf("  %-8s %s", label, value)
	b.lines = append(b.lines, wrap(s, reportWidth, fieldIndent)...)
}

// blank adds an empty line.
func (b *reportBuilder) blank() { b.lines = append(b.lines, "") }

// heading adds a blank line and a section title.
func (b *reportBuilder) heading(title string) {
	b.blank()
	b.line(b.p.paint(heading, title))
}

// table adds a rendered table.
func (b *reportBuilder) table(t *textTable) {
	for _, l := range t.lines(b.p) {
		b.line(l)
	}
}

func (b *reportBuilder) String() string { return strings.Join(b.lines, "\n") + "\n" }

// visibleWidth is the number of columns s takes on a terminal: its runes
// outside ANSI escape sequences.
func visibleWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == '\x1b' {
			j := strings.IndexByte(s[i:], 'm')
			if j < 0 {
				break
			}
			i += j + 1
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}

// wrap splits s into lines of at most width visible columns, breaking at
// spaces (a word wider than a line is cut) and keeping the spacing within
// a line; continuation lines start with cont.
func wrap(s string, width int, cont string) []string {
	if visibleWidth(s) <= width {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	indent := s[:len(s)-len(body)]
	var out []string
	cur, curW := indent, len(indent)
	fresh := true // nothing but the indent on cur yet
	for body != "" {
		end := strings.IndexByte(body, ' ')
		if end < 0 {
			end = len(body)
		}
		word := body[:end]
		rest := body[end:]
		gap := rest[:len(rest)-len(strings.TrimLeft(rest, " "))]
		body = rest[len(gap):]
		ww := visibleWidth(word)
		if !fresh && curW+ww > width {
			out = append(out, strings.TrimRight(cur, " "))
			cur, curW = cont, len(cont)
		}
		for curW+ww > width && ww == utf8.RuneCountInString(word) && width > curW {
			// A plain word longer than a whole line: cut it.
			cut := runePrefix(word, width-curW)
			out = append(out, cur+cut)
			word = word[len(cut):]
			ww = utf8.RuneCountInString(word)
			cur, curW = cont, len(cont)
		}
		cur += word + gap
		curW += ww + len(gap)
		fresh = false
	}
	return append(out, strings.TrimRight(cur, " "))
}

// runePrefix is the first n runes of s.
func runePrefix(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
