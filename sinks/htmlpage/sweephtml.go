package htmlpage

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
	w.raw("<header>\n<h1><span class=\"tool\">steadysweep</span> sweep</h1>\n<p class=\"path\"><code>")
	w.text(v.Out)
	w.raw("</code></p>\n<div class=\"cards\">\n<div class=\"card\"><b>")
	w.int(v.Runs)
	w.raw("</b>runs</div>\n<div class=\"card\"><b>")
	w.int(v.Configs)
	w.raw("</b>configs</div>\n<div class=\"card\"><b>")
	w.int(v.Rows)
	w.raw("</b>rows</div>\n")
	for _, t := range v.Tally {
		w.raw(`<div class="card"><b class="`)
		w.text(t.Tone)
		w.raw(`">`)
		w.int(t.N)
		w.raw("</b>")
		w.text(t.Text)
		w.raw("</div>")
	}
	w.raw("\n</div>\n")
	for _, m := range v.MissingSeries {
		w.raw(`<p class="note missing-series">`)
		w.text(m)
		w.raw("</p>")
	}
	w.raw("\n</header>\n<main>\n<section id=\"runs\">\n<h2>Runs</h2>\n<form class=\"filters\" onsubmit=\"return false\">\n")
	for _, f := range v.Filters {
		w.raw("<label>")
		w.text(f.Label)
		w.raw(`<select data-filter="`)
		w.text(f.Name)
		w.raw(`"><option value="">all</option>`)
		for _, o := range f.Options {
			w.raw(`<option value="`)
			w.text(o)
			w.raw(`">`)
			if o != "" {
				w.text(o)
			} else {
				w.raw("(none)")
			}
			w.raw("</option>")
		}
		w.raw("</select></label>\n")
	}
	w.raw("<label>search<input type=\"search\" data-search placeholder=\"run, reason…\"></label>\n<span class=\"count\"><span id=\"shown\">")
	w.int(v.Rows)
	w.raw("</span> of ")
	w.int(v.Rows)
	w.raw(" rows shown</span>\n</form>\n" +
		"<p class=\"hint\">Click a column header to sort. Series: TPOT p50 per super-pass, warmup shaded, the reported window green. Numbers: the steady window's, with its 95% CI and the whole run's below; the window in absolute super-passes.</p>\n" +
		"<div class=\"tablewrap\" id=\"table-runs\">\n<table class=\"sortable filterable\">\n")
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
		for _, t := range v.Stops {
			w.table(t)
		}
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
	w.raw(`<tr data-key="`)
	w.text(l.Key)
	w.raw(`" data-run="`)
	w.text(l.RunID)
	w.raw(`"`)
	for _, a := range l.Attrs {
		w.raw(" data-")
		w.attrName(a.Name)
		w.raw(`="`)
		w.text(a.Value)
		w.raw(`"`)
	}
	w.raw(">\n<td class=\"run\">")
	if l.Link != "" {
		w.raw(`<a href="`)
		w.url(l.Link)
		w.raw(`">`)
		w.text(l.Run)
		w.raw("</a>")
	} else {
		w.text(l.Run)
	}
	w.raw("</td>\n<td>")
	w.text(l.Config)
	w.raw("</td>\n")
	if hasModel {
		w.raw("<td>")
		w.value(l.Model)
		w.raw("</td>")
	}
	w.raw("\n<td class=\"result\" data-v=\"")
	w.text(l.Status.Text)
	w.raw(" ")
	w.text(l.Verdict.Text)
	w.raw(`">`)
	w.badge(l.Status)
	w.raw(" ")
	w.badge(l.Verdict)
	if l.Reason != "" {
		w.raw(`<br><small class="dim">`)
		w.text(l.Reason)
		w.raw("</small>")
	}
	w.raw("</td>\n<td data-v=\"")
	if s := l.Spark; s != nil {
		w.int(s.Points)
		w.raw(`"><svg class="spark" viewBox="0 0 `)
		w.num(s.W)
		w.raw(" ")
		w.num(s.H)
		w.raw(`" role="img" aria-label="`)
		w.text(s.Title)
		w.raw(`"><title>`)
		w.text(s.Title)
		w.raw("</title>")
		for _, b := range s.Bands {
			w.raw(`<rect class="`)
			w.text(b.Class)
			w.raw(`" x="`)
			w.coord(b.X)
			w.raw(`" y="0" width="`)
			w.coord(b.W)
			w.raw(`" height="28"/>`)
		}
		if s.D != "" {
			w.raw(`<path class="sline" d="`)
			w.text(s.D)
			w.raw(`"/>`)
		}
		w.raw("</svg>")
	} else {
		w.raw(`"><span class="na">no series</span>`)
	}
	w.raw("</td>\n")
	w.cells(l.Cells, false)
	w.raw("\n</tr>\n")
}
