package calibrate

import "strings"

// suiteClass takes the class out of a run name of synth.AccuracySuite,
// NNN_CLASS_cC_nN or NNN_CLASS_qQPS_nN: it matches name as the regular
// expression `^\d{3}_(.+)_(c\d+|q[0-9.]+)_n\d+$` does and returns group 1
// (regexp's leftmost-first choice: the longest class). Hand-written so
// the binary does not link package regexp, whose inits (and unicode's
// tables below them) ran in every process (issue 32);
// suite_name_test.go holds it to the regexp.
func suiteClass(name string) (string, bool) {
	if len(name) < 4 || !allDigits(name[:3]) || name[3] != '_' {
		return "", false
	}
	rest := name[4:]
	// `.` stops at a newline: the class lies before the first one.
	limit := len(rest)
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		limit = nl
	}
	for i := limit - 1; i >= 1; i-- {
		if rest[i] == '_' && suiteSizes(rest[i+1:]) {
			return rest[:i], true
		}
	}
	return "", false
}

// suiteSizes matches `^(c\d+|q[0-9.]+)_n\d+$`.
func suiteSizes(s string) bool {
	load, n, ok := strings.Cut(s, "_n")
	if !ok || len(load) < 2 || !allDigits(n) {
		return false
	}
	switch load[0] {
	case 'c':
		return allDigits(load[1:])
	case 'q':
		return strings.Trim(load[1:], "0123456789.") == ""
	}
	return false
}

// allDigits reports whether s is one or more ASCII digits (regexp's \d+).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
