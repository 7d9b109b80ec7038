package sinks

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/sinks/internal/canvas"
)

// The plot's size in pixels.
const (
	PlotWidthPx  = 1200
	PlotHeightPx = 800
)

// pt is a typographic point in pixels (the plot is drawn at 96 dpi).
const pt = canvas.Pt

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
	if err := atomicfile.WriteWith(path, img.WritePNG); err != nil {
		return fmt.Errorf("sinks: plot: %w", err)
	}
	return nil
}

// WritePlotPNG writes the PNG of WriteNamedPlot to w.
func WritePlotPNG(w io.Writer, run string, r *core.Result) error {
	img, err := renderPlot(run, r)
	if err != nil {
		return err
	}
	if err := img.WritePNG(w); err != nil {
		return fmt.Errorf("sinks: plot: %w", err)
	}
	return nil
}

// WritePlotSVG writes the plot of WriteNamedPlot to w as SVG, the same
// drawing at the same size (PlotWidthPx×PlotHeightPx).
func WritePlotSVG(w io.Writer, run string, r *core.Result) error {
	c := canvas.NewSVG(PlotWidthPx, PlotHeightPx, color.White)
	if err := drawPlot(c, run, r); err != nil {
		return err
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("sinks: plot: %w", err)
	}
	return nil
}

// renderPlot draws the plot of r on a raster canvas.
func renderPlot(run string, r *core.Result) (*canvas.Raster, error) {
	img := canvas.NewRaster(PlotWidthPx, PlotHeightPx, color.White)
	if err := drawPlot(img, run, r); err != nil {
		return nil, err
	}
	return img, nil
}

// Padding around the stacked panels, in pixels.
const (
	panelPadTop, panelPadBottom = 2 * pt, 4 * pt
	panelPadLeft, panelPadRight = 6 * pt, 14 * pt
	panelGap                    = 10 * pt
)

// drawPlot draws the plot of r on c, a PNG or an SVG canvas.
func drawPlot(c canvas.Canvas, run string, r *core.Result) error {
	if r == nil {
		return errors.New("sinks: plot: nil result")
	}
	l := layoutOf(r)
	if len(l.X) == 0 {
		return errors.New("sinks: plot: no super-pass series to plot (agentic runs take the NATL path)")
	}
	m := marksOf(&l)
	type panelSpec struct {
		label            string
		p50, p90         []float64
		total50, total90 float64
		colors           seriesColors
	}
	ps := []panelSpec{{"TPOT (ms)", l.TPOTP50, l.TPOTP90, l.TotalTPOTP50, l.TotalTPOTP90, tpotColors},
		{"TTFT (ms)", l.TTFTP50, l.TTFTP90, l.TotalTTFTP50, l.TotalTTFTP90, ttftColors}}
	if l.LatencyOnly {
		ps = []panelSpec{{"latency (ms)", l.LatencyP50, l.LatencyP90, l.TotalLatencyP50, l.TotalLatencyP90, tpotColors}}
	}
	var panels []*runPanel
	var legend []legendItem
	for _, pn := range ps {
		p := newRunPanel(&l, pn.label, pn.p50, pn.p90, pn.total50, pn.total90, pn.colors)
		panels = append(panels, p)
		legend = append(legend, p.legend...)
	}
	panels[len(panels)-1].X.Label = "super-pass (absolute index, warmup included)"

	w, h := c.Size()
	legend = append(legend, legendItem{"whole run (dashed)", wholeRunThumb})
	legend = append(legend, m.legend...)
	hh := headerHeight(l.Note != "")
	drawHeader(c, w, plotTitle(run, &l), l.Note, legend)

	// The panels share the left edge of their data areas (the widest y
	// axis) and split the height left evenly.
	left := 0.0
	for _, p := range panels {
		left = max(left, p.Y.YWidth())
	}
	top, bottom := hh+panelPadTop, h-panelPadBottom
	each := (bottom - top - panelGap*float64(len(panels)-1)) / float64(len(panels))
	for i, p := range panels {
		y0 := top + float64(i)*(each+panelGap)
		p.Area = canvas.Rect{Min: canvas.Point{X: panelPadLeft + left, Y: y0},
			Max: canvas.Point{X: w - panelPadRight, Y: y0 + each - p.X.XHeight()}}
		p.draw(c, m)
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
	wholeRunDashes  = []float64{6 * pt, 4 * pt}
)

// wholeRunThumb is the whole-run lines' legend thumbnail: a function, not
// lineThumb's closure in a variable, which a package init would build in
// every process (issue 32).
func wholeRunThumb(c canvas.Canvas, box canvas.Rect) {
	lineThumb(canvas.Line{Color: color.NRGBA{90, 90, 90, 255}, Width: 1.5 * pt, Dashes: wholeRunDashes})(c, box)
}

// Series styles: line width and point radius.
const (
	seriesWidth  = 2 * pt
	pointRadius  = 2.5 * pt
	wholeRunLine = 1.5 * pt
)

// runPanel is one panel of the run plot: its axes and data, and the
// legend entries of its two series.
type runPanel struct {
	canvas.Panel
	series []series
	totals []canvas.Line // whole-run lines, at totalYs
	totalY []float64
	xs     []float64
	legend []legendItem
}

// series is one per-super-pass percentile line with points.
type series struct {
	ys []float64
	c  color.Color
}

// newRunPanel builds one panel: the ranges of its data (the whole-run
// values included) and its ticks.
func newRunPanel(l *plotLayout, yLabel string, p50, p90 []float64, total50, total90 float64, colors seriesColors) *runPanel {
	p := &runPanel{xs: l.X}
	p.Y.Label = yLabel
	n := len(l.X)
	lo, hi := math.Inf(1), math.Inf(-1)
	metric := strings.Fields(yLabel)[0]
	for _, t := range []struct {
		v float64
		c color.Color
	}{{total50, colors.p50}, {total90, colors.p90}} {
		if math.IsNaN(t.v) {
			continue
		}
		p.totals = append(p.totals, canvas.Line{Color: t.c, Width: wholeRunLine, Dashes: wholeRunDashes})
		p.totalY = append(p.totalY, t.v)
		lo, hi = min(lo, t.v), max(hi, t.v)
	}
	for _, s := range []struct {
		v   []float64
		c   color.Color
		lbl string
	}{{p50, colors.p50, metric + " p50"}, {p90, colors.p90, metric + " p90"}} {
		have := false
		for _, v := range s.v {
			if !math.IsNaN(v) {
				lo, hi, have = min(lo, v), max(hi, v), true
			}
		}
		p.series = append(p.series, series{s.v, s.c})
		if have {
			p.legend = append(p.legend, legendItem{s.lbl, seriesThumb(s.c)})
		}
	}
	if lo > hi { // nothing to draw: a unit range
		lo, hi = 0, 1
	}
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	// Headroom above the data keeps the plateau labels off the lines.
	p.Y.Min = math.Max(0, lo-0.05*(hi-lo))
	p.Y.Max = hi + 0.12*(hi-lo)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Ticks = superPassTicks(p.X.Min, p.X.Max)
	p.Y.Ticks = distinctTicks(p.Y.Min, p.Y.Max)
	return p
}

// draw draws the panel: the shared marks first (so the data draws over
// them), then the whole-run dashed lines, then the per-super-pass lines
// with points, then the axes.
func (p *runPanel) draw(c canvas.Canvas, m plotMarks) {
	c.Clip(p.Area)
	for _, mk := range m.marks {
		mk.draw(c, &p.Panel)
	}
	for i, ln := range p.totals {
		c.Stroke([]canvas.Point{p.P(p.X.Min, p.totalY[i]), p.P(p.X.Max, p.totalY[i])}, ln)
	}
	for _, s := range p.series {
		p.drawSeries(c, s)
	}
	c.Unclip()
	p.Axes(c)
}

// drawSeries draws one per-super-pass series as lines with points,
// broken where a super-pass lacks the metric (NaN).
func (p *runPanel) drawSeries(c canvas.Canvas, s series) {
	for lo := 0; lo < len(s.ys); {
		if math.IsNaN(s.ys[lo]) {
			lo++
			continue
		}
		hi := lo
		for hi < len(s.ys) && !math.IsNaN(s.ys[hi]) {
			hi++
		}
		pts := make([]canvas.Point, hi-lo)
		for i := lo; i < hi; i++ {
			pts[i-lo] = p.P(p.xs[i], s.ys[i])
		}
		c.Stroke(pts, canvas.Line{Color: s.c, Width: seriesWidth})
		canvas.Marks(c, canvas.Circle, pts, pointRadius, s.c)
		lo = hi
	}
}

// superPassTicks puts ticks on whole super-passes only, about ten labelled.
func superPassTicks(lo, hi float64) []canvas.Tick {
	first, last := int(math.Ceil(lo)), int(math.Floor(hi))
	step := 1
	for _, s := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		step = s
		if (last-first)/s <= 12 {
			break
		}
	}
	var ticks []canvas.Tick
	for i := first; i <= last; i++ {
		switch {
		case i%step == 0:
			ticks = append(ticks, canvas.Tick{Value: float64(i), Label: strconv.Itoa(i)})
		case step <= 5: // a minor tick per super-pass while they stay apart
			ticks = append(ticks, canvas.Tick{Value: float64(i)})
		}
	}
	return ticks
}

// distinctTicks are the default ticks (canvas.DefaultTicks, gonum/plot's)
// with labels that differ: over a narrow range (a flat TPOT of 30 ms ±
// 1 µs) the default labels three ticks "30 30 30"; the labels are then
// given the fewest decimals that tell them apart.
func distinctTicks(lo, hi float64) []canvas.Tick {
	ticks := canvas.DefaultTicks(lo, hi)
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
func labelsDistinct(ticks []canvas.Tick) bool {
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
