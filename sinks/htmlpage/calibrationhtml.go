package htmlpage

// calibrationBody writes the calibration page's body as calibration.tmpl
// drew it (paragraphs and mdTable: below):
//
//	<header>
//	<h1><span class="tool">steadysweep</span> {{.Title}}</h1>
//	{{template "paragraphs" .Intro}}
//	</header>
//	<main>
//	{{range .Sections}}<section>
//	<h2>{{.Title}}</h2>
//	{{template "paragraphs" .Text}}
//	{{range .Tables}}{{template "mdtable" .}}{{end}}
//	{{range .Plots}}{{template "chart" .}}{{end}}
//	</section>
//	{{end}}</main>
func (w *pageWriter) calibrationBody(v *calibrationView) {
	w.f("<header>\n<h1><span class=\"tool\">steadysweep</span> {}</h1>\n", v.Title)
	w.paragraphs(v.Intro)
	w.raw("\n</header>\n<main>\n")
	for _, s := range v.Sections {
		w.f("<section>\n<h2>{}</h2>\n", s.Title)
		w.paragraphs(s.Text)
		w.raw("\n")
		for _, t := range s.Tables {
			w.mdTable(t)
		}
		w.raw("\n")
		for _, c := range s.Plots {
			w.chart(c)
		}
		w.raw("\n</section>\n")
	}
	w.raw("</main>")
}

// paragraphs writes ps (their HTML is inline Markdown made HTML):
//
//	{{range .}}{{if .Bullet}}<ul class="bullets"><li>{{.HTML}}</li></ul>{{else}}<p>{{.HTML}}</p>{{end}}{{end}}
func (w *pageWriter) paragraphs(ps []paragraph) {
	for _, p := range ps {
		open, end := "<p>", "</p>"
		if p.Bullet {
			open, end = `<ul class="bullets"><li>`, "</li></ul>"
		}
		w.raw(open + p.HTML + end)
	}
}

// mdTable writes t, a table of inline Markdown cells, in a table's frame
// (captionedTable):
//
//	{{range .Rows}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}>{{.HTML}}</td>{{end}}</tr>
//	{{end}}
func (w *pageWriter) mdTable(t mdTable) {
	w.captionedTable("", t.Caption, t.Note, t.Head, t.Sortable, func() {
		for _, row := range t.Rows {
			w.raw("<tr>")
			for _, c := range row {
				w.raw("<td")
				w.classAttr(c.Class)
				w.raw(">" + c.HTML + "</td>")
			}
			w.raw("</tr>\n")
		}
	})
}
