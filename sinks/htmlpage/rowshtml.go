package htmlpage

import (
	"html/template"
	"strings"
)

// rowsHTML is the <tr> of every row of a table, written directly, byte
// for byte what parts.tmpl's "table" loop wrote (TestRowsHTMLTemplate):
// a run's per-super-pass table has a row per super-pass, 10,000 rows of
// a dozen cells that html/template's nested range, sub-template calls
// and reflection took most of a second to write (issue 32).
//
//	{{range .Rows}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}{{if .Sort}} data-v="{{.Sort}}"{{end}}>{{if .Bold}}<strong>{{template "value" .Value}}</strong>{{else}}{{template "value" .Value}}{{end}}{{range .Sub}}<br><small class="dim">{{.}}</small>{{end}}</td>{{end}}</tr>
//	{{end}}
func rowsHTML(rows [][]cell) template.HTML {
	var b strings.Builder
	for _, row := range rows {
		b.WriteString("<tr>")
		for _, c := range row {
			b.WriteString("<td")
			if c.Class != "" {
				b.WriteString(` class="`)
				writeEscaped(&b, c.Class)
				b.WriteByte('"')
			}
			if c.Sort != "" {
				b.WriteString(` data-v="`)
				writeEscaped(&b, c.Sort)
				b.WriteByte('"')
			}
			b.WriteByte('>')
			if c.Bold {
				b.WriteString("<strong>")
			}
			writeValue(&b, c.Value)
			if c.Bold {
				b.WriteString("</strong>")
			}
			for _, s := range c.Sub {
				b.WriteString(`<br><small class="dim">`)
				writeEscaped(&b, s)
				b.WriteString("</small>")
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	return template.HTML(b.String())
}

// writeValue writes v as parts.tmpl's "value" template does:
//
//	{{if .NA}}<span class="na"{{if .Reason}} title="{{.Reason}}"{{end}}>n/a{{if .Reason}} — {{.Reason}}{{end}}</span>{{else}}{{.Text}}{{end}}
func writeValue(b *strings.Builder, v value) {
	if !v.NA {
		writeEscaped(b, v.Text)
		return
	}
	b.WriteString(`<span class="na"`)
	if v.Reason != "" {
		b.WriteString(` title="`)
		writeEscaped(b, v.Reason)
		b.WriteByte('"')
	}
	b.WriteString(">n/a")
	if v.Reason != "" {
		b.WriteString(" — ")
		writeEscaped(b, v.Reason)
	}
	b.WriteString("</span>")
}
