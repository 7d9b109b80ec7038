package htmlpage

import (
	"html/template"
	"strings"
	"testing"
)

// TestChartMarksTemplate: chartPoints and chartHits (in a template, as
// they were) write byte for byte
// what parts.tmpl's html/template loops they replace wrote, in the same
// context (inside an inline <svg>), for points with and without titles
// and hover lines holding every character html/template escapes, a
// noncharacter and invalid UTF-8.
func TestChartMarksTemplate(t *testing.T) {
	const old = `<svg><g class="points">{{range .Points}}<circle class="pt {{.Class}}" data-sp="{{.SP}}" cx="{{coord .X}}" cy="{{coord .Y}}" r="{{if .Title}}4{{else}}3{{end}}">{{with .Title}}<title>{{.}}</title>{{end}}</circle>{{end}}</g>` +
		`<g class="hits">{{range .Hits}}<rect class="hit" data-sp="{{.SP}}" tabindex="0" x="{{coord .X}}" y="{{coord $.Plot.Y}}" width="{{coord .W}}" height="{{coord $.Plot.H}}"><title>{{join .Lines "\n"}}</title></rect>{{end}}</g></svg>`
	const now = `<svg><g class="points">{{chartPoints .}}</g><g class="hits">{{chartHits .}}</g></svg>`
	funcs := template.FuncMap{"coord": coord, "join": strings.Join,
		"chartPoints": func(c chart) template.HTML { return written(func(w *pageWriter) { w.chartPoints(c) }) },
		"chartHits":   func(c chart) template.HTML { return written(func(w *pageWriter) { w.chartHits(c) }) }}
	odd := oddText
	c := chart{Plot: box{X: 40, Y: 12.25, W: 600, H: 180.04},
		Points: []point{{X: 40.04, Y: 99.95, SP: 0, Class: "tpot-p50"}, {X: -1.25, Y: 1e6, SP: 9999, Class: odd},
			{X: 3, Y: 4, SP: 7, Class: "scatter", Title: odd}},
		Hits: []hit{{X: 40, W: 0.06, SP: 0, Lines: []string{"super-pass 0", "TPOT p50 72.1 ms", odd}}, {X: 40.06, W: 0.06, SP: 1},
			{X: 41, W: 2, SP: 2, Lines: []string{""}}}}
	sameRendering(t, funcs, old, now, c)
}

// oddText holds every character html/template escapes, a noncharacter,
// U+FFFD and invalid UTF-8.
const oddText = "a\"b&c'd+e<f>g\x00h\uFDD0i\uFFFEj\uFFFDk\xffl é\t\\n"

// written is what write writes, as trusted HTML.
func written(write func(*pageWriter)) template.HTML {
	var w pageWriter
	write(&w)
	return template.HTML(w.b.String())
}

// sameRendering fails t unless the templates old and now, given funcs,
// render data to the same bytes.
func sameRendering(t *testing.T, funcs template.FuncMap, old, now string, data any) {
	t.Helper()
	render := func(src string) string {
		var b strings.Builder
		if err := template.Must(template.New("t").Funcs(funcs).Parse(src)).Execute(&b, data); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if want, got := render(old), render(now); got != want {
		t.Errorf("direct rendering differs from the template's:\n got %q\nwant %q", got, want)
	}
}
