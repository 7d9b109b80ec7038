package calibrate

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/calibration"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
	"github.com/steadysweep/steadysweep/sweep"
)

// TestCalibrationHTML sweeps a small synthetic corpus over a warmup_band
// grid under both compat modes, calibrates it with an HTML page, and
// checks the page against the report: one ranking row per config in rank
// order, the record's figures equal to the report's, one plot per swept
// axis and panel with a mark per config and defined metric, a confusion
// matrix whose diagonal is the agreeing rows, and no URL leaving the page.
func TestCalibrationHTML(t *testing.T) {
	root := t.TempDir()
	if _, err := synth.GenerateCorpus(root, 4, 1, []string{"clean_ramp", "drift_up", "late_staircase", "ramp_only"}); err != nil {
		t.Fatal(err)
	}
	refs, errs := corpora.Discover([]string{root}, nil, nil)
	if len(errs) > 0 || len(refs) != 4 {
		t.Fatalf("discover: %d runs, %v", len(refs), errs)
	}
	var configs []core.Params
	for _, base := range []core.Params{core.DefaultParams(), core.ReferenceParams()} {
		for _, wb := range []float64{0.03, 0.1} {
			p := base
			p.WarmupBand = wb
			configs = append(configs, p)
		}
	}
	out := t.TempDir()
	if _, err := sweep.Run(context.Background(), sweep.Options{Runs: refs, Configs: configs, Out: out,
		Load: sweep.DefaultLoader(sweep.LoaderOptions{Counter: tokenizer.Words{}}), Analyze: sweep.DefaultAnalyzer}); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(out, "calibration.html")
	r, err := Calibrate(context.Background(), Options{Out: out, HTMLPath: page, ReportPath: "-", PlotPath: "-", ParquetPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if r.HTMLPath != page || len(r.Configs) != 4 || len(r.Axes) != 2 {
		t.Fatalf("html %q, %d configs, axes %v; want the page, 4 configs, compat and warmup_band", r.HTMLPath, len(r.Configs), r.Axes)
	}
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	if fi, err := os.Lstat(page); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644&^os.FileMode(umask) {
		t.Errorf("the page is not a regular 0644 file under umask %o: %v %v", umask, fi, err)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := htmlpage.Record(b)
	if err != nil {
		t.Fatal(err)
	}
	v, err := pyjson.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if want := pyjson.Marshal(r.HTMLRecord()); !bytes.Equal(pyjson.Marshal(v), want) {
		t.Fatal("the page's record is not the report's")
	}
	rec := v.(pyjson.Object)
	recConfigs := rec[rec.Index("configs")].Value.([]any)
	for i, rc := range recConfigs {
		o := rc.(pyjson.Object)
		c := &r.Configs[i]
		if o[o.Index("config_id")].Value != c.ConfigID || fmt.Sprint(o[o.Index("rank")].Value) != itoa(c.Rank) {
			t.Errorf("record config %d is not rank %d %s", i, c.Rank, c.ConfigID)
		}
		agree := o[o.Index("agree_rate")].Value
		if math.IsNaN(c.AgreeRate) != (agree == nil) {
			t.Errorf("%s: agree_rate %v, report %v", c.Label, agree, c.AgreeRate)
		}
	}

	html := string(b)
	ranking := section(t, html, "Ranking")
	rows := regexp.MustCompile(`<tr><td class="num">(\d+)</td><td>(.*?)</td>`).FindAllStringSubmatch(ranking, -1)
	if len(rows) != len(r.Configs) {
		t.Fatalf("ranking has %d rows, %d configs", len(rows), len(r.Configs))
	}
	for i, m := range rows {
		if m[1] != itoa(r.Configs[i].Rank) || !strings.Contains(m[2], r.Configs[i].Label) {
			t.Errorf("ranking row %d: rank %s %q, want %d %q", i, m[1], m[2], r.Configs[i].Rank, r.Configs[i].Label)
		}
	}
	// Each axis has two panels (calibration.WritePlot's): the plateau
	// runs' median and p95 TPOT error, then the found and
	// confident-but-wrong rates; a mark per defined value.
	panels := []struct {
		title  string
		values [2]func(c *calibration.ConfigScore) float64
	}{
		{"TPOT error", [2]func(c *calibration.ConfigScore) float64{
			func(c *calibration.ConfigScore) float64 { return c.PlateauErrMedian },
			func(c *calibration.ConfigScore) float64 { return c.PlateauErrP95 }}},
		{"rates", [2]func(c *calibration.ConfigScore) float64{
			func(c *calibration.ConfigScore) float64 { return c.FoundRate },
			func(c *calibration.ConfigScore) float64 { return c.ConfidentWrongRate }}},
	}
	figs := regexp.MustCompile(`(?s)<figure class="chart" id="chart-plot-[^"]+".*?</figure>`).FindAllString(html, -1)
	if len(figs) != len(r.Axes)*len(panels) {
		t.Fatalf("%d plots, want %d axes × %d panels", len(figs), len(r.Axes), len(panels))
	}
	for i, fig := range figs {
		m := panels[i%len(panels)]
		want := 0
		for j := range r.Configs {
			for k := range 2 {
				if y := m.values[k](&r.Configs[j]); !math.IsNaN(y) && !math.IsInf(y, 0) {
					want++
				}
			}
		}
		if got := strings.Count(fig, `<circle class="pt `); got != want {
			t.Errorf("plot %d (%s): %d marks, %d defined values", i, m.title, got, want)
		}
	}
	best := r.Config(r.Recommended)
	diag := 0
	for i, l := range calibration.TruthLabels {
		if j := slices.Index(calibration.PredLabels, l); j >= 0 {
			diag += best.Confusion[i][j]
		}
	}
	conf := section(t, html, "Confusion matrices")
	bold := 0
	for _, m := range regexp.MustCompile(`<strong>(\d+)</strong>`).FindAllStringSubmatch(conf[:strings.Index(conf, "</table>")], -1) {
		bold += atoi(m[1])
	}
	if bold != diag {
		t.Errorf("recommended confusion matrix: diagonal %d on the page, %d in the report", bold, diag)
	}
	for _, m := range regexp.MustCompile(`(?i)\s(?:src|href)="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if strings.Contains(m[1], ":") || strings.HasPrefix(m[1], "/") {
			t.Errorf("external URL %q", m[1])
		}
	}
}

// section is the <section> of html titled title.
func section(t *testing.T, html, title string) string {
	t.Helper()
	i := strings.Index(html, "<h2>"+title+"</h2>")
	if i < 0 {
		t.Fatalf("no section %q", title)
	}
	j := strings.Index(html[i:], "</section>")
	return html[i : i+j]
}

func itoa(n int) string { return strconv.Itoa(n) }

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
