package sinks_test

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/sinks"
)

// The plot is a PNG of the advertised size.
func TestPlotPNG(t *testing.T) {
	for _, name := range []string{"conc_clean_ramp", "conc_staircase_late", "conc_insufficient_passes"} {
		t.Run(name, func(t *testing.T) {
			r, _ := analyzeParityRun(t, name)
			path := filepath.Join(t.TempDir(), name+".png")
			if err := sinks.WriteNamedPlot(path, name, r); err != nil {
				t.Fatalf("WriteNamedPlot: %v", err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("not a PNG: %v", err)
			}
			if b := img.Bounds(); b.Dx() != sinks.PlotWidthPx || b.Dy() != sinks.PlotHeightPx {
				t.Errorf("plot is %d×%d, want %d×%d", b.Dx(), b.Dy(), sinks.PlotWidthPx, sinks.PlotHeightPx)
			}
			if es, err := os.ReadDir(filepath.Dir(path)); err != nil || len(es) != 1 {
				t.Errorf("temporary file left behind: %v %v", es, err)
			}
		})
	}
}

// The agentic NATL path has no super-pass series: an error, no file.
func TestPlotNATL(t *testing.T) {
	r, _ := analyzeParityRun(t, "agentic_tools")
	path := filepath.Join(t.TempDir(), "natl.png")
	if err := sinks.WritePlot(path, r); err == nil {
		t.Error("WritePlot of an agentic result returned no error")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("WritePlot of an agentic result left a file: %v", err)
	}
}
