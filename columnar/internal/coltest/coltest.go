// Package coltest holds what the tests of columnar and of its rooms share:
// writing a log to read, and checking that each decoded column holds one
// entry per sample.
package coltest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// MultiBenchmarkReport is a GuideLLM report of n benchmarks; benchmark b
// holds b%5+1 successful requests whose prompt_tokens are 10·b+j, so a
// run read from the wrong offset shows it.
func MultiBenchmarkReport(n int) string {
	var b strings.Builder
	b.WriteString(`{"metadata": {"guidellm_version": "0.5.0"}, "args": {"model": "m"}, "benchmarks": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"config": {"strategy": {"type_": "synchronous"}}, "requests": {"successful": [`)
		for j := range i%5 + 1 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"request_start_time": %d.5, "request_latency": 1.0, "time_to_first_token_ms": 100, "output_tokens": 5, "prompt_tokens": %d}`, 1000+j, 10*i+j)
		}
		b.WriteString(`], "errored": [], "incomplete": []}}`)
	}
	b.WriteString("]}")
	return b.String()
}
