package sinks

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// The plot's size in pixels at plotDPI.
const (
	PlotWidthPx  = 1200
	PlotHeightPx = 800
	plotDPI      = 96
)

// WritePlot writes the PNG plot of r to path, titled without a run name;
// see WriteNamedPlot.
func WritePlot(path string, r *core.Result) error { return WriteNamedPlot(path, "", r) }

// WriteNamedPlot writes a PNG of PlotWidthPx×PlotHeightPx to path: the
// per-super-pass TPOT and TTFT p50/p90 over the whole run in two stacked
// panels (ms over absolute super-pass index), the warmup shaded, the
// reported window highlighted only when it is a certified steady state,
// every plateau outlined, the change point marked and the whole-run values
// dashed; the title gives run, status and verdict, and says so when no
// steady state was certified. A run without TPOT and TTFT (not streamed)
// gets one panel of end-to-end latency and a note why. The file is
// written atomically (internal/atomicfile).
func WriteNamedPlot(path, run string, r *core.Result) error {
	img, err := renderPlot(run, r)
	if err != nil {
		return err
	}
	return writePNG(path, vgimg.PngCanvas{Canvas: img})
}

// WritePlotPNG writes the PNG of WriteNamedPlot to w.
func WritePlotPNG(w io.Writer, run string, r *core.Result) error {
	img, err := renderPlot(run, r)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("sinks: plot: %w", err)
	}
	return nil
}

// WritePlotSVG writes the plot of WriteNamedPlot to w as SVG, the same
// drawing at the same size (PlotWidthPx×PlotHeightPx at plotDPI).
func WritePlotSVG(w io.Writer, run string, r *core.Result) error {
	c := vgsvg.NewWith(vgsvg.UseWH(PlotWidthPx*vg.Inch/plotDPI, PlotHeightPx*vg.Inch/plotDPI))
	if err := drawPlot(c, run, r); err != nil {
		return err
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("sinks: plot: %w", err)
	}
	return nil
}

// renderPlot draws the plot of r on a PNG canvas.
func renderPlot(run string, r *core.Result) (*vgimg.Canvas, error) {
	img := vgimg.NewWith(vgimg.UseWH(PlotWidthPx*vg.Inch/plotDPI, PlotHeightPx*vg.Inch/plotDPI), vgimg.UseDPI(plotDPI))
	if err := drawPlot(img, run, r); err != nil {
		return nil, err
	}
	return img, nil
}

// drawPlot draws the plot of r on c, a PNG or an SVG canvas.
func drawPlot(c vg.CanvasSizer, run string, r *core.Result) error {
	if r == nil {
		return errors.New("sinks: plot: nil result")
	}
	l := layoutOf(r)
	if len(l.X) == 0 {
		return errors.New("sinks: plot: no super-pass series to plot (agentic runs take the NATL path)")
	}
	m := marksOf(&l)
	var panels []*plot.Plot
	var legend []legendItem
	type panel struct {
		label            string
		p50, p90         []float64
		total50, total90 float64
		colors           seriesColors
	}
	ps := []panel{{"TPOT (ms)", l.TPOTP50, l.TPOTP90, l.TotalTPOTP50, l.TotalTPOTP90, tpotColors},
		{"TTFT (ms)", l.TTFTP50, l.TTFTP90, l.TotalTTFTP50, l.TotalTTFTP90, ttftColors}}
	if l.LatencyOnly {
		ps = []panel{{"latency (ms)", l.LatencyP50, l.LatencyP90, l.TotalLatencyP50, l.TotalLatencyP90, tpotColors}}
	}
	for _, pn := range ps {
		p, items, err := panelPlot(&l, m, pn.label, pn.p50, pn.p90, pn.total50, pn.total90, pn.colors)
		if err != nil {
			return fmt.Errorf("sinks: plot: %s panel: %w", pn.label, err)
		}
		panels = append(panels, p)
		legend = append(legend, items...)
	}
	panels[len(panels)-1].X.Label.Text = "super-pass (absolute index, warmup included)"

	dc := draw.New(c)
	legend = append(legend, legendItem{"whole run (dashed)", []plot.Thumbnailer{wholeRunThumb}})
	legend = append(legend, m.legend...)
	hh := headerHeight(l.Note != "")
	drawHeader(draw.Crop(dc, 0, 0, dc.Max.Y-dc.Min.Y-hh, 0), plotTitle(run, &l), l.Note, legend)
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadTop: 2, PadBottom: 4, PadLeft: 6, PadRight: 14, PadY: 10}
	grid := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		grid[i] = []*plot.Plot{p}
	}
	canvases := plot.Align(grid, tiles, draw.Crop(dc, 0, 0, 0, -hh))
	for i, p := range panels {
		p.Draw(canvases[i][0])
	}
	return nil
}

// plotTitle names the run and says what the detector concluded and where.
func plotTitle(run string, l *plotLayout) string {
	if run == "" {
		run = "steadysweep"
	}
	t := run + "  ·  status " + orNA(l.Status) + "  ·  verdict " + orNA(l.Verdict)
	if l.Window != nil && l.Certified {
		t += "  ·  window " + spRange(l.Window.Lo, l.Window.Hi)
	}
	return t + "  ·  warmup " + strconv.Itoa(l.Warmup)
}

// seriesColors are the p50 (strong) and p90 (light) colours of a panel.
type seriesColors struct{ p50, p90 color.Color }

// Colours are non-premultiplied (NRGBA) so the translucent fills blend.
var (
	tpotColors      = seriesColors{color.NRGBA{31, 119, 180, 255}, color.NRGBA{107, 174, 214, 255}}
	ttftColors      = seriesColors{color.NRGBA{217, 72, 1, 255}, color.NRGBA{253, 141, 60, 255}}
	warmupFill      = color.NRGBA{0, 0, 0, 34}
	windowFill      = color.NRGBA{44, 160, 44, 48}
	plateauLine     = color.NRGBA{60, 60, 60, 255}
	changePointLine = color.NRGBA{214, 39, 40, 255}
	wholeRunDashes  = []vg.Length{6, 4}
	wholeRunThumb   = lineThumb{draw.LineStyle{Color: color.NRGBA{90, 90, 90, 255}, Width: 1.5, Dashes: wholeRunDashes}}
)

// lineThumb is a legend thumbnail of a line style alone.
type lineThumb struct{ style draw.LineStyle }

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(t.style, c.Min.X, y, c.Max.X, y)
}

// plotMarks are the marks both panels share: warmup, window, plateaus,
// change point, and their legend entries.
type plotMarks struct {
	plotters []plot.Plotter
	legend   []legendItem
}

// marksOf builds the shared marks of l, in drawing order.
func marksOf(l *plotLayout) plotMarks {
	var m plotMarks
	labelStyle := headerText(9, draw.XLeft)
	if l.Warmup > 0 {
		b := spanBand{span: span{0, l.Warmup - 1}, fill: warmupFill}
		m.plotters = append(m.plotters, b)
		m.legend = append(m.legend, legendItem{"warmup", []plot.Thumbnailer{b}})
	}
	if l.Window != nil && l.Certified {
		b := spanBand{span: *l.Window, fill: windowFill}
		m.plotters = append(m.plotters, b)
		m.legend = append(m.legend, legendItem{"reported window", []plot.Thumbnailer{b}})
	}
	for i, s := range l.Plateaus {
		b := spanBand{span: s, inset: 2, label: "P" + strconv.Itoa(i+1), labelStyle: labelStyle,
			outline: draw.LineStyle{Color: plateauLine, Width: 1.2, Dashes: []vg.Length{5, 3}}}
		m.plotters = append(m.plotters, b)
		if i == 0 {
			m.legend = append(m.legend, legendItem{"plateau", []plot.Thumbnailer{b}})
		}
	}
	if l.ChangePoint >= 0 {
		cpLabel := labelStyle
		cpLabel.Color = changePointLine
		// The change point is the first super-pass after the change, so
		// the line goes on its left edge, between the two levels.
		v := vMarker{x: float64(l.ChangePoint) - 0.5, label: "change point " + strconv.Itoa(l.ChangePoint),
			labelStyle: cpLabel, line: draw.LineStyle{Color: changePointLine, Width: 2}}
		m.plotters = append(m.plotters, v)
		m.legend = append(m.legend, legendItem{"change point", []plot.Thumbnailer{v}})
	}
	return m
}

// panelPlot builds one panel: the shared marks first (so the data draws
// over them), then the whole-run dashed lines, then the per-super-pass
// lines. It returns the legend entries of its two series.
func panelPlot(l *plotLayout, m plotMarks, yLabel string, p50, p90 []float64, total50, total90 float64,
	colors seriesColors) (*plot.Plot, []legendItem, error) {
	p := plot.New()
	p.Y.Label.Text = yLabel
	p.X.Tick.Marker = superPassTicks{}
	p.Y.Tick.Marker = distinctTicks{}
	p.Add(m.plotters...)

	n := len(l.X)
	metric := strings.Fields(yLabel)[0]
	for _, t := range []struct {
		v float64
		c color.Color
	}{{total50, colors.p50}, {total90, colors.p90}} {
		if math.IsNaN(t.v) {
			continue
		}
		line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: t.v}, {X: float64(n) - 0.5, Y: t.v}})
		if err != nil {
			return nil, nil, err
		}
		line.LineStyle = draw.LineStyle{Color: t.c, Width: 1.5, Dashes: wholeRunDashes}
		p.Add(line)
	}
	var legend []legendItem
	for _, s := range []struct {
		v   []float64
		c   color.Color
		lbl string
	}{{p50, colors.p50, metric + " p50"}, {p90, colors.p90, metric + " p90"}} {
		thumb, err := addSeries(p, l.X, s.v, s.c)
		if err != nil {
			return nil, nil, err
		}
		if thumb != nil {
			legend = append(legend, legendItem{s.lbl, thumb})
		}
	}
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	// Headroom above the data keeps the plateau labels off the lines.
	if p.Y.Max > p.Y.Min {
		lo := p.Y.Min
		p.Y.Min = math.Max(0, lo-0.05*(p.Y.Max-lo))
		p.Y.Max += 0.12 * (p.Y.Max - lo)
	}
	return p, legend, nil
}

// addSeries draws one per-super-pass series as lines with points, broken
// where a super-pass lacks the metric (NaN); it returns the legend
// thumbnails (nil when the series is empty).
func addSeries(p *plot.Plot, xs, ys []float64, c color.Color) ([]plot.Thumbnailer, error) {
	var thumb []plot.Thumbnailer
	for lo := 0; lo < len(ys); {
		if math.IsNaN(ys[lo]) {
			lo++
			continue
		}
		hi := lo
		for hi < len(ys) && !math.IsNaN(ys[hi]) {
			hi++
		}
		pts := make(plotter.XYs, hi-lo)
		for i := lo; i < hi; i++ {
			pts[i-lo] = plotter.XY{X: xs[i], Y: ys[i]}
		}
		line, scatter, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.LineStyle = draw.LineStyle{Color: c, Width: 2}
		scatter.GlyphStyle = draw.GlyphStyle{Color: c, Radius: 2.5, Shape: draw.CircleGlyph{}}
		p.Add(line, scatter)
		if thumb == nil {
			thumb = []plot.Thumbnailer{line, scatter}
		}
		lo = hi
	}
	return thumb, nil
}

// superPassTicks puts ticks on whole super-passes only, about ten labelled.
type superPassTicks struct{}

func (superPassTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := int(math.Ceil(lo)), int(math.Floor(hi))
	step := 1
	for _, s := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		step = s
		if (last-first)/s <= 12 {
			break
		}
	}
	var ticks []plot.Tick
	for i := first; i <= last; i++ {
		switch {
		case i%step == 0:
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.Itoa(i)})
		case step <= 5: // a minor tick per super-pass while they stay apart
			ticks = append(ticks, plot.Tick{Value: float64(i)})
		}
	}
	return ticks
}

// distinctTicks are gonum's default ticks with labels that differ: over a
// narrow range (a flat TPOT of 30 ms ± 1 µs) gonum labels three ticks
// "30 30 30"; the labels are then given the fewest decimals that tell
// them apart.
type distinctTicks struct{}

func (distinctTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for prec := 0; prec <= 12 && !labelsDistinct(ticks); prec++ {
		for i := range ticks {
			if ticks[i].Label != "" {
				ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', prec, 64)
			}
		}
	}
	return ticks
}

// labelsDistinct reports no two labelled ticks sharing a label.
func labelsDistinct(ticks []plot.Tick) bool {
	seen := map[string]bool{}
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		if seen[t.Label] {
			return false
		}
		seen[t.Label] = true
	}
	return true
}

// writePNG writes the canvas to path atomically (internal/atomicfile), so
// path never holds a partial image.
func writePNG(path string, c vgimg.PngCanvas) error {
	err := atomicfile.WriteWith(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("sinks: plot: %w", err)
	}
	return nil
}
