// Package coltest holds what the tests of columnar and of its rooms share:
// writing a log to read, and checking that each decoded column holds one
// entry per sample.
package coltest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// optional names core.Samples' optional columns: Len long or empty.
var optional = map[string]bool{"FailCode": true, "InTokens": true, "ReasoningTokens": true, "ConversationID": true, "Turn": true}

// CheckColumns fails the test unless every column of s has s.Len()
// entries, the optional ones (core.Samples) that or none.
func CheckColumns(t testing.TB, s *core.Samples) {
	t.Helper()
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if v.Field(i).Kind() != reflect.Slice {
			continue
		}
		name, l := v.Type().Field(i).Name, v.Field(i).Len()
		if l != s.Len() && !(l == 0 && optional[name]) {
			t.Fatalf("column %s has %d entries, want %d", name, l, s.Len())
		}
	}
}

// WriteTemp writes body to dir/name (making its directory) and returns
// its path.
func WriteTemp(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
