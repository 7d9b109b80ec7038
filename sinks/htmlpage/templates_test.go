package htmlpage

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"math"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// The templates the pages were drawn with until issue 32 (testdata/README)
// are the oracle of the page writer: html/template, an independent
// implementation of the same contextual escaping.
//
//go:embed testdata/*.tmpl
var oldTemplateFiles embed.FS

// oldTemplates parses the shell with the body of each page kind, as the
// package did.
var oldTemplates = sync.OnceValues(func() (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"css":     func() template.CSS { return template.CSS(pageCSS) },
		"js":      func() template.JS { return template.JS(pageJS) },
		"coord":   coord,
		"add0":    func(a, b float64) float64 { return a + b },
		"half":    func(a float64) float64 { return a / 2 },
		"join":    strings.Join,
		"trusted": func(s string) template.HTML { return template.HTML(s) },
	}
	out := map[string]*template.Template{}
	for _, kind := range []string{"run", "sweep", "calibration"} {
		t, err := template.New("page.tmpl").Funcs(funcs).ParseFS(oldTemplateFiles,
			"testdata/page.tmpl", "testdata/parts.tmpl", "testdata/"+kind+".tmpl")
		if err != nil {
			return nil, err
		}
		out[kind] = t
	}
	return out, nil
})

// oldRender is the page of kind with body (its view), data element
// empty, as html/template wrote it.
func oldRender(kind, title string, body any) ([]byte, error) {
	ts, err := oldTemplates()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = ts[kind].Execute(&b, struct {
		Title, Kind string
		Body        any
	}{title, kind, body})
	return b.Bytes(), err
}

// newRender is the page of kind written by body, data element empty.
func newRender(kind, title string, body func(*pageWriter)) []byte {
	var w pageWriter
	w.page(kind, title, body)
	return w.b.Bytes()
}

// hostile are strings for every context a page writes: each character
// html/template escapes, markup that would end a script or an element,
// line and paragraph separators, NUL, noncharacters, invalid UTF-8,
// URLs with unsafe and safe schemes, with and without escapes, and
// attribute names html/template's name filter refuses or lower-cases.
var hostile = []string{
	oddText,
	`</script><script>alert("x")</script>`,
	"\u2028line\u2029para\u0085",
	`"'&<>+ & &amp; &#34;`,
	"javascript:alert(1)",
	"JavaScript:alert(1)",
	" javascript:x",
	"data:text/html,<b>x</b>",
	"http://example.com/a b?c=d&e=f+g#h",
	"HTTPS://example.com/%41%zz%4",
	"mailto:a@b.c",
	"httpſ://long-s",
	"runs/a run/x-1.html",
	"/abs/path?x=1",
	"dir/a:b",
	"**bold** and `code` and **un\nclosed** `x",
	"\x00\xff\xfe\xc3",
	"é€😀\uFDD0\uFFFE",
	"Status", "onclick", "href", "data", "value", "srcx", "myurl", "\u212Aey", "a-b", "config",
	"warmup", "window", "plateau",
}

// fill sets every field of v (a view, walked by reflection) for variant:
// 0 every string from hostile, every list two long, every flag true; 1
// all empty, zero and false (every {{if}}'s other branch); 2 and up a mix
// (lists of one and three, flags and emptiness alternating).
func fill(v reflect.Value, variant int, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		switch {
		case variant == 1:
			v.SetString("")
		case variant >= 2 && *n%5 == 0:
			v.SetString("")
		default:
			v.SetString(hostile[(*n+variant)%len(hostile)])
		}
	case reflect.Bool:
		v.SetBool(variant == 0 || variant >= 2 && *n%2 == 0)
	case reflect.Int:
		if variant != 1 {
			v.SetInt(int64((*n*7919)%20011 - 1000))
		}
	case reflect.Float64:
		if variant != 1 {
			xs := []float64{0, -1.25, 960, 12.35, 1e21, 1e-7, 123456789.5, math.NaN(), math.Inf(1), math.Inf(-1), -0.05}
			v.SetFloat(xs[*n%len(xs)])
		}
	case reflect.Pointer:
		if variant == 1 || variant >= 2 && *n%3 == 0 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), variant, n)
	case reflect.Slice:
		k := 2
		switch {
		case variant == 1:
			k = 0
		case variant >= 2:
			k = 1 + 2*(*n%2)
		}
		s := reflect.MakeSlice(v.Type(), k, k)
		for i := range k {
			fill(s.Index(i), variant, n)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), variant, n)
			}
		}
	}
}

// TestHostileTextAsTheTemplatesEscaped: every page kind, its view filled
// with hostile strings (and every branch's both sides), is written byte
// for byte as html/template wrote it from the old templates — HTML text,
// attribute values, <title> text, hrefs (javascript: and data: URLs
// become #ZgotmplZ, other bytes percent-encoded), the sweep's dynamic
// attribute names, numbers, and the Markdown cells' HTML as given.
func TestHostileTextAsTheTemplatesEscaped(t *testing.T) {
	for variant := range 5 {
		n := variant
		var run runView
		var sw sweepView
		var cal calibrationView
		fill(reflect.ValueOf(&run).Elem(), variant, &n)
		fill(reflect.ValueOf(&sw).Elem(), variant, &n)
		fill(reflect.ValueOf(&cal).Elem(), variant, &n)
		title := hostile[variant]
		pages := []struct {
			kind string
			view any
			body func(*pageWriter)
		}{
			{"run", run, func(w *pageWriter) { w.runBody(&run) }},
			{"sweep", sw, func(w *pageWriter) { w.sweepBody(&sw) }},
			{"calibration", cal, func(w *pageWriter) { w.calibrationBody(&cal) }},
		}
		for _, p := range pages {
			want, err := oldRender(p.kind, title, p.view)
			if err != nil {
				t.Fatal(err)
			}
			if got := newRender(p.kind, title, p.body); !bytes.Equal(got, want) {
				t.Errorf("variant %d, %s page: %s", variant, p.kind, firstDiff(got, want))
			}
		}
	}
}

// firstDiff describes where got and want first differ.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-80, 0)
	return fmt.Sprintf("differs at byte %d of %d (want %d)\n got: %q\nwant: %q", i, len(got), len(want),
		got[lo:min(i+80, len(got))], want[lo:min(i+80, len(want))])
}

// TestURLAsTheTemplatesEscaped: a href's value is written as
// html/template writes it, string by string.
func TestURLAsTheTemplatesEscaped(t *testing.T) {
	tmpl := template.Must(template.New("u").Parse(`<a href="{{.}}">`))
	for _, s := range append(hostile, "", "%", "%4", "a%41", "?q=%e2%80%a8", "#frag", "http:", "x:", ":x", "/x:y") {
		var want bytes.Buffer
		if err := tmpl.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		var w pageWriter
		w.raw(`<a href="`)
		w.url(s)
		w.raw(`">`)
		if got := w.b.String(); got != want.String() {
			t.Errorf("href %q: got %s, want %s", s, got, want.String())
		}
	}
}

// TestAttrNameAsTheTemplatesFiltered: a dynamic attribute name is written
// as html/template's name filter writes it, the sweep's filter columns'
// names unchanged.
func TestAttrNameAsTheTemplatesFiltered(t *testing.T) {
	tmpl := template.Must(template.New("a").Parse(`<tr data-{{.}}="v">`))
	names := []string{"config", "onx", "ONE", "Src", "uri", "action", "formaction", "accept-charset", "datum", "x1"}
	for _, c := range filterColumns {
		names = append(names, c.name)
	}
	for _, s := range append(hostile, names...) {
		var want bytes.Buffer
		if err := tmpl.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		var w pageWriter
		w.raw(`<tr data-`)
		w.attrName(s)
		w.raw(`="v">`)
		if got := w.b.String(); got != want.String() {
			t.Errorf("name %q: got %s, want %s", s, got, want.String())
		}
	}
	for _, c := range filterColumns {
		var w pageWriter
		if w.attrName(c.name); w.b.String() != c.name {
			t.Errorf("filter column %q is written as %q", c.name, w.b.String())
		}
	}
}

// TestInlineMarkdown: inlineMarkdown is the regular-expression rewrite it
// replaced, on hostile text and every way backticks and asterisks pair,
// nest, stay open or span a line break.
func TestInlineMarkdown(t *testing.T) {
	bold := regexp.MustCompile(`\*\*(.+?)\*\*`)
	code := regexp.MustCompile("`([^`]*)`")
	old := func(s string) string {
		e := template.HTMLEscapeString(s)
		e = code.ReplaceAllString(e, "<code>$1</code>")
		return bold.ReplaceAllString(e, "<strong>$1</strong>")
	}
	cases := append([]string{"", "*", "**", "***", "****", "*****", "**a**", "***a**", "**a***", "**a** **b**",
		"****a**", "**\n**", "**a\nb** **c**", "`", "``", "```", "`a`b`", "`a\nb`", "**`x`**", "`**x**`", "**`x**`",
		"a ** b ** c", "**é**", "**\xff**", "x**y", "<**'&\"**>+", "- **bold** then `code`"}, hostile...)
	// Every string of up to six of these bytes.
	alphabet := "*`a\n"
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		cases = append(cases, prefix)
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("", 6)
	for _, s := range cases {
		if got, want := inlineMarkdown(s), old(s); got != want {
			t.Errorf("inlineMarkdown(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestStreamedPageIsTheHeldPage: a page streamed to its writer in chunks
// of any size (the run and calibration pages) is byte for byte the page
// held whole and written at the end (the sweep page, which can be
// stopped): the record in its data element, hostile names made valid
// text (validText) alike however the page is cut.
func TestStreamedPageIsTheHeldPage(t *testing.T) {
	for variant := range 3 {
		n := variant
		var run runView
		var sw sweepView
		fill(reflect.ValueOf(&run).Elem(), variant, &n)
		fill(reflect.ValueOf(&sw).Elem(), variant, &n)
		data := pyjson.Object{{Key: "name", Value: hostile[variant]}, {Key: "xs", Value: []any{1.5, nil, hostile[1]}}}
		for _, p := range []struct {
			kind string
			body func(*pageWriter)
		}{
			{"run", func(w *pageWriter) { w.runBody(&run) }},
			{"sweep", func(w *pageWriter) { w.sweepBody(&sw) }},
		} {
			var held bytes.Buffer
			st := &stopper{stop: func() error { return nil }}
			if err := writePageStopping(&held, p.kind, hostile[variant], data, p.body, st); err != nil {
				t.Fatal(err)
			}
			if !utf8.Valid(held.Bytes()) || !bytes.Contains(held.Bytes(), []byte(scriptSafe(pyjson.Marshal(data)))) {
				t.Fatalf("variant %d, %s page: not valid UTF-8, or without its record", variant, p.kind)
			}
			for _, chunk := range []int{1, 2, 3, 5, 64, 0} {
				var streamed bytes.Buffer
				w := &pageWriter{out: &streamed, record: data, chunk: chunk}
				w.page(p.kind, hostile[variant], p.body)
				if w.flush(); w.err != nil {
					t.Fatal(w.err)
				}
				if !bytes.Equal(streamed.Bytes(), held.Bytes()) {
					t.Errorf("variant %d, %s page in chunks of %d: %s", variant, p.kind, chunk, firstDiff(streamed.Bytes(), held.Bytes()))
				}
			}
		}
	}
}
