package sinks_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

var updateDocs = flag.Bool("update-docs", false, "regenerate the example report and plot in ../docs")

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
	for _, ex := range []struct{ run, name, what string }{
		{"conc_clean_ramp", "clean", "a clean ramp into one long plateau"},
		{"conc_staircase_late", "staircase", "a late level shift (a staircase) after a long plateau"},
	} {
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
			"whitespace-word token counts. Regenerate with `go test ./sinks -run TestUpdateDocs -update-docs`;\nthe plot is [plot-" + ex.name + ".png](plot-" +
			ex.name + ".png).\n\n```text\n" + report.String() + "```\n"
		if err := os.WriteFile(filepath.Join(docs, "report-"+ex.name+".md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := sinks.WriteNamedPlot(filepath.Join(docs, "plot-"+ex.name+".png"), ex.run, r); err != nil {
			t.Fatal(err)
		}
	}
}
