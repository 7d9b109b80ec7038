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
	w.raw("<header>\n<h1><span class=\"tool\">steadysweep</span> ")
	w.text(v.Title)
	w.raw("</h1>\n")
	w.paragraphs(v.Intro)
	w.raw("\n</header>\n<main>\n")
	for _, s := range v.Sections {
		w.raw("<section>\n<h2>")
		w.text(s.Title)
		w.raw("</h2>\n")
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
		if p.Bullet {
			w.raw(`<ul class="bullets"><li>`)
			w.raw(p.HTML)
			w.raw("</li></ul>")
		} else {
			w.raw("<p>")
			w.raw(p.HTML)
			w.raw("</p>")
		}
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
				w.raw(">")
				w.raw(c.HTML)
				w.raw("</td>")
			}
			w.raw("</tr>\n")
		}
	})
}
