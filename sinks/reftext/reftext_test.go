package reftext_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/reftext"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// TestTextSections: the reference's report of the committed run
// testdata/goodrun has its header, headline and one diagnostics block per
// window size in ascending order (the parity tests in core and the CLI
// compare it byte for byte with the reference's); a Stop hook that fails
// ends the diagnostics with its error.
func TestTextSections(t *testing.T) {
	cr := sinkstest.GoodRun(t)
	p := core.ReferenceParams()
	p.WindowSizes = []int{8, 4, 6}
	r, err := cr.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	text, err := reftext.Text(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "super-passes: ") || !strings.Contains(text, "\n=== STEADY STATE (headline) ===\n") ||
		!strings.HasSuffix(text, "\n") {
		t.Errorf("layout:\n%s", text)
	}
	i4, i6, i8 := strings.Index(text, "=== window size 4 ==="), strings.Index(text, "=== window size 6 ==="),
		strings.Index(text, "=== window size 8 ===")
	if !(i4 > 0 && i4 < i6 && i6 < i8) {
		t.Errorf("window sizes not in ascending order (%d, %d, %d)", i4, i6, i8)
	}
	stop := errors.New("interrupted")
	r2, err := cr.Analyze(core.ReferenceParams())
	if err != nil {
		t.Fatal(err)
	}
	cr.Stop = func() error { return stop }
	if _, err := reftext.Text(r2); !errors.Is(err, stop) {
		t.Errorf("Text under a failing Stop: %v", err)
	}
}
