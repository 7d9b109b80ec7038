package pyjson

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestPyFloat checks Python's repr(float) layout (detector.md §11.3 and
// the parity corpus's values).
func TestPyFloat(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{100, "100.0"}, {0.03, "0.03"}, {882.491394409, "882.491394409"}, {1e-05, "1e-05"},
		{5.1e-06, "5.1e-06"}, {1.2e16, "1.2e+16"}, {1e16, "1e+16"}, {9999999999999998, "9999999999999998.0"},
		{0.0001, "0.0001"}, {0.00012, "0.00012"}, {1.676649208914891e-05, "1.676649208914891e-05"},
		{math.Copysign(0, -1), "-0.0"}, {0, "0.0"}, {-2.5, "-2.5"}, {1e22, "1e+22"}, {1.5e300, "1.5e+300"},
		{470588235.2941176, "470588235.2941176"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"}, {5e-324, "5e-324"}, {123456789012345680, "1.2345678901234568e+17"},
	} {
		if got := Float(tc.x); got != tc.want {
			t.Errorf("Float(%v) = %s, want %s", tc.x, got, tc.want)
		}
	}
}

// TestPyFixed checks Python's ".Nf" rounding on halfway cases (§11.3).
func TestPyFixed(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		prec int
		want string
	}{{0.125, 2, "0.12"}, {2.5, 0, "2"}, {599.5, 0, "600"}, {3.5, 0, "4"}, {math.NaN(), 1, "nan"}} {
		if got := Fixed(tc.x, tc.prec); got != tc.want {
			t.Errorf("Fixed(%v, %d) = %s, want %s", tc.x, tc.prec, got, tc.want)
		}
	}
}

// TestMarshal checks json.dumps(indent=2) layout: nesting, empty
// containers, ASCII escapes, no trailing newline.
func TestMarshal(t *testing.T) {
	v := Object{
		{"a", 1}, {"b", []float64{1, 0.5}}, {"c", Object{}}, {"d", []any{}},
		{"e", nil}, {"f", "café \"x\"\n→𝄞"}, {"g", Object{{"h", true}}},
	}
	want := "{\n  \"a\": 1,\n  \"b\": [\n    1.0,\n    0.5\n  ],\n  \"c\": {},\n  \"d\": [],\n  \"e\": null,\n" +
		"  \"f\": \"caf\\u00e9 \\\"x\\\"\\n\\u2192\\ud834\\udd1e\",\n  \"g\": {\n    \"h\": true\n  }\n}"
	if got := string(Marshal(v)); got != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", got, want)
	}
}

// TestAppendFloatMatchesFloat: AppendFloat appends exactly Float's text
// after any prefix.
func TestAppendFloatMatchesFloat(t *testing.T) {
	for _, x := range []float64{1, 0.1, 1e-7, 12345.678, -3e21, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		if got := string(AppendFloat([]byte("x="), x)); got != "x="+Float(x) {
			t.Errorf("AppendFloat(%v) = %s", x, got)
		}
	}
}

// TestParseKeepsOrderAndNumbers: Parse then Marshal reproduces key order
// and number spellings as written (indentation normalised).
func TestParseKeepsOrderAndNumbers(t *testing.T) {
	in := `{"z": 1, "a": [1.50, 2e3, -0], "m": {"k": null, "b": true}, "e": {}}`
	v, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"z\": 1,\n  \"a\": [\n    1.50,\n    2e3,\n    -0\n  ],\n  \"m\": {\n    \"k\": null,\n    \"b\": true\n  },\n  \"e\": {}\n}"
	if got := string(Marshal(v)); got != want {
		t.Errorf("round trip:\n%s\nwant\n%s", got, want)
	}
	if _, err := Parse([]byte(`{} {}`)); err == nil {
		t.Error("trailing data accepted")
	}
}

// Parse accepts MaxDepth levels of nesting and refuses one more, naming
// the offset of the opening bracket past the limit; objects count as
// arrays do.
func TestParseDepthLimit(t *testing.T) {
	deep := func(n int, open, close string) []byte {
		return []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
	}
	if _, err := Parse(deep(MaxDepth, "[", "]")); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	_, err := Parse(deep(MaxDepth+1, "[", "]"))
	if want := "nested deeper than 100 levels (at byte 101)"; err == nil || err.Error() != want {
		t.Errorf("%d levels: error %v, want %q", MaxDepth+1, err, want)
	}
	if _, err := Parse(deep(MaxDepth+1, `{"a":`, "}")); err == nil {
		t.Errorf("%d levels of objects accepted", MaxDepth+1)
	}
	if _, err := Parse(deep(MaxDepth, `{"a":`, "}")); err != nil {
		t.Errorf("%d levels of objects: %v", MaxDepth, err)
	}
}

// appendStringPerRune is AppendString as first written, a rune at a time
// (the oracle of its run-copying fast path).
func appendStringPerRune(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r >= 0x20 && r <= 0x7e:
			b = append(b, byte(r))
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			b = appendU(appendU(b, r1), r2)
		default:
			b = appendU(b, r)
		}
	}
	return append(b, '"')
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `q"uote\back`, "ctl\x00\x1f\x7f", "café→𝄞", "bad\xff\xfe utf8", "\"\"\\\\", "tail\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString([]byte("x"), s), appendStringPerRune([]byte("x"), s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// chunkWriter records the sizes of the writes it receives.
type chunkWriter struct {
	bytes.Buffer
	sizes []int
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.Buffer.Write(p)
}

// chunkedValue is a value whose text is about n floats' worth (~20 bytes
// each), with deep nesting.
func chunkedValue(n int) Object {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i) / 7
	}
	nested := any("leaf")
	for range 40 {
		nested = Object{{"n", nested}, {"l", []any{1, "two", nil}}}
	}
	return Object{{"xs", xs}, {"deep", nested}, {"names", []string{"a\"b", "ü"}}}
}

// TestWriteInChunks: Write hands over the text in chunks of about
// flushSize, together Marshal's bytes exactly, deep nesting included —
// below pipeAfter (written by Write itself) and above (the rest by the
// writing goroutine).
func TestWriteInChunks(t *testing.T) {
	for _, n := range []int{20000, 2 * pipeAfter / 20} {
		v := chunkedValue(n)
		var w chunkWriter
		if err := Write(&w, v); err != nil {
			t.Fatal(err)
		}
		want := Marshal(v)
		if !bytes.Equal(w.Bytes(), want) {
			t.Fatalf("%d floats: Write's bytes differ from Marshal's (%d vs %d bytes)", n, w.Len(), len(want))
		}
		if n > 20000 && len(want) < pipeAfter+flushSize {
			t.Fatalf("%d floats are %d bytes, want more than pipeAfter", n, len(want))
		}
		if len(w.sizes) < len(want)/flushSize {
			t.Errorf("%d writes for %d bytes, want about one per %d", len(w.sizes), len(want), flushSize)
		}
		for _, n := range w.sizes[:len(w.sizes)-1] {
			if n < flushSize || n > flushSize+4096 {
				t.Errorf("a write of %d bytes, want %d to %d", n, flushSize, flushSize+4096)
			}
		}
	}
}

// failingWriter fails its write number fail (from 1) and every later one.
type failingWriter struct{ writes, fail int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.writes++; w.writes >= w.fail {
		return 0, errFailingWriter
	}
	return len(p), nil
}

var errFailingWriter = errors.New("disk full")

// TestWriteReportsFirstError: a failed write, before pipeAfter or after
// it, is Write's error, and nothing is written after it.
func TestWriteReportsFirstError(t *testing.T) {
	v := chunkedValue(2 * pipeAfter / 20)
	for _, fail := range []int{1, 3, pipeAfter/flushSize + 3} {
		w := failingWriter{fail: fail}
		if err := Write(&w, v); !errors.Is(err, errFailingWriter) {
			t.Errorf("write %d fails: Write returned %v, want %v", fail, err, errFailingWriter)
		}
		if w.writes != fail {
			t.Errorf("write %d fails: %d writes, want none after it", fail, w.writes)
		}
	}
}
