package htmlpage

// rowsHTML writes the <tr> of every row of a table, byte for byte as
// parts.tmpl's "table" loop wrote them (a run's per-super-pass table has
// a row per super-pass: 10,000 rows of a dozen cells):
//
//	{{range .Rows}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}{{if .Sort}} data-v="{{.Sort}}"{{end}}>{{if .Bold}}<strong>{{template "value" .Value}}</strong>{{else}}{{template "value" .Value}}{{end}}{{range .Sub}}<br><small class="dim">{{.}}</small>{{end}}</td>{{end}}</tr>
//	{{end}}
func (w *pageWriter) rowsHTML(rows [][]cell) {
	for _, row := range rows {
		if w.stopped() {
			return
		}
		w.raw("<tr>")
		w.cells(row, true)
		w.raw("</tr>\n")
	}
}

// cells writes a row's cells (the sweep page's rows end with them; its
// template has no bold, so bold says whether to draw Bold):
//
//	{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}{{if .Sort}} data-v="{{.Sort}}"{{end}}>{{if .Bold}}<strong>{{template "value" .Value}}</strong>{{else}}{{template "value" .Value}}{{end}}{{range .Sub}}<br><small class="dim">{{.}}</small>{{end}}</td>{{end}}
func (w *pageWriter) cells(row []cell, bold bool) {
	for _, c := range row {
		w.raw("<td")
		w.classAttr(c.Class)
		if c.Sort != "" {
			w.raw(` data-v="`)
			w.text(c.Sort)
			w.raw(`"`)
		}
		w.raw(">")
		if bold && c.Bold {
			w.raw("<strong>")
		}
		w.value(c.Value)
		if bold && c.Bold {
			w.raw("</strong>")
		}
		for _, s := range c.Sub {
			w.raw(`<br><small class="dim">`)
			w.text(s)
			w.raw("</small>")
		}
		w.raw("</td>")
	}
}
