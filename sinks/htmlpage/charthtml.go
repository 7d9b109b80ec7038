package htmlpage

// chart writes c as parts.tmpl's "chart" template drew it (the points and
// hover targets: chartmarks.go):
//
//	<figure class="chart" id="chart-{{.ID}}" data-super-passes="{{.NPoints}}">
//	<figcaption>{{.Title}}</figcaption>
//	<ul class="legend">{{range .Legend}}<li><span class="sw {{.Class}}"></span>{{.Name}}{{range .Notes}} <span class="flag">{{.}}</span>{{end}}</li>{{end}}{{range .Bands}}{{if eq .Class "warmup" "window"}}<li><span class="sw band {{.Class}}"></span>{{.Name}}</li>{{end}}{{end}}{{if .Markers}}<li><span class="sw marker"></span>change point</li>{{end}}</ul>
//	{{if .Empty}}<p class="empty">{{.Empty}}</p>{{else}}<svg class="plot" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Title}}">
//	<rect class="frame" x="{{coord .Plot.X}}" y="{{coord .Plot.Y}}" width="{{coord .Plot.W}}" height="{{coord .Plot.H}}"/>
//	<g class="bands">{{range .Bands}}<rect class="band {{.Class}}" x="{{coord .X}}" y="{{coord $.Plot.Y}}" width="{{coord .W}}" height="{{coord $.Plot.H}}"/>{{end}}{{range $i, $b := .Bands}}{{if .Label}}<text class="bandlabel {{.Class}}" x="{{coord .X}}" dx="3" y="{{coord $.Plot.Y}}" dy="{{if eq .Class "plateau"}}24{{else}}11{{end}}">{{.Label}}</text>{{end}}{{end}}</g>
//	<g class="yaxis">{{range .YTicks}}<line class="gridline" x1="{{coord $.Plot.X}}" x2="{{coord (add0 $.Plot.X $.Plot.W)}}" y1="{{coord .Pos}}" y2="{{coord .Pos}}"/><text x="{{coord $.Plot.X}}" dx="-6" y="{{coord .Pos}}" dy="4">{{.Text}}</text>{{end}}</g>
//	<g class="xaxis">{{range .XTicks}}<text x="{{coord .Pos}}" y="{{coord (add0 $.Plot.Y $.Plot.H)}}" dy="16">{{.Text}}</text>{{end}}{{if .XLabel}}<text class="axislabel" x="{{coord (add0 $.Plot.X (half $.Plot.W))}}" y="{{coord $.H}}" dy="-4">{{.XLabel}}</text>{{end}}</g>
//	<g class="refs">{{range .Refs}}<line class="ref {{.Class}}" x1="{{coord $.Plot.X}}" x2="{{coord (add0 $.Plot.X $.Plot.W)}}" y1="{{coord .Y}}" y2="{{coord .Y}}"><title>{{.Label}}</title></line>{{end}}</g>
//	<g class="markers">{{range .Markers}}<line class="marker" x1="{{coord .X}}" x2="{{coord .X}}" y1="{{coord $.Plot.Y}}" y2="{{coord (add0 $.Plot.Y $.Plot.H)}}"/><text class="markerlabel" x="{{coord .X}}" dx="-4" y="{{coord $.Plot.Y}}" dy="-6">{{.Label}}</text>{{end}}</g>
//	<g class="lines">{{range .Lines}}<path class="line {{.Class}}" d="{{.D}}"/>{{end}}</g>
//	 {{if .Hits}}<line class="cross" x1="0" x2="0" y1="{{coord .Plot.Y}}" y2="{{coord (add0 .Plot.Y .Plot.H)}}" visibility="hidden"/>{{end}}
//	<g class="points">{{chartPoints .}}</g>
//	<g class="hits">{{chartHits .}}</g>
//	</svg>{{end}}
//	{{if .Note}}<p class="chartnote">{{.Note}}</p>{{end}}
//	</figure>
func (w *pageWriter) chart(c chart) {
	p := c.Plot
	w.raw(`<figure class="chart" id="chart-`)
	w.text(c.ID)
	w.raw(`" data-super-passes="`)
	w.int(c.NPoints)
	w.raw("\">\n<figcaption>")
	w.text(c.Title)
	w.raw("</figcaption>\n<ul class=\"legend\">")
	for _, l := range c.Legend {
		w.raw(`<li><span class="sw `)
		w.text(l.Class)
		w.raw(`"></span>`)
		w.text(l.Name)
		for _, n := range l.Notes {
			w.raw(` <span class="flag">`)
			w.text(n)
			w.raw("</span>")
		}
		w.raw("</li>")
	}
	for _, b := range c.Bands {
		if b.Class == "warmup" || b.Class == "window" {
			w.raw(`<li><span class="sw band `)
			w.text(b.Class)
			w.raw(`"></span>`)
			w.text(b.Name)
			w.raw("</li>")
		}
	}
	if len(c.Markers) > 0 {
		w.raw(`<li><span class="sw marker"></span>change point</li>`)
	}
	w.raw("</ul>\n")
	if c.Empty != "" {
		w.raw(`<p class="empty">`)
		w.text(c.Empty)
		w.raw("</p>")
	} else {
		w.raw(`<svg class="plot" viewBox="0 0 `)
		w.num(c.W)
		w.raw(" ")
		w.num(c.H)
		w.raw(`" role="img" aria-label="`)
		w.text(c.Title)
		w.raw("\">\n<rect class=\"frame\" x=\"")
		w.coord(p.X)
		w.raw(`" y="`)
		w.coord(p.Y)
		w.raw(`" width="`)
		w.coord(p.W)
		w.raw(`" height="`)
		w.coord(p.H)
		w.raw("\"/>\n<g class=\"bands\">")
		for _, b := range c.Bands {
			w.raw(`<rect class="band `)
			w.text(b.Class)
			w.raw(`" x="`)
			w.coord(b.X)
			w.raw(`" y="`)
			w.coord(p.Y)
			w.raw(`" width="`)
			w.coord(b.W)
			w.raw(`" height="`)
			w.coord(p.H)
			w.raw(`"/>`)
		}
		for _, b := range c.Bands {
			if b.Label == "" {
				continue
			}
			w.raw(`<text class="bandlabel `)
			w.text(b.Class)
			w.raw(`" x="`)
			w.coord(b.X)
			w.raw(`" dx="3" y="`)
			w.coord(p.Y)
			if b.Class == "plateau" {
				w.raw(`" dy="24">`)
			} else {
				w.raw(`" dy="11">`)
			}
			w.text(b.Label)
			w.raw("</text>")
		}
		w.raw("</g>\n<g class=\"yaxis\">")
		for _, t := range c.YTicks {
			w.raw(`<line class="gridline" x1="`)
			w.coord(p.X)
			w.raw(`" x2="`)
			w.coord(p.X + p.W)
			w.raw(`" y1="`)
			w.coord(t.Pos)
			w.raw(`" y2="`)
			w.coord(t.Pos)
			w.raw(`"/><text x="`)
			w.coord(p.X)
			w.raw(`" dx="-6" y="`)
			w.coord(t.Pos)
			w.raw(`" dy="4">`)
			w.text(t.Text)
			w.raw("</text>")
		}
		w.raw("</g>\n<g class=\"xaxis\">")
		for _, t := range c.XTicks {
			w.raw(`<text x="`)
			w.coord(t.Pos)
			w.raw(`" y="`)
			w.coord(p.Y + p.H)
			w.raw(`" dy="16">`)
			w.text(t.Text)
			w.raw("</text>")
		}
		if c.XLabel != "" {
			w.raw(`<text class="axislabel" x="`)
			w.coord(p.X + p.W/2)
			w.raw(`" y="`)
			w.coord(c.H)
			w.raw(`" dy="-4">`)
			w.text(c.XLabel)
			w.raw("</text>")
		}
		w.raw("</g>\n<g class=\"refs\">")
		for _, r := range c.Refs {
			w.raw(`<line class="ref `)
			w.text(r.Class)
			w.raw(`" x1="`)
			w.coord(p.X)
			w.raw(`" x2="`)
			w.coord(p.X + p.W)
			w.raw(`" y1="`)
			w.coord(r.Y)
			w.raw(`" y2="`)
			w.coord(r.Y)
			w.raw(`"><title>`)
			w.text(r.Label)
			w.raw("</title></line>")
		}
		w.raw("</g>\n<g class=\"markers\">")
		for _, m := range c.Markers {
			w.raw(`<line class="marker" x1="`)
			w.coord(m.X)
			w.raw(`" x2="`)
			w.coord(m.X)
			w.raw(`" y1="`)
			w.coord(p.Y)
			w.raw(`" y2="`)
			w.coord(p.Y + p.H)
			w.raw(`"/><text class="markerlabel" x="`)
			w.coord(m.X)
			w.raw(`" dx="-4" y="`)
			w.coord(p.Y)
			w.raw(`" dy="-6">`)
			w.text(m.Label)
			w.raw("</text>")
		}
		w.raw("</g>\n<g class=\"lines\">")
		for _, l := range c.Lines {
			w.raw(`<path class="line `)
			w.text(l.Class)
			w.raw(`" d="`)
			w.text(l.D)
			w.raw(`"/>`)
		}
		w.raw("</g>\n ")
		if len(c.Hits) > 0 {
			w.raw(`<line class="cross" x1="0" x2="0" y1="`)
			w.coord(p.Y)
			w.raw(`" y2="`)
			w.coord(p.Y + p.H)
			w.raw(`" visibility="hidden"/>`)
		}
		w.raw("\n<g class=\"points\">")
		w.chartPoints(c)
		w.raw("</g>\n<g class=\"hits\">")
		w.chartHits(c)
		w.raw("</g>\n</svg>")
	}
	w.raw("\n")
	if c.Note != "" {
		w.raw(`<p class="chartnote">`)
		w.text(c.Note)
		w.raw("</p>")
	}
	w.raw("\n</figure>")
}
