package htmlpage

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
)

// The page's assets: one shell (CSS, JS and the embedded record), the
// chart, and a body per page kind. They are embedded, so a binary writes
// pages with nothing beside it.
//
//go:embed assets/*
var assets embed.FS

// DataID is the id of the page's one <script type="application/json">,
// its record.
const DataID = "steadysweep-data"

// shell is what every page has: a title, a kind (run, sweep,
// calibration), the record and the body.
type shell struct {
	Title, Kind string
	// Data is the record, JSON made safe inside a script element.
	Data template.JS
	Body any
}

// templates parses the shell with the body of each page kind once.
var templates = sync.OnceValues(func() (map[string]*template.Template, error) {
	css, err := assets.ReadFile("assets/page.css")
	if err != nil {
		return nil, err
	}
	js, err := assets.ReadFile("assets/page.js")
	if err != nil {
		return nil, err
	}
	funcs := template.FuncMap{
		"css":   func() template.CSS { return template.CSS(css) },
		"js":    func() template.JS { return template.JS(js) },
		"coord": coord,
		"join":  strings.Join,
		"add0":  func(a, b float64) float64 { return a + b },
		"half":  func(a float64) float64 { return a / 2 },
	}
	out := map[string]*template.Template{}
	for _, kind := range []string{"run", "sweep", "calibration"} {
		t, err := template.New("page.tmpl").Funcs(funcs).ParseFS(assets,
			"assets/page.tmpl", "assets/parts.tmpl", "assets/"+kind+".tmpl")
		if err != nil {
			return nil, err
		}
		out[kind] = t
	}
	return out, nil
})

// writePage renders body as a page of kind with record data embedded.
func writePage(w io.Writer, kind, title string, data any, body any) error {
	return writePageStopping(w, kind, title, data, body, &stopper{})
}

// writePageStopping is writePage polling st (stop.go) while it encodes
// data and renders the page: stopped, it writes nothing to w.
func writePageStopping(w io.Writer, kind, title string, data any, body any, st *stopper) error {
	ts, err := templates()
	if err != nil {
		return fmt.Errorf("htmlpage: templates: %w", err)
	}
	js := pyjson.Marshal(data)
	if err := st.now(); err != nil {
		return err
	}
	var b bytes.Buffer
	err = ts[kind].Execute(stopWriter{&b, st}, shell{Title: title, Kind: kind, Data: template.JS(scriptSafe(js)), Body: body})
	if st.err != nil {
		return st.err
	}
	if err != nil {
		return fmt.Errorf("htmlpage: render %s page: %w", kind, err)
	}
	if err := st.now(); err != nil {
		return err
	}
	page := b.Bytes()
	// Names are data: html/template passes a run directory's invalid
	// UTF-8 and control bytes through; they are escaped, as in every
	// output (sinks.ValidText), so the page is valid UTF-8.
	if s := string(page); sinks.ValidText(s) != s {
		page = []byte(sinks.ValidText(s))
	}
	if _, err := w.Write(page); err != nil {
		return fmt.Errorf("htmlpage: write %s page: %w", kind, err)
	}
	return nil
}

// scriptSafe is the JSON text j made compact and safe inside a script
// element: the indentation pyjson writes for people is dropped (it is
// half the bytes of a page's record) and "<", ">", "&" become \u escapes.
// Both only touch bytes outside strings or characters that occur only
// inside strings, so the text parses to the same values, every number
// kept as written.
func scriptSafe(j []byte) string {
	var b strings.Builder
	b.Grow(len(j))
	inString := false
	for i := 0; i < len(j); i++ {
		c := j[i]
		switch {
		case c == '<':
			b.WriteString(`\u003c`)
			continue
		case c == '>':
			b.WriteString(`\u003e`)
			continue
		case c == '&':
			b.WriteString(`\u0026`)
			continue
		case inString && c == '\\' && i+1 < len(j):
			b.WriteByte(c)
			i++
			c = j[i]
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\n' || c == '\t' || c == '\r'):
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Record returns the record embedded in a page written by this package:
// the JSON text of its <script type="application/json" id=DataID>, with
// the escapes of scriptSafe undone, or an error when the page has none.
func Record(page []byte) ([]byte, error) {
	open := []byte(`<script type="application/json" id="` + DataID + `">`)
	i := bytes.Index(page, open)
	if i < 0 {
		return nil, fmt.Errorf("htmlpage: no %s record in the page", DataID)
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		return nil, fmt.Errorf("htmlpage: the %s record is not closed", DataID)
	}
	return unescapeScript(rest[:j]), nil
}

// unescapeScript undoes scriptSafe: \u003c, \u003e and \u0026 become the
// characters again; every other escape, \\ included, is kept as written.
func unescapeScript(j []byte) []byte {
	out := make([]byte, 0, len(j))
	for i := 0; i < len(j); i++ {
		if j[i] != '\\' || i+1 >= len(j) {
			out = append(out, j[i])
			continue
		}
		if j[i+1] == 'u' && i+6 <= len(j) {
			switch string(j[i+2 : i+6]) {
			case "003c":
				out, i = append(out, '<'), i+5
				continue
			case "003e":
				out, i = append(out, '>'), i+5
				continue
			case "0026":
				out, i = append(out, '&'), i+5
				continue
			}
		}
		out, i = append(out, j[i], j[i+1]), i+1
	}
	return out
}
