package sinks

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// DefaultReportWidth is the report's width in columns when the caller
// names none (a file, a pipe); MinReportWidth the narrowest it is laid out
// for (a narrower terminal wraps it itself).
const (
	DefaultReportWidth = 100
	MinReportWidth     = 80
)

// reportWidthOf is the width to lay out for a requested width w (0: the
// default).
func reportWidthOf(w int) int {
	if w <= 0 {
		return DefaultReportWidth
	}
	return max(w, MinReportWidth)
}

// cell is one table cell: its text and style.
type cell struct {
	text string
	st   style
}

// txt is a plain cell.
func txt(s string) cell { return cell{text: s} }

// textTable lays cells out in columns two spaces apart, each column as
// wide as its widest cell, aligned left ('l') or right ('r'). Styles are
// applied after padding so escape sequences never shift a column. A table
// wider than its line is cut into blocks of whole columns, each repeating
// the first key columns (at least one), so no row ever wraps.
type textTable struct {
	indent string
	align  string
	key    int
	rows   [][]cell
}

func (t *textTable) add(cells ...cell) { t.rows = append(t.rows, cells) }

// lines renders the table within width columns, one string per row (a
// blank line between blocks).
func (t *textTable) lines(p palette, width int) []string {
	out := string(t.appendTo(nil, p, width))
	if out == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// appendTo appends the rendered table to buf, each row with its line
// break (a blank line between blocks), and returns buf.
func (t *textTable) appendTo(buf []byte, p palette, width int) []byte {
	var widths []int
	for _, row := range t.rows {
		for i, c := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c.text))
		}
	}
	for bi, cols := range t.blocks(widths, width) {
		if bi > 0 {
			buf = append(buf, '\n')
		}
		for _, row := range t.rows {
			buf = append(t.render(buf, p, row, cols, widths), '\n')
		}
	}
	return buf
}

// blocks groups the column indexes into blocks that fit width, each
// starting with the key columns: as few blocks as greedy filling needs,
// the columns then spread evenly over them; one block when the whole
// table fits.
func (t *textTable) blocks(widths []int, width int) [][]int {
	key := min(max(t.key, 1), len(widths))
	keyW := len(t.indent)
	for i := range key {
		keyW += widths[i] + 2
	}
	fill := func(perBlock int) [][]int {
		var out [][]int
		var cur []int
		curW := keyW
		for i := key; i < len(widths); i++ {
			if len(cur) > 0 && (curW+widths[i] > width || len(cur) == perBlock) {
				out = append(out, cur)
				cur, curW = nil, keyW
			}
			cur = append(cur, i)
			curW += widths[i] + 2
		}
		return append(out, cur)
	}
	rest := len(widths) - key
	greedy := fill(rest)
	if n := len(greedy); n > 1 {
		if even := fill((rest + n - 1) / n); len(even) == n {
			greedy = even
		}
	}
	out := make([][]int, len(greedy))
	for i, cols := range greedy {
		out[i] = append(slices.Clone(t.keyCols(key)), cols...)
	}
	return out
}

// keyCols are the indexes of the first key columns.
func (t *textTable) keyCols(key int) []int {
	cols := make([]int, key)
	for i := range cols {
		cols[i] = i
	}
	return cols
}

// render appends the cells cols of one row to buf, without its trailing
// spaces, and returns buf.
func (t *textTable) render(buf []byte, p palette, row []cell, cols, widths []int) []byte {
	start := len(buf)
	buf = append(buf, t.indent...)
	for k, i := range cols {
		if i >= len(row) {
			break
		}
		c := row[i]
		if k > 0 {
			buf = append(buf, "  "...)
		}
		pad := widths[i] - utf8.RuneCountInString(c.text)
		right := i < len(t.align) && t.align[i] == 'r'
		if right {
			buf = appendSpaces(buf, pad)
		}
		buf = append(buf, p.paint(c.st, c.text)...)
		if !right {
			buf = appendSpaces(buf, pad)
		}
	}
	return trimSpaces(buf, start)
}

// appendSpaces appends n spaces (none for n <= 0) to buf.
func appendSpaces(buf []byte, n int) []byte {
	for ; n > 0; n-- {
		buf = append(buf, ' ')
	}
	return buf
}

// trimSpaces drops the spaces that end buf[start:] (strings.TrimRight's
// " " cut on the line being written).
func trimSpaces(buf []byte, start int) []byte {
	end := len(buf)
	for end > start && buf[end-1] == ' ' {
		end--
	}
	return buf[:end]
}

// reportBuilder accumulates the report, each line appended whole with its
// line break to one buffer, wrapping any line longer than width
// (reportWidthOf). (Kept as a list of lines joined at the end, the 5.7 kB
// report of a small run's warm analyze allocated 63 kB, fresh pages a
// short command faults in one by one; issue 32.)
type reportBuilder struct {
	p     palette
	width int
	buf   []byte
}

// reportSize is the room WriteReport's buffer starts with: a report of a
// run with three window sizes is 5 to 7 kB.
const reportSize = 8 << 10

// put appends one line as it is.
func (b *reportBuilder) put(s string) { b.buf = append(append(b.buf, s...), '\n') }

// putWrapped appends s wrapped to width (wrap), continuation lines
// starting with cont.
func (b *reportBuilder) putWrapped(s, cont string) {
	if visibleWidth(s) <= b.width {
		b.put(s) // wrap's answer for a line that fits, without its slice
		return
	}
	for _, l := range wrap(s, b.width, cont) {
		b.put(l)
	}
}

// line adds one line; a line too wide is wrapped (wrap) and its
// continuation lines are indented two columns past its own indent.
func (b *reportBuilder) line(s string) {
	indent := s[:len(s)-len(strings.TrimLeft(s, " "))]
	b.putWrapped(s, indent+"  ")
}

// fieldIndent is where the value of a field starts.
const fieldIndent = "           "

// field adds "  label    value", the value starting at column 12 and
// wrapped lines aligned under it.
func (b *reportBuilder) field(label, value string) {
	s := fmt.Sprintf("  %-8s %s", label, value)
	b.putWrapped(s, fieldIndent)
}

// blank adds an empty line.
func (b *reportBuilder) blank() { b.put("") }

// heading adds a blank line and a section title.
func (b *reportBuilder) heading(title string) {
	b.blank()
	b.line(b.p.paint(heading, title))
}

// table adds a rendered table.
func (b *reportBuilder) table(t *textTable) { b.buf = t.appendTo(b.buf, b.p, b.width) }

// bytes is the report written so far.
func (b *reportBuilder) bytes() []byte { return b.buf }

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

// phraseSep separates the phrases of a report line; wrap breaks there
// first.
const phraseSep = " · "

// wrap splits s into lines of at most width visible columns; continuation
// lines start with cont. It breaks between phrases (phraseSep, dropped at
// the break) and only inside a phrase too long for a line of its own,
// then at spaces outside parentheses, so "(registry: gpt-oss → …)" stays
// whole. A word longer than a line (a path) is kept whole on a line of its
// own: cutting it would break copying it. Spacing within a line is kept.
func wrap(s string, width int, cont string) []string {
	if visibleWidth(s) <= width {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	indent := s[:len(s)-len(body)]
	var out []string
	cur, curW := indent, len(indent)
	fresh := true // nothing but the indent on cur yet
	newLine := func() {
		out = append(out, strings.TrimRight(cur, " "))
		cur, curW, fresh = cont, len(cont), true
	}
	for _, phrase := range strings.Split(body, phraseSep) {
		sep := phraseSep
		if fresh {
			sep = ""
		}
		pw := visibleWidth(phrase)
		if !fresh && curW+visibleWidth(sep)+pw > width {
			newLine()
			sep = ""
		}
		if curW+visibleWidth(sep)+pw <= width {
			cur += sep + phrase
			curW += visibleWidth(sep) + pw
			fresh = false
			continue
		}
		// A phrase too long for a line of its own: break it between atoms.
		if sep != "" {
			cur += sep
			curW += visibleWidth(sep)
		}
		for _, a := range atoms(phrase, width-len(cont)) {
			aw := visibleWidth(a.text)
			if !fresh && curW+aw > width {
				newLine()
			}
			cur += a.text + a.gap
			curW += aw + len(a.gap)
			fresh = false
		}
	}
	return append(out, strings.TrimRight(cur, " "))
}

// atom is a run of text wrap never breaks, and the spaces after it.
type atom struct{ text, gap string }

// atoms splits s at spaces outside parentheses; a parenthesis wider than
// limit is split at its spaces too.
func atoms(s string, limit int) []atom {
	var out []atom
	depth, start := 0, 0
	emit := func(end, next int) {
		a := atom{s[start:end], s[end:next]}
		if visibleWidth(a.text) > limit && strings.Contains(a.text, " ") {
			words := strings.Split(a.text, " ")
			for i, w := range words {
				gap := " "
				if i == len(words)-1 {
					gap = a.gap
				}
				out = append(out, splitLong(w, limit, gap)...)
			}
		} else {
			out = append(out, splitLong(a.text, limit, a.gap)...)
		}
		start = next
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ' ':
			if depth > 0 {
				continue
			}
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			emit(i, j)
			i = j - 1
		}
	}
	if start < len(s) {
		emit(len(s), len(s))
	}
	return out
}

// splitLong breaks a word wider than limit (a long path) into atoms of at
// most limit columns with no gap between them, after a '/' where one
// falls in the line, else at the limit; the last keeps gap. The report
// promises its width: a path is continued on the next line rather than
// run past it.
func splitLong(w string, limit int, gap string) []atom {
	if limit <= 0 || visibleWidth(w) <= limit {
		return []atom{{w, gap}}
	}
	var out []atom
	r := []rune(w)
	for len(r) > limit {
		cut := limit
		if i := strings.LastIndex(string(r[:limit]), "/"); i > 0 {
			cut = len([]rune(string(r[:limit])[:i+1]))
		}
		out = append(out, atom{string(r[:cut]), ""})
		r = r[cut:]
	}
	return append(out, atom{string(r), gap})
}
