package sweep

import (
	"bytes"
	"log"
	"strings"
	"testing"
	"time"
)

// TestDebugLogWritesLogsLines holds debugLog to the lines package log
// wrote for the same calls (log.New(w, "steadysweep: ", log.LstdFlags)):
// same prefix, message and newline handling; the timestamp is the same
// layout, parsed back.
func TestDebugLogWritesLogsLines(t *testing.T) {
	const stamp = len("2006/01/02 15:04:05 ")
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"run %s: series: %v", []any{"a/b", "bad"}},
		{"run %s: panic: %v\n%s", []any{"x", 3, "stack\n"}},
		{"no newline", nil},
		{"", nil},
	} {
		var want, got bytes.Buffer
		log.New(&want, "steadysweep: ", log.LstdFlags).Printf(c.format, c.args...)
		(&debugLog{w: &got}).Printf(c.format, c.args...)
		w, g := want.String(), got.String()
		const prefix = "steadysweep: "
		if !strings.HasPrefix(g, prefix) || len(g) < len(prefix)+stamp {
			t.Fatalf("%q: got %q", c.format, g)
		}
		if _, err := time.ParseInLocation("2006/01/02 15:04:05 ", g[len(prefix):len(prefix)+stamp], time.Local); err != nil {
			t.Errorf("%q: timestamp of %q: %v", c.format, g, err)
		}
		if g[len(prefix)+stamp:] != w[len(prefix)+stamp:] {
			t.Errorf("%q: got %q, log wrote %q", c.format, g, w)
		}
	}
}
