package htmlpage

import (
	"bytes"
	"cmp"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// pageWriter writes a page's HTML, escaping each string for the one
// context it is written in, byte for byte as html/template escaped the
// templates these pages were drawn with (TestPagesAsTheTemplatesWrote,
// TestHostileTextAsTheTemplatesEscaped). html/template, text/template
// and their parse of the templates cost every process — `--version`
// included — their package initialisation and the page faults of their
// code (issue 32); our pages use these contexts, written here:
//
//   - text: HTML text, a double-quoted attribute value, and the RCDATA of
//     <title> (html/template's htmlEscaper, attrEscaper and rcdataEscaper
//     all apply htmlReplacementTable to a plain string);
//   - url: a double-quoted href (its urlFilter, urlNormalizer, then
//     attrEscaper);
//   - attrName: the dynamic part of the sweep rows' data-NAME attributes
//     (its htmlNameFilter);
//   - raw: the page's own markup and its embedded CSS and JS (typed
//     template.CSS and template.JS, written as they are);
//   - numbers: fmt.Sprint of an int or a float64 (strconv.Itoa, coord,
//     fmt.Sprint), then text (only +Inf's sign is escaped).
//
// The page gathers in b. With out set, the page is streamed: b is
// handed to out (made valid text, validText) once per row of a long loop
// when it holds pageChunk bytes, and the data element gets record,
// encoded as it is written. Without, the page is held whole, and at is
// where its data element's text goes. st, when set, is polled once per
// row (stop.go); a stopped page is discarded, so the loops only end
// early.
type pageWriter struct {
	b  bytes.Buffer
	st *stopper

	out    io.Writer
	record any
	// err is out's first error (nothing is written after it).
	err error
	// chunk is how many bytes b gathers before it is handed to out (0:
	// pageChunk; tests cut pages finer).
	chunk int

	at int
}

// pageChunk is how much of a streamed page is held at a time.
const pageChunk = 64 << 10

// stopped counts one unit of work (a row), hands a full chunk of a
// streamed page to out, and reports whether the page was stopped.
func (w *pageWriter) stopped() bool {
	if w.out != nil && w.b.Len() >= cmp.Or(w.chunk, pageChunk) {
		w.flushChunk()
	}
	return w.st != nil && w.st.poll() != nil
}

// flushChunk hands b to out up to its last ASCII byte: cut before an
// ASCII byte, b's text decodes (and validText escapes it) as the whole
// page's does, an invalid or unfinished sequence before the cut included.
func (w *pageWriter) flushChunk() {
	p := w.b.Bytes()
	cut := len(p)
	for cut > 0 && p[cut-1] >= utf8.RuneSelf {
		cut--
	}
	if cut > 0 {
		cut-- // the ASCII byte stays, so the bytes before it are ended
	}
	if w.err == nil {
		_, w.err = w.out.Write(validText(p[:cut]))
	}
	w.b.Next(cut)
}

// flush hands all of b to out.
func (w *pageWriter) flush() {
	if w.err == nil {
		_, w.err = w.out.Write(validText(w.b.Bytes()))
	}
	w.b.Reset()
}

// dataElement is where the page's record goes: streamed, the page so far
// is handed to out and the record encoded into it (scriptWriter); held,
// the place is kept (at).
func (w *pageWriter) dataElement() {
	if w.out == nil {
		w.at = w.b.Len()
		return
	}
	w.flush()
	if w.err != nil {
		return
	}
	rec := &scriptWriter{out: w.out}
	if w.err = pyjson.Write(rec, w.record); w.err == nil {
		w.err = rec.flush()
	}
}

// raw writes markup as it is.
func (w *pageWriter) raw(s string) { w.b.WriteString(s) }

// text writes s escaped as html/template escapes a plain string in HTML
// text, a quoted attribute value or an RCDATA element: its
// htmlReplacementTable. Only those seven ASCII characters are replaced;
// other runes, noncharacters and invalid UTF-8 pass as they are (the
// page's bytes are made valid text afterwards, validText), so the scan is
// by byte.
func (w *pageWriter) text(s string) { w.escape(s, true) }

// escape writes s with NUL as U+FFFD and ", &, ', <, > as entities, and
// + too when plus is set (text/template's HTMLEscapeString keeps it).
func (w *pageWriter) escape(s string, plus bool) {
	last := 0
	for i := 0; i < len(s); i++ {
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			if !plus {
				continue
			}
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		w.b.WriteString(s[last:i])
		w.b.WriteString(repl)
		last = i + 1
	}
	w.b.WriteString(s[last:])
}

// f writes layout, markup, with each {} in it replaced by the next of
// args written as text: an element and its values in one line.
func (w *pageWriter) f(layout string, args ...string) {
	for _, a := range args {
		i := strings.Index(layout, "{}")
		w.raw(layout[:i])
		w.text(a)
		layout = layout[i+2:]
	}
	w.raw(layout)
}

// unsafeURL is what html/template writes for a URL with a scheme other
// than http, https or mailto (its "#" + filterFailsafe).
const unsafeURL = "#" + unsafeName

// url writes s as the whole value of a double-quoted href, as
// html/template does: a URL whose scheme is not http, https or mailto
// (javascript:, data:) becomes unsafeURL; every byte that is not
// unreserved or reserved in RFC 3986 is percent-encoded (an escape
// already there is kept); then the attribute value is escaped (text).
func (w *pageWriter) url(s string) {
	if !isSafeURL(s) {
		s = unsafeURL
	}
	var b []byte
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case strings.IndexByte("!#$&*+,/:;=?@[]-._~", c) >= 0:
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			continue
		}
		b = append(b, s[written:i]...)
		b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
		written = i + 1
	}
	if written > 0 {
		s = string(append(b, s[written:]...))
	}
	w.text(s)
}

const hexDigits = "0123456789abcdef"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isSafeURL is html/template's: a URL without a scheme (no ":" before
// the first "/") or with http, https or mailto.
func isSafeURL(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/':
			return true
		case ':':
			p := s[:i]
			return strings.EqualFold(p, "http") || strings.EqualFold(p, "https") || strings.EqualFold(p, "mailto")
		}
	}
	return true
}

// int writes n as a template writes an int (chart marks; elsewhere
// strconv.Itoa into f).
func (w *pageWriter) int(n int) { w.b.Write(strconv.AppendInt(w.b.AvailableBuffer(), int64(n), 10)) }

// coord writes a coordinate (coord: one decimal), escaped as text: only
// +Inf's sign needs it.
func (w *pageWriter) coord(x float64) {
	if math.IsInf(x, 1) {
		w.raw("&#43;Inf")
		return
	}
	w.b.Write(strconv.AppendFloat(w.b.AvailableBuffer(), x, 'f', 1, 64))
}

// attrName writes s as the dynamic part of an attribute's name, as
// html/template's htmlNameFilter does: lower-cased, and unsafeName
// instead of a name that is empty, not ASCII letters and digits, or
// names an attribute whose value is a URL, script, style or otherwise
// unsafe (its attrType; the names our pages write, the sweep's filter
// columns, are plain words).
func (w *pageWriter) attrName(s string) {
	s = strings.ToLower(s)
	if s == "" || strings.HasPrefix(s, "on") || strings.Contains(s, "src") ||
		strings.Contains(s, "uri") || strings.Contains(s, "url") || unsafeAttr(s) {
		w.raw(unsafeName)
		return
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'z') {
			w.raw(unsafeName)
			return
		}
	}
	w.raw(s)
}

// unsafeName is html/template's filterFailsafe.
const unsafeName = "ZgotmplZ"

// unsafeAttr reports whether s is a name of letters and digits in
// html/template's attrTypeMap whose type is not plain text (a switch, not
// a map: a map literal is built at every process start).
func unsafeAttr(s string) bool {
	switch s {
	case "action", "archive", "async", "background", "cite", "challenge", "charset", "classid",
		"codebase", "content", "crossorigin", "data", "defer", "enctype", "form", "formaction",
		"formenctype", "formmethod", "formnovalidate", "href", "icon", "keytype", "language",
		"longdesc", "manifest", "method", "novalidate", "pattern", "poster", "profile", "rel",
		"sandbox", "src", "srcdoc", "srcset", "style", "type", "usemap", "value", "xmlns":
		return true
	}
	return false
}
