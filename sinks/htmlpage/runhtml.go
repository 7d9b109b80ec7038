package htmlpage

// runBody writes the run page's body as run.tmpl drew it:
//
//	<header>
//	{{if .Back}}<p class="back"><a href="{{.Back}}">← sweep</a></p>{{end}}
//	<h1><span class="tool">steadysweep</span> {{.Name}}</h1>
//	<p class="headline">{{template "badge" .Status}} {{template "badge" .Verdict}}{{if .Reason}} <span class="reason">{{.Reason}}</span>{{end}}</p>
//	{{if .Path}}<p class="path"><code>{{.Path}}</code></p>{{end}}
//	{{template "fields" .Lines}}
//	</header>
//	<main>
//	<section id="headline">
//	<h2>Result</h2>
//	{{template "fields" .Window}}
//	{{if .NATL.Rows}}{{template "table" .NATL}}{{end}}
//	<div class="split">
//	{{template "table" .Compare}}
//	<div>{{template "fields" .Findings}}</div>
//	</div>
//	{{if .Certification.Rows}}{{template "table" .Certification}}{{end}}
//	{{if .Peer}}{{template "fields" .Peer}}{{end}}
//	</section>
//	{{if .Charts}}<section id="charts">
//	<h2>Per super-pass</h2>
//	<p class="hint">…</p>
//	{{range .Charts}}{{template "chart" .}}{{end}}
//	</section>{{end}}
//	{{if .Diagnostics}}<section id="diagnostics">
//	<h2>Diagnostics</h2>
//	{{range .Diagnostics}}{{template "table" .}}{{end}}
//	<details><summary>per super-pass values</summary>{{template "table" .SuperPasses}}</details>
//	</section>{{end}}
//	<section id="details">
//	<h2>Details</h2>
//	<p class="hint">The rest of the result, as the JSON has it.</p>
//	{{range .Details}}<details><summary>{{.Title}}</summary>{{template "fields" .Fields}}</details>{{end}}
//	</section>
//	<section id="settings">
//	<h2>Settings</h2>
//	{{template "fields" .Settings}}
//	<details><summary>detector parameters</summary>{{template "table" .Params}}</details>
//	</section>
//	</main>
func (w *pageWriter) runBody(v *runView) {
	w.raw("<header>\n")
	if v.Back != "" {
		w.raw(`<p class="back"><a href="`)
		w.url(v.Back)
		w.raw(`">← sweep</a></p>`)
	}
	w.f("\n<h1><span class=\"tool\">steadysweep</span> {}</h1>\n<p class=\"headline\">", v.Name)
	w.badge(v.Status)
	w.raw(" ")
	w.badge(v.Verdict)
	if v.Reason != "" {
		w.f(` <span class="reason">{}</span>`, v.Reason)
	}
	w.raw("</p>\n")
	if v.Path != "" {
		w.f(`<p class="path"><code>{}</code></p>`, v.Path)
	}
	w.raw("\n")
	w.fields(v.Lines)
	w.raw("\n</header>\n<main>\n<section id=\"headline\">\n<h2>Result</h2>\n")
	w.fields(v.Window)
	w.raw("\n")
	if len(v.NATL.Rows) > 0 {
		w.table(v.NATL)
	}
	w.split(v.Compare, v.Findings)
	if len(v.Certification.Rows) > 0 {
		w.table(v.Certification)
	}
	if w.raw("\n"); len(v.Peer) > 0 {
		w.fields(v.Peer)
	}
	w.raw("\n</section>\n")
	if len(v.Charts) > 0 {
		w.raw("<section id=\"charts\">\n<h2>Per super-pass</h2>\n" +
			"<p class=\"hint\">Hover or tap a super-pass for its values. Shaded: warmup; green: the reported window; outlined: plateaus; red line: level shift; dashed: whole-run values.</p>\n")
		for _, c := range v.Charts {
			w.chart(c)
		}
		w.raw("\n</section>")
	}
	w.raw("\n")
	if len(v.Diagnostics) > 0 {
		w.raw("<section id=\"diagnostics\">\n<h2>Diagnostics</h2>\n")
		w.tables(v.Diagnostics)
		w.raw("\n<details><summary>per super-pass values</summary>")
		w.table(v.SuperPasses)
		w.raw("</details>\n</section>")
	}
	w.raw("\n<section id=\"details\">\n<h2>Details</h2>\n<p class=\"hint\">The rest of the result, as the JSON has it.</p>\n")
	for _, d := range v.Details {
		w.f("<details><summary>{}</summary>", d.Title)
		w.fields(d.Fields)
		w.raw("</details>")
	}
	w.raw("\n</section>\n<section id=\"settings\">\n<h2>Settings</h2>\n")
	w.fields(v.Settings)
	w.raw("\n<details><summary>detector parameters</summary>")
	w.table(v.Params)
	w.raw("</details>\n</section>\n</main>")
}

// split writes the headline's steady-vs-total table beside its findings:
//
//	<div class="split">
//	{{template "table" .Compare}}
//	<div>{{template "fields" .Findings}}</div>
//	</div>
func (w *pageWriter) split(compare table, findings []field) {
	w.raw("\n<div class=\"split\">\n")
	w.table(compare)
	w.raw("\n<div>")
	w.fields(findings)
	w.raw("</div>\n</div>\n")
}
