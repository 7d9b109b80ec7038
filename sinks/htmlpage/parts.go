package htmlpage

// The parts every page kind draws with — a value, a badge, a list of
// fields, a table, a chart — written as the templates they replace drew
// them (pagewriter.go); each quotes its template.

// value writes v:
//
//	{{if .NA}}<span class="na"{{if .Reason}} title="{{.Reason}}"{{end}}>n/a{{if .Reason}} — {{.Reason}}{{end}}</span>{{else}}{{.Text}}{{end}}
func (w *pageWriter) value(v value) {
	if !v.NA {
		w.text(v.Text)
		return
	}
	w.raw(`<span class="na"`)
	if v.Reason != "" {
		w.raw(` title="`)
		w.text(v.Reason)
		w.raw(`"`)
	}
	w.raw(">n/a")
	if v.Reason != "" {
		w.raw(" — ")
		w.text(v.Reason)
	}
	w.raw("</span>")
}

// badge writes b:
//
//	<span class="badge {{.Tone}}">{{.Text}}</span>
func (w *pageWriter) badge(b badge) {
	w.raw(`<span class="badge `)
	w.text(b.Tone)
	w.raw(`">`)
	w.text(b.Text)
	w.raw("</span>")
}

// fields writes fs:
//
//	<dl class="fields">{{range .}}<dt>{{.Name}}</dt><dd{{if .Tone}} class="{{.Tone}}"{{end}}>{{template "value" .Value}}</dd>{{end}}</dl>
func (w *pageWriter) fields(fs []field) {
	w.raw(`<dl class="fields">`)
	for _, f := range fs {
		w.raw("<dt>")
		w.text(f.Name)
		w.raw("</dt><dd")
		w.classAttr(f.Tone)
		w.raw(">")
		w.value(f.Value)
		w.raw("</dd>")
	}
	w.raw("</dl>")
}

// classAttr writes ` class="c"`, or nothing when c is "":
//
//	{{if .Class}} class="{{.Class}}"{{end}}
func (w *pageWriter) classAttr(c string) {
	if c != "" {
		w.raw(` class="`)
		w.text(c)
		w.raw(`"`)
	}
}

// captionedTable writes a table's frame around its rows (written by
// rows), shared by the run and sweep pages' tables and the calibration
// page's Markdown ones:
//
//	<div class="tablewrap"{{if .ID}} id="table-{{.ID}}"{{end}}>
//	<table{{if .Sortable}} class="sortable"{{end}}>
//	{{if .Caption}}<caption>{{.Caption}}</caption>{{end}}
//	<thead><tr>{{range .Head}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
//	<tbody>{{rows}}</tbody>
//	</table>
//	{{if .Note}}<p class="note">{{.Note}}</p>{{end}}
//	</div>
func (w *pageWriter) captionedTable(id, caption, note string, head []string, sortable bool, rows func()) {
	w.raw(`<div class="tablewrap"`)
	if id != "" {
		w.raw(` id="table-`)
		w.text(id)
		w.raw(`"`)
	}
	w.raw(">\n<table")
	if sortable {
		w.raw(` class="sortable"`)
	}
	w.raw(">\n")
	if caption != "" {
		w.raw("<caption>")
		w.text(caption)
		w.raw("</caption>")
	}
	w.raw("\n")
	w.head(head)
	w.raw("\n<tbody>")
	rows()
	w.raw("</tbody>\n</table>\n")
	if note != "" {
		w.raw(`<p class="note">`)
		w.text(note)
		w.raw("</p>")
	}
	w.raw("\n</div>")
}

// head writes a table's header row:
//
//	<thead><tr>{{range .Head}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
func (w *pageWriter) head(head []string) {
	w.raw("<thead><tr>")
	for _, h := range head {
		w.raw(`<th scope="col">`)
		w.text(h)
		w.raw("</th>")
	}
	w.raw("</tr></thead>")
}

// table writes t (its rows by rowsHTML).
func (w *pageWriter) table(t table) {
	w.captionedTable(t.ID, t.Caption, t.Note, t.Head, t.Sortable, func() { w.rowsHTML(t.Rows) })
}
