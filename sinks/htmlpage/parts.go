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
	if v.Reason == "" {
		w.raw(`<span class="na">n/a</span>`)
	} else {
		w.f(`<span class="na" title="{}">n/a — {}</span>`, v.Reason, v.Reason)
	}
}

// badge writes b:
//
//	<span class="badge {{.Tone}}">{{.Text}}</span>
func (w *pageWriter) badge(b badge) {
	w.f(`<span class="badge {}">{}</span>`, b.Tone, b.Text)
}

// fields writes fs:
//
//	<dl class="fields">{{range .}}<dt>{{.Name}}</dt><dd{{if .Tone}} class="{{.Tone}}"{{end}}>{{template "value" .Value}}</dd>{{end}}</dl>
func (w *pageWriter) fields(fs []field) {
	w.raw(`<dl class="fields">`)
	for _, f := range fs {
		w.f("<dt>{}</dt><dd", f.Name)
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
		w.f(` class="{}"`, c)
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
		w.f(` id="table-{}"`, id)
	}
	w.raw(">\n<table")
	if sortable {
		w.raw(` class="sortable"`)
	}
	w.raw(">\n")
	if caption != "" {
		w.f("<caption>{}</caption>", caption)
	}
	w.raw("\n")
	w.head(head)
	w.raw("\n<tbody>")
	rows()
	w.raw("</tbody>\n</table>\n")
	if note != "" {
		w.f(`<p class="note">{}</p>`, note)
	}
	w.raw("\n</div>")
}

// head writes a table's header row:
//
//	<thead><tr>{{range .Head}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
func (w *pageWriter) head(head []string) {
	w.raw("<thead><tr>")
	for _, h := range head {
		w.f(`<th scope="col">{}</th>`, h)
	}
	w.raw("</tr></thead>")
}

// table writes t (its rows by rowsHTML).
func (w *pageWriter) table(t table) {
	w.captionedTable(t.ID, t.Caption, t.Note, t.Head, t.Sortable, func() { w.rowsHTML(t.Rows) })
}

// tables writes every table of ts:
//
//	{{range .}}{{template "table" .}}{{end}}
func (w *pageWriter) tables(ts []table) {
	for _, t := range ts {
		w.table(t)
	}
}
