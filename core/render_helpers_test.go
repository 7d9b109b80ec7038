package core_test

import (
	"bytes"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/reftext"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/submission"
)

// The detector's tests read its results through the renderers of sinks,
// as the CLI does.

// refText is the reference CLI's text of r.
func refText(t testing.TB, r *core.Result) string {
	t.Helper()
	text, err := reftext.Text(r)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// refJSON is the --json bytes of r.
func refJSON(t testing.TB, r *core.Result) []byte {
	t.Helper()
	b, err := resultjson.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pointYAML is the point.yaml block of r.
func pointYAML(t testing.TB, r *core.Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := submission.WritePointYAML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
