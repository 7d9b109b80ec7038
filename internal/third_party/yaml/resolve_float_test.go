package yaml

import (
	"regexp"
	"testing"
)

// TestStyleFloatMatchesRegexp (steadysweep): the hand-written
// yamlStyleFloat accepts exactly what upstream's regular expression does,
// on every string of up to 4 bytes over an alphabet of the characters the
// expression names and two it does not, and on longer samples.
func TestStyleFloatMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(yamlStyleFloatExpr)
	alphabet := []byte("+-.eE09x_")
	var walk func(s []byte)
	walk = func(s []byte) {
		if got, want := yamlStyleFloat.MatchString(string(s)), re.MatchString(string(s)); got != want {
			t.Errorf("%q: %v, regexp %v", s, got, want)
		}
		if len(s) == 4 {
			return
		}
		for _, c := range alphabet {
			walk(append(s, c))
		}
	}
	walk(nil)
	for _, s := range []string{"240.0", "30.0", "-1.5e-10", "+.5E+3", "1e", "1.e5", ".e5", "12345678901234567890.25", "1.0\n", " 1.0", "0x1p3", ".inf", "NaN", "1_000.5"} {
		if got, want := yamlStyleFloat.MatchString(s), re.MatchString(s); got != want {
			t.Errorf("%q: %v, regexp %v", s, got, want)
		}
	}
}
