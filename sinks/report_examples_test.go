package sinks_test

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

var updateDocs = flag.Bool("update-docs", false, "regenerate the example report and plot in ../docs")

// updateDocsCmd regenerates the examples; the staleness test names it.
const updateDocsCmd = "go test ./sinks -run TestUpdateDocs -update-docs"

// docExamples are the shared parity runs shown in docs/: report-NAME.md
// and plot-NAME.png.
var docExamples = []struct{ run, name, what string }{
	{"conc_clean_ramp", "clean", "a clean ramp into one long plateau"},
	{"conc_staircase_late", "staircase", "a late level shift (a staircase) after a long plateau"},
}

// writeDocExamples writes every example's report (the text report as a
// Markdown code block) and plot into dir, as docs/ holds them.
func writeDocExamples(t *testing.T, dir string) {
	t.Helper()
	for _, ex := range docExamples {
		r, run := analyzeRun(t, ex.run, core.DefaultParams())
		var report bytes.Buffer
		err := sinks.WriteReport(&report, sinks.ReportInput{Result: r, RunPath: "parity/runs/" + ex.run,
			Derived: []sinks.Derivation{
				{Name: "tokenizer", Value: "words", Source: "--tokenizer"},
				{Name: "dataset size", Value: strconv.Itoa(run.Info.DatasetSize), Source: run.Info.DatasetSizeSource},
				{Name: "profile", Value: r.Profile.Name, Source: "config.yaml load_pattern " + run.Info.LoadPattern},
			}})
		if err != nil {
			t.Fatal(err)
		}
		md := "# Example report: " + ex.run + "\n\n" +
			"`steadysweep analyze` on the shared parity run `" + ex.run + "`,\n" + ex.what + ", analysed with steadysweep's default parameters and\n" +
			"whitespace-word token counts. Regenerate with `" + updateDocsCmd + "`;\nthe plot is [plot-" + ex.name + ".png](plot-" +
			ex.name + ".png).\n\n```text\n" + report.String() + "```\n"
		if err := os.WriteFile(filepath.Join(dir, "report-"+ex.name+".md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := sinks.WriteNamedPlot(filepath.Join(dir, "plot-"+ex.name+".png"), ex.run, r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUpdateDocs regenerates the examples in docs/ from the shared parity
// runs (go test ./sinks -run TestUpdateDocs -update-docs): the text report
// as a Markdown code block and the plot, for a clean ramp and a late
// staircase.
func TestUpdateDocs(t *testing.T) {
	if !*updateDocs {
		t.Skip("pass -update-docs to regenerate docs/report-*.md and docs/plot-*.png")
	}
	docs := filepath.Join("..", "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	writeDocExamples(t, docs)
}

// TestDocsExamplesCurrent fails when docs/report-*.md are not what the
// program writes now (a change to a number, a label or the layout left the
// examples stale): it regenerates them into a temporary directory and
// compares the text byte for byte. The plots are compared by their
// dimensions only (their pixels follow the rasterizer, not the analysis).
func TestDocsExamplesCurrent(t *testing.T) {
	if *updateDocs {
		t.Skip("-update-docs is rewriting docs/")
	}
	tmp := t.TempDir()
	writeDocExamples(t, tmp)
	docs := filepath.Join("..", "docs")
	for _, ex := range docExamples {
		name := "report-" + ex.name + ".md"
		got, err := os.ReadFile(filepath.Join(tmp, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(docs, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("docs/%s is stale: the program now writes a different report, from %s\nrun `%s` and commit docs/ (naming the change that moved the numbers)",
				name, changedLine(want, got), updateDocsCmd)
		}
		plot := "plot-" + ex.name + ".png"
		gw, gh := pngSize(t, filepath.Join(tmp, plot))
		ww, wh := pngSize(t, filepath.Join(docs, plot))
		if gw != ww || gh != wh {
			t.Errorf("docs/%s is %d×%d, the program draws %d×%d: run `%s`", plot, ww, wh, gw, gh, updateDocsCmd)
		}
	}
}

// changedLine says where the regenerated text first departs from the
// docs' copy: the line number and both versions of the line.
func changedLine(docs, now []byte) string {
	d, n := bytes.Split(docs, []byte("\n")), bytes.Split(now, []byte("\n"))
	for i := 0; ; i++ {
		var dl, nl []byte
		if i < len(d) {
			dl = d[i]
		}
		if i < len(n) {
			nl = n[i]
		}
		if !bytes.Equal(dl, nl) || i >= len(d) || i >= len(n) {
			return fmt.Sprintf("line %d\n  docs: %q\n  now:  %q", i+1, dl, nl)
		}
	}
}

// pngSize reads a PNG's width and height from its header.
func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cfg.Width, cfg.Height
}
