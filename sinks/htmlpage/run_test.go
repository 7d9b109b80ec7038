package htmlpage_test

import (
	"bytes"
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// pageCase is one run rendered as a page, named for what its planted truth
// shows (shared/parity/README.md).
type pageCase struct {
	name   string
	dir    func(t testing.TB) string
	params core.Params
}

func pageCases() []pageCase {
	parity := func(name string) func(t testing.TB) string {
		return func(t testing.TB) string { return parityRun(t, name) }
	}
	return []pageCase{
		{"clean", parity("conc_clean_ramp"), core.DefaultParams()},
		{"staircase", parity("conc_staircase_late"), core.DefaultParams()},
		{"drift", parity("conc_drift_up"), core.DefaultParams()},
		{"offline", parity("offline_burst"), core.DefaultParams()},
		{"failures", parity("conc_failures"), core.DefaultParams()},
		{"agentic", parity("agentic_tools"), core.DefaultParams()},
		{"reference", parity("conc_staircase_late"), core.ReferenceParams()},
		{"non-streaming", func(t testing.TB) string { return sharedtest.NonStreamingCopy(t, "conc_clean_ramp") }, core.DefaultParams()},
	}
}

func renderRun(t testing.TB, r *core.Result, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	in := htmlpage.RunInput{Result: r, RunPath: dir, Derived: []sinks.Derivation{{Name: "tokenizer", Value: "words", Source: "test"}}}
	if err := htmlpage.WriteRun(&b, in); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// record parses the record a page embeds.
func record(t testing.TB, page []byte) pyjson.Object {
	t.Helper()
	raw, err := htmlpage.Record(page)
	if err != nil {
		t.Fatal(err)
	}
	v, err := pyjson.Parse(raw)
	if err != nil {
		t.Fatalf("the page's record is not JSON: %v", err)
	}
	obj, ok := v.(pyjson.Object)
	if !ok {
		t.Fatalf("the page's record is %T, not an object", v)
	}
	return obj
}

func field(o pyjson.Object, key string) any {
	if i := o.Index(key); i >= 0 {
		return o[i].Value
	}
	return nil
}

// TestRunPageEmbedsTheJSON renders each case and checks the page's
// structure: its record's "result" is byte for byte what --json writes
// (resultjson), the record's super-passes after the warmup are the JSON's
// per_super_pass rows, each chart has one hover target per super-pass and
// one point per super-pass with a value, and no src or href leaves the
// page.
func TestRunPageEmbedsTheJSON(t *testing.T) {
	for _, c := range pageCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			r := analyzeDir(t, dir, c.params)
			page := renderRun(t, r, dir)
			rec := record(t, page)
			want, err := resultjson.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if got := pyjson.Marshal(field(rec, "result")); !bytes.Equal(got, want) {
				t.Fatalf("the page's result differs from --json (%d vs %d bytes)", len(got), len(want))
			}
			if bad := externalURLs(page); len(bad) > 0 {
				t.Errorf("external URLs in the page: %q", bad)
			}
			if r.Path == core.PathNATL {
				if bytes.Contains(page, []byte(`class="hit"`)) {
					t.Error("a NATL result has no super-pass chart, yet the page draws one")
				}
				return
			}
			checkSuperPasses(t, r, rec)
			checkCharts(t, r, page)
		})
	}
}

// checkSuperPasses: the record's super-passes are every super-pass of the
// analysis, and those after the warmup carry the values of the JSON's
// per_super_pass rows.
func checkSuperPasses(t *testing.T, r *core.Result, rec pyjson.Object) {
	t.Helper()
	sps, _ := field(rec, "super_passes").([]any)
	if len(sps) != r.NSuperPasses {
		t.Fatalf("record has %d super-passes, the result %d", len(sps), r.NSuperPasses)
	}
	res := field(rec, "result").(pyjson.Object)
	post, _ := field(res, "per_super_pass").([]any)
	if len(post) != len(sps)-r.Warmup {
		t.Fatalf("per_super_pass has %d rows, expected %d − warmup %d", len(post), len(sps), r.Warmup)
	}
	for i, row := range post {
		sp := sps[r.Warmup+i].(pyjson.Object)
		for _, key := range []string{"n_issued", "out_tokens", "first_issue_ns", "ttft_p50", "ttft_p90", "tpot_p50", "tpot_p90"} {
			a, b := fmt.Sprint(field(row.(pyjson.Object), key)), fmt.Sprint(field(sp, key))
			if a != b {
				t.Fatalf("super-pass %d %s: page %s, --json %s", r.Warmup+i, key, b, a)
			}
		}
	}
}

// checkCharts: one hover target per super-pass in each chart, one point
// per super-pass with a value per series.
func checkCharts(t *testing.T, r *core.Result, page []byte) {
	t.Helper()
	sps := r.SuperPasses()
	has := func(key string) int {
		m, n := core.MetricIndex(key), 0
		for _, d := range sps {
			if d.Has[m] {
				n++
			}
		}
		return n
	}
	for _, ch := range []struct{ id, s50, s90, key string }{{"tpot", "s1", "s2", "tpot"}, {"ttft", "s3", "s4", "ttft"}} {
		fig := figure(page, ch.id)
		if fig == nil {
			t.Fatalf("no %s chart", ch.id)
		}
		n50, n90 := has(ch.key+"_p50"), has(ch.key+"_p90")
		if n50 == 0 {
			if !bytes.Contains(fig, []byte(`class="empty"`)) {
				t.Errorf("%s chart: no values, yet no empty-chart message", ch.id)
			}
			continue
		}
		if got := countMatches(fig, `<rect class="hit" data-sp="\d+"`); got != len(sps) {
			t.Errorf("%s chart: %d hover targets, %d super-passes", ch.id, got, len(sps))
		}
		if got := countMatches(fig, `<circle class="pt `+ch.s50+`"`); got != n50 {
			t.Errorf("%s chart: %d p50 points, %d super-passes with a value", ch.id, got, n50)
		}
		if got := countMatches(fig, `<circle class="pt `+ch.s90+`"`); got != n90 {
			t.Errorf("%s chart: %d p90 points, %d super-passes with a value", ch.id, got, n90)
		}
		if r.Warmup > 0 && !bytes.Contains(fig, []byte(`class="band warmup"`)) {
			t.Errorf("%s chart: warmup %d not shaded", ch.id, r.Warmup)
		}
		if got, want := bytes.Contains(fig, []byte(`class="band window"`)), r.Outcome().Found; got != want {
			t.Errorf("%s chart: reported window drawn %v, the row's found flag %v", ch.id, got, want)
		}
		if got, want := countMatches(fig, `class="band plateau"`), len(r.Steady.Plateaus); got != want {
			t.Errorf("%s chart: %d plateaus drawn, %d in the result", ch.id, got, want)
		}
	}
}

// TestRunPagePlantedShapes checks what each planted shape must show.
func TestRunPagePlantedShapes(t *testing.T) {
	t.Run("staircase: the level shift marked at its super-pass", func(t *testing.T) {
		dir := parityRun(t, "conc_staircase_late")
		r := analyzeDir(t, dir, core.DefaultParams())
		page := renderRun(t, r, dir)
		o := r.Outcome()
		// Planted: ×1.22 from x=27.3 of 34; the reference: +20.90 % at
		// post-warmup 16 by Pettitt, the later plateau from 26 (+1 warmup).
		if !o.AnomalyDetected || o.ChangePointSP != 27 {
			t.Fatalf("detector: anomaly %v at %d, want at 27", o.AnomalyDetected, o.ChangePointSP)
		}
		fig := figure(page, "tpot")
		if !strings.Contains(html.UnescapeString(string(fig)), `level shift +20.9%`) || countMatches(fig, `<line class="marker"`) != 1 {
			t.Error("the TPOT chart does not mark the +20.9% level shift once")
		}
		if !bytes.Contains(page, []byte("level shift at super-pass 27 (absolute)")) {
			t.Error("the headline does not say where the level shift is")
		}
		for _, m := range []string{"TPOT p50", "TPOT p90"} {
			if !bytes.Contains(fig, []byte(m+` <span class="flag">drifting up after the window</span>`)) {
				t.Errorf("%s is in drifting_up but not labelled", m)
			}
		}
	})
	t.Run("drift: no window reported, drifting metrics labelled", func(t *testing.T) {
		dir := parityRun(t, "conc_drift_up")
		r := analyzeDir(t, dir, core.DefaultParams())
		page := renderRun(t, r, dir)
		if r.Outcome().Found {
			t.Fatal("detector reports a steady state on a planted +35% drift")
		}
		if bytes.Contains(page, []byte(`class="band window"`)) {
			t.Error("a window is drawn as reported on a drifting run")
		}
		if !bytes.Contains(page, []byte("no certified window (verdict "+string(r.Outcome().Verdict)+")")) {
			t.Error("the charts do not say why no window is drawn")
		}
		if len(r.Steady.DriftingUp) == 0 || !bytes.Contains(figure(page, "tpot"), []byte(`class="flag"`)) {
			t.Errorf("drifting_up %v, but no metric labelled drifting", r.Steady.DriftingUp)
		}
	})
	t.Run("clean: the steady numbers of the text report", func(t *testing.T) {
		dir := parityRun(t, "conc_clean_ramp")
		r := analyzeDir(t, dir, core.DefaultParams())
		page := renderRun(t, r, dir)
		var text bytes.Buffer
		if err := sinks.WriteReport(&text, sinks.ReportInput{Result: r, RunPath: dir}); err != nil {
			t.Fatal(err)
		}
		o := r.Outcome()
		if !o.Found {
			t.Fatal("the clean plateau is not found")
		}
		for _, ns := range []float64{o.SteadyTPOTP50Ns, o.SteadyTPOTP90Ns, o.SteadyTTFTP50Ns, o.TotalTPOTP50Ns} {
			s := fmt.Sprintf("%.2f", ns/1e6)
			if !strings.Contains(text.String(), s) || !bytes.Contains(page, []byte(s+" ms")) {
				t.Errorf("%s ms: in the text report %v, on the page %v", s, strings.Contains(text.String(), s), bytes.Contains(page, []byte(s+" ms")))
			}
		}
		ci := fmt.Sprintf("[%.1f, %.1f]", o.SteadyTPSSystemCILo, o.SteadyTPSSystemCIHi)
		if !strings.Contains(html.UnescapeString(string(page)), ci) || !strings.Contains(text.String(), ci) {
			t.Errorf("system TPS CI %s not on both the page and the text report", ci)
		}
	})
	t.Run("non-streaming: no TPOT chart, latency instead", func(t *testing.T) {
		dir := sharedtest.NonStreamingCopy(t, "conc_clean_ramp")
		r := analyzeDir(t, dir, core.DefaultParams())
		page := renderRun(t, r, dir)
		if !bytes.Contains(figure(page, "tpot"), []byte(`class="empty"`)) {
			t.Error("TPOT chart drawn for a run without first-token events")
		}
		lat := figure(page, "latency")
		if lat == nil {
			t.Fatal("no latency chart for a non-streaming run")
		}
		if got := countMatches(lat, `<circle class="pt s5"`); got != r.NSuperPasses {
			t.Errorf("latency chart: %d points, %d super-passes", got, r.NSuperPasses)
		}
	})
}
