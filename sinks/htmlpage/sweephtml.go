package htmlpage

import (
	"fmt"
	"strconv"
)

// sweepBody writes the sweep page's body as sweep.tmpl drew it:
//
//	<header>
//	<h1><span class="tool">steadysweep</span> sweep</h1>
//	<p class="path"><code>{{.Out}}</code></p>
//	<div class="cards">
//	<div class="card"><b>{{.Runs}}</b>runs</div>
//	<div class="card"><b>{{.Configs}}</b>configs</div>
//	<div class="card"><b>{{.Rows}}</b>rows</div>
//	{{range .Tally}}<div class="card"><b class="{{.Tone}}">{{.N}}</b>{{.Text}}</div>{{end}}
//	</div>
//	{{range .MissingSeries}}<p class="note missing-series">{{.}}</p>{{end}}
//	</header>
//	<main>
//	<section id="runs">
//	<h2>Runs</h2>
//	<form class="filters" onsubmit="return false">
//	{{range .Filters}}<label>{{.Label}}<select data-filter="{{.Name}}"><option value="">all</option>{{range .Options}}<option value="{{.}}">{{if .}}{{.}}{{else}}(none){{end}}</option>{{end}}</select></label>
//	{{end}}<label>search<input type="search" data-search placeholder="run, reason…"></label>
//	<span class="count"><span id="shown">{{.Rows}}</span> of {{.Rows}} rows shown</span>
//	</form>
//	<p class="hint">…</p>
//	<div class="tablewrap" id="table-runs">
//	<table class="sortable filterable">
//	<thead><tr>{{range .Head}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
//	<tbody>
//	{{range .Lines}}(sweepLine){{end}}</tbody>
//	</table>
//	</div>
//	</section>
//	{{if .Stops}}<section id="stops">
//	<h2>Could have stopped</h2>
//	<p class="hint">…</p>
//	{{range .Stops}}{{template "table" .}}{{end}}
//	</section>{{end}}
//	</main>
func (w *pageWriter) sweepBody(v *sweepView) {
	w.f("<header>\n<h1><span class=\"tool\">steadysweep</span> sweep</h1>\n<p class=\"path\"><code>{}</code></p>\n<div class=\"cards\">\n"+
		"<div class=\"card\"><b>{}</b>runs</div>\n<div class=\"card\"><b>{}</b>configs</div>\n<div class=\"card\"><b>{}</b>rows</div>\n",
		v.Out, strconv.Itoa(v.Runs), strconv.Itoa(v.Configs), strconv.Itoa(v.Rows))
	for _, t := range v.Tally {
		w.f(`<div class="card"><b class="{}">{}</b>{}</div>`, t.Tone, strconv.Itoa(t.N), t.Text)
	}
	w.raw("\n</div>\n")
	for _, m := range v.MissingSeries {
		w.f(`<p class="note missing-series">{}</p>`, m)
	}
	w.raw("\n</header>\n<main>\n<section id=\"runs\">\n<h2>Runs</h2>\n<form class=\"filters\" onsubmit=\"return false\">\n")
	for _, f := range v.Filters {
		w.f(`<label>{}<select data-filter="{}"><option value="">all</option>`, f.Label, f.Name)
		for _, o := range f.Options {
			if o != "" {
				w.f(`<option value="{}">{}</option>`, o, o)
			} else {
				w.raw(`<option value="">(none)</option>`)
			}
		}
		w.raw("</select></label>\n")
	}
	w.f("<label>search<input type=\"search\" data-search placeholder=\"run, reason…\"></label>\n<span class=\"count\"><span id=\"shown\">{}</span> of {} rows shown</span>\n</form>\n"+
		"<p class=\"hint\">Click a column header to sort. Series: TPOT p50 per super-pass, warmup shaded, the reported window green. Numbers: the steady window's, with its 95% CI and the whole run's below; the window in absolute super-passes.</p>\n"+
		"<div class=\"tablewrap\" id=\"table-runs\">\n<table class=\"sortable filterable\">\n", strconv.Itoa(v.Rows), strconv.Itoa(v.Rows))
	w.head(v.Head)
	w.raw("\n<tbody>\n")
	for i := range v.Lines {
		if w.stopped() {
			return
		}
		w.sweepLine(&v.Lines[i], v.HasModel)
	}
	w.raw("</tbody>\n</table>\n</div>\n</section>\n")
	if len(v.Stops) > 0 {
		w.raw("<section id=\"stops\">\n<h2>Could have stopped</h2>\n" +
			"<p class=\"hint\">GPU time after each run's earliest certified stop (<code>stop_saved_s</code>), per model and concurrency: runs, runs with a stop, stops the full run agrees with, wall time and the part after the stop in hours, and that part's share of the wall time.</p>\n")
		w.tables(v.Stops)
		w.raw("\n</section>")
	}
	w.raw("\n</main>")
}

// sweepLine writes one row of the sweep's table:
//
//	<tr data-key="{{.Key}}" data-run="{{.RunID}}"{{range .Attrs}} data-{{.Name}}="{{.Value}}"{{end}}>
//	<td class="run">{{if .Link}}<a href="{{.Link}}">{{.Run}}</a>{{else}}{{.Run}}{{end}}</td>
//	<td>{{.Config}}</td>
//	{{if $.HasModel}}<td>{{template "value" .Model}}</td>{{end}}
//	<td class="result" data-v="{{.Status.Text}} {{.Verdict.Text}}">{{template "badge" .Status}} {{template "badge" .Verdict}}{{if .Reason}}<br><small class="dim">{{.Reason}}</small>{{end}}</td>
//	<td data-v="{{if .Spark}}{{.Spark.Points}}{{end}}">{{with .Spark}}<svg class="spark" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Title}}"><title>{{.Title}}</title>{{range .Bands}}<rect class="{{.Class}}" x="{{coord .X}}" y="0" width="{{coord .W}}" height="28"/>{{end}}{{if .D}}<path class="sline" d="{{.D}}"/>{{end}}</svg>{{else}}<span class="na">no series</span>{{end}}</td>
//	{{range .Cells}}<td{{if .Class}} class="{{.Class}}"{{end}}{{if .Sort}} data-v="{{.Sort}}"{{end}}>{{template "value" .Value}}{{range .Sub}}<br><small class="dim">{{.}}</small>{{end}}</td>{{end}}
//	</tr>
func (w *pageWriter) sweepLine(l *sweepRow, hasModel bool) {
	w.f(`<tr data-key="{}" data-run="{}"`, l.Key, l.RunID)
	for _, a := range l.Attrs {
		w.raw(" data-")
		w.attrName(a.Name)
		w.f(`="{}"`, a.Value)
	}
	w.raw(">\n<td class=\"run\">")
	if l.Link != "" {
		w.raw(`<a href="`)
		w.url(l.Link)
		w.f(`">{}</a>`, l.Run)
	} else {
		w.text(l.Run)
	}
	w.f("</td>\n<td>{}</td>\n", l.Config)
	if hasModel {
		w.raw("<td>")
		w.value(l.Model)
		w.raw("</td>")
	}
	w.f("\n<td class=\"result\" data-v=\"{} {}\">", l.Status.Text, l.Verdict.Text)
	w.badge(l.Status)
	w.raw(" ")
	w.badge(l.Verdict)
	if l.Reason != "" {
		w.f(`<br><small class="dim">{}</small>`, l.Reason)
	}
	if s := l.Spark; s != nil {
		w.f("</td>\n<td data-v=\"{}\"><svg class=\"spark\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\"><title>{}</title>",
			strconv.Itoa(s.Points), fmt.Sprint(s.W), fmt.Sprint(s.H), s.Title, s.Title)
		for _, b := range s.Bands {
			w.f(`<rect class="{}" x="{}" y="0" width="{}" height="28"/>`, b.Class, coord(b.X), coord(b.W))
		}
		if s.D != "" {
			w.f(`<path class="sline" d="{}"/>`, s.D)
		}
		w.raw("</svg>")
	} else {
		w.raw("</td>\n<td data-v=\"\"><span class=\"na\">no series</span>")
	}
	w.raw("</td>\n")
	w.cells(l.Cells, false)
	w.raw("\n</tr>\n")
}
