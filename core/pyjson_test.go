package core

import (
	"math"
	"testing"
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
		if got := pyFloat(tc.x); got != tc.want {
			t.Errorf("pyFloat(%v) = %s, want %s", tc.x, got, tc.want)
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
		if got := pyFixed(tc.x, tc.prec); got != tc.want {
			t.Errorf("pyFixed(%v, %d) = %s, want %s", tc.x, tc.prec, got, tc.want)
		}
	}
	if got := pySigned(30.138646933556224, 1); got != "+30.1" {
		t.Errorf("pySigned = %s", got)
	}
}

// TestEncodePyJSON checks json.dumps(indent=2) layout: nesting, empty
// containers, ASCII escapes, no trailing newline.
func TestEncodePyJSON(t *testing.T) {
	v := JSONObject{
		{"a", 1}, {"b", []float64{1, 0.5}}, {"c", JSONObject{}}, {"d", []any{}},
		{"e", nil}, {"f", "café \"x\"\n→𝄞"}, {"g", JSONObject{{"h", true}}},
	}
	want := "{\n  \"a\": 1,\n  \"b\": [\n    1.0,\n    0.5\n  ],\n  \"c\": {},\n  \"d\": [],\n  \"e\": null,\n" +
		"  \"f\": \"caf\\u00e9 \\\"x\\\"\\n\\u2192\\ud834\\udd1e\",\n  \"g\": {\n    \"h\": true\n  }\n}"
	if got := string(encodePyJSON(v)); got != want {
		t.Errorf("encodePyJSON =\n%s\nwant\n%s", got, want)
	}
}
