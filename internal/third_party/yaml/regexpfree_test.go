package yaml

import (
	"regexp"
	"testing"
)

// steadysweep: the regular expression matchBase60Float replaces
// (upstream's base60float); yamlStyleFloat's matcher is tested here too
// (besides resolve_float_test.go) on the same inputs.
var (
	yamlStyleFloatRE = regexp.MustCompile(yamlStyleFloatExpr)
	base60floatRE    = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

func checkFloatMatchers(t *testing.T, s string) {
	t.Helper()
	if got, want := yamlStyleFloat.MatchString(s), yamlStyleFloatRE.MatchString(s); got != want {
		t.Fatalf("yamlStyleFloat.MatchString(%q) = %v, regexp %v", s, got, want)
	}
	if got, want := matchBase60Float(s), base60floatRE.MatchString(s); got != want {
		t.Fatalf("matchBase60Float(%q) = %v, regexp %v", s, got, want)
	}
}

var floatSeeds = []string{
	"", "1", "-1", "+", ".", ".5", "5.", "5.e3", "1e", "1e+", "1e+5", "1E-05", "+.5e5", ".e5", "1.2.3",
	"1_000", "0x10", "1e5x", " 1", "1 ", "1:20", "1:60", "190:20:30.15", "-1:2", "1:2:", "1:", ":1",
	"1_0:05.5_", "1:05.", "1:5:59", "1:005", "+1:2.3:4", "1:2.", "1:2e5", "12__:3", "_1:2", "1:2\n",
}

func TestFloatMatchersMatchRegexps(t *testing.T) {
	for _, s := range floatSeeds {
		checkFloatMatchers(t, s)
	}
}

func FuzzFloatMatchers(f *testing.F) {
	for _, s := range floatSeeds {
		f.Add(s)
	}
	f.Fuzz(checkFloatMatchers)
}
