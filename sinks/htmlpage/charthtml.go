package htmlpage

import (
	"fmt"
	"strconv"
)

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
	x, y, right, bottom := coord(p.X), coord(p.Y), coord(p.X+p.W), coord(p.Y+p.H)
	w.f(`<figure class="chart" id="chart-{}" data-super-passes="{}">`+"\n<figcaption>{}</figcaption>\n"+`<ul class="legend">`,
		c.ID, strconv.Itoa(c.NPoints), c.Title)
	for _, l := range c.Legend {
		w.f(`<li><span class="sw {}"></span>{}`, l.Class, l.Name)
		for _, n := range l.Notes {
			w.f(` <span class="flag">{}</span>`, n)
		}
		w.raw("</li>")
	}
	for _, b := range c.Bands {
		if b.Class == "warmup" || b.Class == "window" {
			w.f(`<li><span class="sw band {}"></span>{}</li>`, b.Class, b.Name)
		}
	}
	if len(c.Markers) > 0 {
		w.raw(`<li><span class="sw marker"></span>change point</li>`)
	}
	w.raw("</ul>\n")
	if c.Empty != "" {
		w.f(`<p class="empty">{}</p>`, c.Empty)
	} else {
		w.f(`<svg class="plot" viewBox="0 0 {} {}" role="img" aria-label="{}">`+"\n"+`<rect class="frame" x="{}" y="{}" width="{}" height="{}"/>`+"\n"+`<g class="bands">`,
			fmt.Sprint(c.W), fmt.Sprint(c.H), c.Title, x, y, coord(p.W), coord(p.H))
		for _, b := range c.Bands {
			w.f(`<rect class="band {}" x="{}" y="{}" width="{}" height="{}"/>`, b.Class, coord(b.X), y, coord(b.W), coord(p.H))
		}
		for _, b := range c.Bands {
			dy := "11"
			if b.Class == "plateau" {
				dy = "24"
			}
			if b.Label != "" {
				w.f(`<text class="bandlabel {}" x="{}" dx="3" y="{}" dy="{}">{}</text>`, b.Class, coord(b.X), y, dy, b.Label)
			}
		}
		w.raw("</g>\n<g class=\"yaxis\">")
		for _, t := range c.YTicks {
			pos := coord(t.Pos)
			w.f(`<line class="gridline" x1="{}" x2="{}" y1="{}" y2="{}"/><text x="{}" dx="-6" y="{}" dy="4">{}</text>`, x, right, pos, pos, x, pos, t.Text)
		}
		w.raw("</g>\n<g class=\"xaxis\">")
		for _, t := range c.XTicks {
			w.f(`<text x="{}" y="{}" dy="16">{}</text>`, coord(t.Pos), bottom, t.Text)
		}
		if c.XLabel != "" {
			w.f(`<text class="axislabel" x="{}" y="{}" dy="-4">{}</text>`, coord(p.X+p.W/2), coord(c.H), c.XLabel)
		}
		w.raw("</g>\n<g class=\"refs\">")
		for _, r := range c.Refs {
			w.f(`<line class="ref {}" x1="{}" x2="{}" y1="{}" y2="{}"><title>{}</title></line>`, r.Class, x, right, coord(r.Y), coord(r.Y), r.Label)
		}
		w.raw("</g>\n<g class=\"markers\">")
		for _, m := range c.Markers {
			mx := coord(m.X)
			w.f(`<line class="marker" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="markerlabel" x="{}" dx="-4" y="{}" dy="-6">{}</text>`, mx, mx, y, bottom, mx, y, m.Label)
		}
		w.raw("</g>\n<g class=\"lines\">")
		for _, l := range c.Lines {
			w.f(`<path class="line {}" d="{}"/>`, l.Class, l.D)
		}
		w.raw("</g>\n ")
		if len(c.Hits) > 0 {
			w.f(`<line class="cross" x1="0" x2="0" y1="{}" y2="{}" visibility="hidden"/>`, y, bottom)
		}
		w.raw("\n<g class=\"points\">")
		w.chartPoints(c)
		w.raw("</g>\n<g class=\"hits\">")
		w.chartHits(c)
		w.raw("</g>\n</svg>")
	}
	w.raw("\n")
	if c.Note != "" {
		w.f(`<p class="chartnote">{}</p>`, c.Note)
	}
	w.raw("\n</figure>")
}
