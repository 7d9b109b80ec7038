package htmlpage_test

import (
	"bytes"
	"testing"

	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// withoutRecord is page with its data element emptied.
func withoutRecord(t *testing.T, page []byte) []byte {
	t.Helper()
	open := []byte(`<script type="application/json" id="` + htmlpage.DataID + `">`)
	i := bytes.Index(page, open)
	j := bytes.Index(page[max(i, 0):], []byte("</script>"))
	if i < 0 || j < 0 {
		t.Fatal("the page has no data element")
	}
	return append(page[:i+len(open):i+len(open)], page[i+j:]...)
}

// TestPagesAsTheTemplatesWrote: the run page of every page case and the
// sweep page of the parity runs (with links to run pages) are byte for
// byte the pages html/template drew from the old templates
// (testdata/README), record aside.
func TestPagesAsTheTemplatesWrote(t *testing.T) {
	for _, c := range pageCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			r := analyzeDir(t, dir, c.params)
			in := htmlpage.RunInput{Result: r, RunPath: dir, Back: "../sweep page.html",
				Derived: []sinks.Derivation{{Name: "tokenizer", Value: "words", Source: "test"}}}
			var page bytes.Buffer
			if err := htmlpage.WriteRun(&page, in); err != nil {
				t.Fatal(err)
			}
			want, err := htmlpage.RunPageByTemplates(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := withoutRecord(t, page.Bytes()); !bytes.Equal(got, want) {
				t.Errorf("run page differs from the template's (%d vs %d bytes)", len(got), len(want))
			}
		})
	}
	t.Run("sweep", func(t *testing.T) {
		s := sweepParity(t, "conc_clean_ramp", "conc_drift_up", "agentic_tools", "offline_burst")
		o := htmlpage.SweepOptions{PageDir: s.Out, RunPages: func(string) bool { return true }}
		var page bytes.Buffer
		if err := htmlpage.WriteSweep(&page, s, o); err != nil {
			t.Fatal(err)
		}
		want, err := htmlpage.SweepPageByTemplates(s, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := withoutRecord(t, page.Bytes()); !bytes.Equal(got, want) {
			t.Errorf("sweep page differs from the template's (%d vs %d bytes)", len(got), len(want))
		}
	})
}
