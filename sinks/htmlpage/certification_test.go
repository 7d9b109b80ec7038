package htmlpage_test

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// TestRunPageCertification renders a planted prefix-cache-warming run of
// synth.CertificationSuite (prefill work falling 30–45 % over the run,
// TPOT flat) and checks the page against the JSON it embeds: the page
// shows every family's state and, for the TTFT the JSON certifies as
// falling, its reason and a null steady TTFT with that reason.
func TestRunPageCertification(t *testing.T) {
	if testing.Short() {
		t.Skip("a generated long-context run")
	}
	var run *synth.CertRun
	for _, r := range synth.CertificationSuite(1, 10) {
		if r.Class == synth.CertClassPrefixWarming {
			run = &r
			break
		}
	}
	if run == nil {
		t.Fatal("CertificationSuite has no prefix-cache-warming run")
	}
	dir := filepath.Join(t.TempDir(), run.Name)
	if _, err := synth.Generate(dir, run.Spec); err != nil {
		t.Fatal(err)
	}
	r := analyzeDir(t, dir, core.DefaultParams())
	page := renderRun(t, r, dir)
	if os.Getenv("DUMP") != "" {
		os.WriteFile("/tmp/cert28.html", page, 0o644)
	}
	res, _ := field(record(t, page), "result").(pyjson.Object)
	cert, _ := field(res, "certification").(pyjson.Object)
	fams, _ := field(cert, "metrics").(pyjson.Object)
	if len(fams) == 0 {
		t.Fatal("the embedded JSON has no certification.metrics")
	}
	ttft, _ := field(fams, core.FamilyTTFT).(pyjson.Object)
	reason, _ := field(ttft, "reason").(string)
	if state, _ := field(ttft, "state").(string); state != string(core.CertFalling) || reason == "" {
		t.Fatalf("%s: the JSON says TTFT %q (%q), the planted TTFT falls", run.Name, state, reason)
	}
	text := html.UnescapeString(string(page))
	sec := section(t, text, `id="table-certification"`)
	for _, f := range fams {
		state, _ := field(f.Value.(pyjson.Object), "state").(string)
		if !strings.Contains(sec, "<td>"+f.Key+"</td>") || !strings.Contains(sec, state) {
			t.Errorf("the certification table does not show %s %s", f.Key, state)
		}
	}
	if !strings.Contains(sec, reason) {
		t.Errorf("the certification table does not give TTFT's reason %q", reason)
	}
	cmp := section(t, text, `id="table-compare"`)
	if !bytes.Contains([]byte(cmp), []byte("n/a — "+reason)) {
		t.Errorf("the steady TTFT is not n/a with the reason %q", reason)
	}
}

// section is the page's table with the attribute attr, up to its end.
func section(t *testing.T, page, attr string) string {
	t.Helper()
	i := strings.Index(page, attr)
	if i < 0 {
		t.Fatalf("the page has no table %s", attr)
	}
	j := strings.Index(page[i:], "</table>")
	if j < 0 {
		t.Fatalf("table %s is not closed", attr)
	}
	return page[i : i+j]
}
