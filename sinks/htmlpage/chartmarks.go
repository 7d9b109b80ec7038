package htmlpage

// A chart's points and hover targets are one element per super-pass per
// series: 40,000 elements on a run of 10,000 super-passes. They are
// written byte for byte as parts.tmpl's loops wrote them:
//
//	{{range .Points}}<circle class="pt {{.Class}}" data-sp="{{.SP}}" cx="{{coord .X}}" cy="{{coord .Y}}" r="{{if .Title}}4{{else}}3{{end}}">{{with .Title}}<title>{{.}}</title>{{end}}</circle>{{end}}
//	{{range .Hits}}<rect class="hit" data-sp="{{.SP}}" tabindex="0" x="{{coord .X}}" y="{{coord $.Plot.Y}}" width="{{coord .W}}" height="{{coord $.Plot.H}}"><title>{{join .Lines "\n"}}</title></rect>{{end}}

// chartPoints writes the <circle> of every point of c.
func (w *pageWriter) chartPoints(c chart) {
	for _, p := range c.Points {
		if w.stopped() {
			return
		}
		w.raw(`<circle class="pt `)
		w.text(p.Class)
		w.raw(`" data-sp="`)
		w.int(p.SP)
		w.raw(`" cx="`)
		w.coord(p.X)
		w.raw(`" cy="`)
		w.coord(p.Y)
		if p.Title != "" {
			w.raw(`" r="4"><title>`)
			w.text(p.Title)
			w.raw(`</title></circle>`)
		} else {
			w.raw(`" r="3"></circle>`)
		}
	}
}

// chartHits writes the hover <rect> of every super-pass of c.
func (w *pageWriter) chartHits(c chart) {
	for _, t := range c.Hits {
		if w.stopped() {
			return
		}
		w.raw(`<rect class="hit" data-sp="`)
		w.int(t.SP)
		w.raw(`" tabindex="0" x="`)
		w.coord(t.X)
		w.raw(`" y="`)
		w.coord(c.Plot.Y)
		w.raw(`" width="`)
		w.coord(t.W)
		w.raw(`" height="`)
		w.coord(c.Plot.H)
		w.raw(`"><title>`)
		for i, l := range t.Lines {
			if i > 0 {
				w.raw("\n")
			}
			w.text(l)
		}
		w.raw(`</title></rect>`)
	}
}
