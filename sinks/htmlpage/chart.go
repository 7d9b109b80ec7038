package htmlpage

import (
	"math"
	"strconv"
	"strings"
)

// span is a range of super-passes, absolute indices, end inclusive.
type span struct{ Lo, Hi int }

// chartSeries is one line of a chart: a value per super-pass (NaN where
// the super-pass has none), already in the chart's unit.
type chartSeries struct {
	Name   string
	Class  string // CSS class: colour and dash
	Values []float64
	// Notes qualify the series in the legend (a drifting metric).
	Notes []string
}

// chartSpec is what a per-super-pass chart shows: the series over n
// super-passes, the whole-run reference values, and the marks of the
// analysis (warmup, reported window, plateaus, level shift).
type chartSpec struct {
	ID, Title, Unit string
	N               int
	Series          []chartSeries
	Refs            []chartRef
	Warmup          int
	Window          *span // nil: no certified window
	Plateaus        []span
	ChangePoint     int    // absolute super-pass; −1 when none
	ChangeLabel     string // e.g. "level shift +20.9%"
	// Hover is the text shown for super-pass i (one line per entry).
	Hover [][]string
	// Empty is shown instead of a plot when no series has a value.
	Empty string
}

// chartRef is a horizontal dashed line: a whole-run value.
type chartRef struct {
	Class, Label string
	Value        float64
}

// chart is a laid-out chart, in SVG user units (viewBox 0 0 W H), ready
// for the chart writer (charthtml.go): every coordinate computed here,
// none in the browser.
type chart struct {
	ID, Title, Unit string
	W, H            float64
	Plot            box
	XTicks, YTicks  []tick
	Bands           []band
	Markers         []marker
	Lines           []path
	Refs            []refLine
	Points          []point
	Hits            []hit
	Legend          []legendItem
	Empty           string
	// Note is a line under the chart (why no window is drawn).
	Note string
	// NPoints is the number of super-passes (one hover target each).
	NPoints int
	// XLabel names the x axis ("" for none).
	XLabel string
}

type box struct{ X, Y, W, H float64 }

type tick struct {
	Pos  float64
	Text string
}

type band struct {
	X, W  float64
	Class string
	// Name is the band's legend entry, Label its text inside the plot
	// ("" when the band is too narrow for one).
	Name, Label string
}

type marker struct {
	X     float64
	Label string
}

type path struct{ Class, D string }

type refLine struct {
	Y            float64
	Class, Label string
}

type point struct {
	X, Y  float64
	SP    int
	Class string
	// Title is the point's own hover text (scatter plots).
	Title string
}

type hit struct {
	X, W  float64
	SP    int
	Lines []string
}

type legendItem struct {
	Class, Name string
	Notes       []string
}

// Chart geometry in user units; the SVG scales to its container's width.
const (
	chartW       = 960.0
	chartH       = 300.0
	chartLeft    = 64.0
	chartRight   = 16.0
	chartTop     = 22.0
	chartBottom  = 40.0
	pointRadius  = 3.0
	maxXTickKeep = 12
	// minLabelledBand is the narrowest band labelled inside the plot.
	minLabelledBand = 64.0
)

// layout lays the chart out: a band per super-pass on x (super-pass i
// spans [i, i+1) of the plot width), y from the values' range widened to
// round ticks.
func (s chartSpec) layout() chart {
	c := chart{ID: s.ID, Title: s.Title, Unit: s.Unit, W: chartW, H: chartH, NPoints: s.N,
		XLabel: "super-pass (absolute index, warmup included)",
		Plot:   box{chartLeft, chartTop, chartW - chartLeft - chartRight, chartH - chartTop - chartBottom}}
	for _, se := range s.Series {
		c.Legend = append(c.Legend, legendItem{Class: se.Class, Name: se.Name, Notes: se.Notes})
	}
	for _, r := range s.Refs {
		if finite(r.Value) {
			c.Legend = append(c.Legend, legendItem{Class: r.Class + " ref", Name: r.Label})
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, se := range s.Series {
		for _, v := range se.Values {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if s.N == 0 || lo > hi {
		c.Empty = s.Empty
		if c.Empty == "" {
			c.Empty = "no values to plot"
		}
		return c
	}
	for _, r := range s.Refs {
		if finite(r.Value) {
			lo, hi = math.Min(lo, r.Value), math.Max(hi, r.Value)
		}
	}
	ticks, ylo, yhi := niceTicks(lo, hi, 5)
	p := c.Plot
	step := p.W / float64(s.N)
	x := func(i int) float64 { return p.X + (float64(i)+0.5)*step }
	y := func(v float64) float64 { return p.Y + p.H - (v-ylo)/(yhi-ylo)*p.H }
	for _, t := range ticks {
		c.YTicks = append(c.YTicks, tick{Pos: y(t), Text: tickText(t, ticks)})
	}
	for _, i := range xTickIndices(s.N) {
		c.XTicks = append(c.XTicks, tick{Pos: x(i), Text: strconv.Itoa(i)})
	}
	bandOf := func(sp span, class, label string) band {
		lo, hi := max(sp.Lo, 0), min(sp.Hi, s.N-1)
		b := band{X: p.X + float64(lo)*step, W: float64(hi-lo+1) * step, Class: class, Name: label, Label: label}
		if b.W < minLabelledBand { // the legend names it
			b.Label = ""
		}
		return b
	}
	if s.Warmup > 0 {
		c.Bands = append(c.Bands, bandOf(span{0, s.Warmup - 1}, "warmup", "warmup"))
	}
	if s.Window != nil && s.Window.Hi >= s.Window.Lo {
		c.Bands = append(c.Bands, bandOf(*s.Window, "window", "reported window"))
	}
	for i, pl := range s.Plateaus {
		if pl.Hi >= pl.Lo {
			c.Bands = append(c.Bands, bandOf(pl, "plateau", "plateau "+strconv.Itoa(i+1)))
		}
	}
	if s.ChangePoint >= 0 && s.ChangePoint < s.N {
		c.Markers = append(c.Markers, marker{X: p.X + float64(s.ChangePoint)*step, Label: s.ChangeLabel})
	}
	for _, r := range s.Refs {
		if finite(r.Value) {
			c.Refs = append(c.Refs, refLine{Y: y(r.Value), Class: r.Class, Label: r.Label})
		}
	}
	for _, se := range s.Series {
		vals := se.Values[:min(len(se.Values), s.N)]
		for i, v := range vals {
			if finite(v) {
				c.Points = append(c.Points, point{X: x(i), Y: y(v), SP: i, Class: se.Class})
			}
		}
		c.Lines = append(c.Lines, path{Class: se.Class, D: linePath(vals, x, y)})
	}
	for i := range s.N {
		var lines []string
		if i < len(s.Hover) {
			lines = s.Hover[i]
		}
		c.Hits = append(c.Hits, hit{X: p.X + float64(i)*step, W: step, SP: i, Lines: lines})
	}
	return c
}

// linePath is the SVG path through the finite values of vals (value i at
// x(i), y(v)), lifting the pen over every gap.
func linePath(vals []float64, x func(int) float64, y func(float64) float64) string {
	var d strings.Builder
	pen := false
	for i, v := range vals {
		if !finite(v) {
			pen = false
			continue
		}
		switch {
		case pen:
			d.WriteString(" L")
		case d.Len() > 0:
			d.WriteString(" M")
		default:
			d.WriteString("M")
		}
		d.WriteString(coord(x(i)) + "," + coord(y(v)))
		pen = true
	}
	return d.String()
}

// coord formats an SVG coordinate with one decimal.
func coord(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// niceTicks returns about n round tick values covering [lo, hi] (steps of
// 1, 2 or 5 times a power of ten) and the axis range they span.
func niceTicks(lo, hi float64, n int) (ticks []float64, axisLo, axisHi float64) {
	if hi <= lo {
		pad := math.Max(math.Abs(lo)*0.05, 1e-9)
		lo, hi = lo-pad, hi+pad
	}
	raw := (hi - lo) / float64(max(n, 1))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	axisLo = math.Floor(lo/step) * step
	axisHi = math.Ceil(hi/step) * step
	for k := 0; ; k++ {
		t := axisLo + float64(k)*step
		if t > axisHi+step/2 {
			break
		}
		ticks = append(ticks, t)
	}
	return ticks, axisLo, axisHi
}

// tickText formats tick t with as many decimals as the tick step needs.
func tickText(t float64, ticks []float64) string {
	prec := 0
	if len(ticks) > 1 {
		step := ticks[1] - ticks[0]
		if step < 1 {
			prec = int(math.Ceil(-math.Log10(step) - 1e-9))
		}
	}
	return strconv.FormatFloat(t, 'f', prec, 64)
}

// xTickIndices are the super-passes labelled on the x axis: a round step
// giving at most maxXTickKeep labels.
func xTickIndices(n int) []int {
	step := 1
	for _, s := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000} {
		step = s
		if (n+s-1)/s <= maxXTickKeep {
			break
		}
	}
	var out []int
	for i := 0; i < n; i += step {
		out = append(out, i)
	}
	return out
}
