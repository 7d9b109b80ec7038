package sinks_test

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// The SVG plot says what the PNG shows, as text an SVG reader can find:
// the title's status and verdict, both panels' axis labels, every legend
// entry the layout calls for (LayoutOf: warmup, certified window,
// plateaus, change point), each plateau's label and the change point's;
// and the PNG of the same run has the p50 lines' colours (TPOT's blue,
// TTFT's orange, sinks/plot.go) on its pixels.
func TestPlotSVGText(t *testing.T) {
	for _, name := range []string{"conc_staircase_late", "conc_clean_ramp"} {
		t.Run(name, func(t *testing.T) {
			r, _ := analyzeParityRun(t, name)
			l := sinks.LayoutOf(r)
			var b bytes.Buffer
			if err := sinks.WritePlotSVG(&b, name, r); err != nil {
				t.Fatal(err)
			}
			var texts []string
			d := xml.NewDecoder(bytes.NewReader(b.Bytes()))
			in := false
			for {
				tok, err := d.Token()
				if err != nil {
					if err != io.EOF {
						t.Fatalf("SVG is not XML: %v", err)
					}
					break
				}
				switch tok := tok.(type) {
				case xml.StartElement:
					in = tok.Name.Local == "text"
				case xml.CharData:
					if in {
						texts = append(texts, string(tok))
					}
				case xml.EndElement:
					in = false
				}
			}
			want := []string{"status " + l.Status, "verdict " + l.Verdict, "TPOT (ms)", "TTFT (ms)",
				"super-pass (absolute index, warmup included)", "TPOT p50", "TPOT p90", "TTFT p50", "TTFT p90", "whole run (dashed)"}
			if l.Warmup > 0 {
				want = append(want, "warmup")
			}
			if l.Window != nil && l.Certified {
				want = append(want, "reported window")
			}
			for i := range l.Plateaus {
				want = append(want, "plateau", "P"+strconv.Itoa(i+1))
			}
			if l.ChangePoint >= 0 {
				want = append(want, "change point", "change point "+strconv.Itoa(l.ChangePoint))
			}
			all := "\n" + strings.Join(texts, "\n") + "\n"
			for _, w := range want {
				if !strings.Contains(all, w) {
					t.Errorf("no text %q in the SVG: %q", w, texts)
				}
			}

			b.Reset()
			if err := sinks.WritePlotPNG(&b, name, r); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[color.RGBA]int{}
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
					r, g, b, a := img.At(x, y).RGBA()
					counts[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}]++
				}
			}
			for _, c := range []color.RGBA{{31, 119, 180, 255}, {217, 72, 1, 255}} {
				if counts[c] < 100 {
					t.Errorf("%d pixels of %v in the PNG", counts[c], c)
				}
			}
		})
	}
}
