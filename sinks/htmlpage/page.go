package htmlpage

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"

	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
)

// The page's stylesheet and script, embedded so a binary writes pages
// with nothing beside it.
var (
	//go:embed assets/page.css
	pageCSS string
	//go:embed assets/page.js
	pageJS string
)

// DataID is the id of the page's one <script type="application/json">,
// its record.
const DataID = "steadysweep-data"

// page writes every page's shell — a title, a kind (run, sweep,
// calibration), the stylesheet, the script and the record's empty data
// element (filled by dataElement) — around the kind's body:
//
//	<!DOCTYPE html>
//	<html lang="en" data-page="{{.Kind}}">
//	<head>
//	… <title>{{.Title}}</title>
//	<style>{{css}}</style>
//	</head>
//	<body>
//	{{template "body" .Body}}
//	<footer>…</footer>
//	<div class="tip" id="tip" hidden></div>
//	<script type="application/json" id="steadysweep-data"></script>
//	<script>{{js}}</script>
//	</body>
//	</html>
func (w *pageWriter) page(kind, title string, body func(*pageWriter)) {
	w.raw("<!DOCTYPE html>\n<html lang=\"en\" data-page=\"")
	w.text(kind)
	w.raw(`">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="steadysweep">
<title>`)
	w.text(title)
	w.raw("</title>\n<style>")
	w.raw(pageCSS)
	w.raw("</style>\n</head>\n<body>\n")
	body(w)
	w.raw(`
<footer>Written by steadysweep. This page is self-contained: its data is embedded as JSON in <code>script#steadysweep-data</code>; every number on it is read from that record.</footer>
<div class="tip" id="tip" hidden></div>
<script type="application/json" id="` + DataID + `">`)
	w.dataElement()
	w.raw("</script>\n<script>")
	w.raw(pageJS)
	w.raw("</script>\n</body>\n</html>\n")
}

// writePage writes body (a page kind's body writer) as a page of kind
// with record data embedded.
func writePage(w io.Writer, kind, title string, data any, body func(*pageWriter)) error {
	return writePageStopping(w, kind, title, data, body, &stopper{})
}

// writePageStopping is writePage polling st (stop.go) while it encodes
// data and writes the page: stopped, it writes nothing to w.
//
// The record is encoded straight into its compact, script-safe form
// (scriptWriter) and written into the page's data element: a long run's
// record (10,000 super-passes: 107 MB indented, 65 MB embedded) was held
// as the indented text, its compact copy, the rendered page and the
// page's checked copy (437 MB resident, 7 s of CPU). A page nothing can
// stop (st without a Stop function: the run and calibration pages) is
// streamed to w, its record too, a chunk of the page held at a time; one
// that can stop is held whole, its record encoded first, so a stopped
// page writes nothing.
func writePageStopping(w io.Writer, kind, title string, data any, body func(*pageWriter), st *stopper) error {
	if st.stop == nil {
		pw := &pageWriter{out: w, record: data}
		pw.page(kind, title, body)
		if pw.flush(); pw.err != nil {
			return fmt.Errorf("htmlpage: write %s page: %w", kind, pw.err)
		}
		return nil
	}
	rec := &scriptWriter{}
	pyjson.Write(rec, data) // a scriptWriter never fails
	if err := st.now(); err != nil {
		return err
	}
	pw := &pageWriter{st: st}
	pw.page(kind, title, body)
	if err := st.now(); err != nil {
		return err
	}
	page := pw.b.Bytes()
	_, err := w.Write(validText(page[:pw.at]))
	if err == nil {
		_, err = w.Write(rec.b.Bytes())
	}
	if err == nil {
		_, err = w.Write(validText(page[pw.at:]))
	}
	if err != nil {
		return fmt.Errorf("htmlpage: write %s page: %w", kind, err)
	}
	return nil
}

// validText is sinks.ValidText of the bytes p: names are data (a run
// directory's invalid UTF-8 and control bytes, passed through by the
// escapes as html/template passed them); they are escaped as in every
// output, so the page is valid UTF-8.
func validText(p []byte) []byte {
	if s := string(p); sinks.ValidText(s) != s {
		return []byte(sinks.ValidText(s))
	}
	return p
}

// scriptSafe is the JSON text j made compact and safe inside a script
// element (scriptWriter).
func scriptSafe(j []byte) string {
	var w scriptWriter
	w.Write(j)
	return w.b.String()
}

// scriptWriter makes JSON text compact and safe inside a script element:
// the indentation pyjson writes for people is dropped (it is half the
// bytes of a page's record) and "<", ">", "&" become \u escapes. Both
// only touch bytes outside strings or characters that occur only inside
// strings, so the text parses to the same values, every number kept as
// written. The text may come in pieces cut anywhere. The result gathers
// in b; with out set, b is handed to out whenever it holds scriptChunk
// bytes (and by flush).
type scriptWriter struct {
	b   bytes.Buffer
	out io.Writer
	// inString is whether the text so far ends inside a string, escaped
	// whether it ends on a string's backslash (the next byte is kept).
	inString, escaped bool
}

// scriptChunk is how much a streaming scriptWriter gathers per write.
const scriptChunk = 64 << 10

func (w *scriptWriter) Write(j []byte) (int, error) {
	w.b.Grow(len(j))
	for i := 0; i < len(j); i++ {
		c := j[i]
		switch {
		case w.escaped:
			w.escaped = false
		case c == '<':
			w.b.WriteString(`\u003c`)
			continue
		case c == '>':
			w.b.WriteString(`\u003e`)
			continue
		case c == '&':
			w.b.WriteString(`\u0026`)
			continue
		case w.inString && c == '\\':
			w.escaped = true
		case c == '"':
			w.inString = !w.inString
		case !w.inString && (c == ' ' || c == '\n' || c == '\t' || c == '\r'):
			continue
		}
		w.b.WriteByte(c)
	}
	if w.out != nil && w.b.Len() >= scriptChunk {
		return len(j), w.flush()
	}
	return len(j), nil
}

// flush hands what b holds to out.
func (w *scriptWriter) flush() error {
	_, err := w.out.Write(w.b.Bytes())
	w.b.Reset()
	return err
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
