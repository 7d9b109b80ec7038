package htmlpage

import (
	"html/template"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A chart's points and hover targets are one element per super-pass per
// series: 40,000 elements on a run of 10,000 super-passes, which
// html/template's range, contextual escaping and reflection took over a
// second to write (issue 32). They are written here directly, byte for
// byte what parts.tmpl's loops wrote (TestChartMarksTemplate):
//
//	{{range .Points}}<circle class="pt {{.Class}}" data-sp="{{.SP}}" cx="{{coord .X}}" cy="{{coord .Y}}" r="{{if .Title}}4{{else}}3{{end}}">{{with .Title}}<title>{{.}}</title>{{end}}</circle>{{end}}
//	{{range .Hits}}<rect class="hit" data-sp="{{.SP}}" tabindex="0" x="{{coord .X}}" y="{{coord $.Plot.Y}}" width="{{coord .W}}" height="{{coord $.Plot.H}}"><title>{{join .Lines "\n"}}</title></rect>{{end}}

// chartPoints is the <circle> of every point of c.
func chartPoints(c chart) template.HTML {
	var b strings.Builder
	for _, p := range c.Points {
		b.WriteString(`<circle class="pt `)
		writeEscaped(&b, p.Class)
		b.WriteString(`" data-sp="`)
		b.WriteString(strconv.Itoa(p.SP))
		b.WriteString(`" cx="`)
		b.WriteString(coord(p.X))
		b.WriteString(`" cy="`)
		b.WriteString(coord(p.Y))
		if p.Title != "" {
			b.WriteString(`" r="4"><title>`)
			writeEscaped(&b, p.Title)
			b.WriteString(`</title></circle>`)
		} else {
			b.WriteString(`" r="3"></circle>`)
		}
	}
	return template.HTML(b.String())
}

// chartHits is the hover <rect> of every super-pass of c.
func chartHits(c chart) template.HTML {
	var b strings.Builder
	y, h := coord(c.Plot.Y), coord(c.Plot.H)
	for _, t := range c.Hits {
		b.WriteString(`<rect class="hit" data-sp="`)
		b.WriteString(strconv.Itoa(t.SP))
		b.WriteString(`" tabindex="0" x="`)
		b.WriteString(coord(t.X))
		b.WriteString(`" y="`)
		b.WriteString(y)
		b.WriteString(`" width="`)
		b.WriteString(coord(t.W))
		b.WriteString(`" height="`)
		b.WriteString(h)
		b.WriteString(`"><title>`)
		for i, l := range t.Lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			writeEscaped(&b, l)
		}
		b.WriteString(`</title></rect>`)
	}
	return template.HTML(b.String())
}

// writeEscaped writes s escaped as html/template escapes a plain string
// in HTML text, a quoted attribute value or an RCDATA element such as
// <title> (its htmlReplacementTable; other runes, noncharacters and
// invalid UTF-8 included, as they are; TestRowsHTMLTemplate).
func writeEscaped(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		var repl string
		switch r {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		}
		if repl != "" {
			b.WriteString(s[last:i])
			b.WriteString(repl)
			last = i + w
		}
		i += w
	}
	b.WriteString(s[last:])
}
