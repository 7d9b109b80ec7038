package htmlpage

import (
	"html/template"
	"testing"
)

// TestRowsHTMLTemplate: rowsHTML writes byte for byte what the
// "table" loop of parts.tmpl it replaces wrote (with the "value"
// template), for every branch (class, sort key, bold, sub-lines, n/a with
// and without a reason) and strings holding every character
// html/template escapes, noncharacters and invalid UTF-8.
func TestRowsHTMLTemplate(t *testing.T) {
	const valueTmpl = `{{define "value"}}{{if .NA}}<span class="na"{{if .Reason}} title="{{.Reason}}"{{end}}>n/a{{if .Reason}} — {{.Reason}}{{end}}</span>{{else}}{{.Text}}{{end}}{{end}}`
	const old = valueTmpl + `<table><tbody>{{range .}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}{{if .Sort}} data-v="{{.Sort}}"{{end}}>{{if .Bold}}<strong>{{template "value" .Value}}</strong>{{else}}{{template "value" .Value}}{{end}}{{range .Sub}}<br><small class="dim">{{.}}</small>{{end}}</td>{{end}}</tr>
{{end}}</tbody></table>`
	const now = `<table><tbody>{{rowsHTML .}}</tbody></table>`
	odd := oddText
	rows := [][]cell{
		{{Value: text("72.1")}, {Value: value{Text: odd}, Class: "ok", Sort: "72.1"}, {Value: na(""), Bold: true}},
		{{Value: na(odd), Class: odd, Sort: odd, Sub: []string{odd, "whole run 3"}, Bold: true}, {Value: value{Text: ""}}},
		{},
	}
	funcs := template.FuncMap{"rowsHTML": func(rows [][]cell) template.HTML { return written(func(w *pageWriter) { w.rowsHTML(rows) }) }}
	sameRendering(t, funcs, old, now, rows)
}
