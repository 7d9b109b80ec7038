package canvas

import (
	"image/color"
	"math"
)

// Pt is one typographic point in pixels at the plots' 96 dpi: sizes
// below are given in points, as gonum/plot's were.
const Pt = 96.0 / 72

// Axis geometry and type sizes, gonum/plot's defaults.
const (
	axisPad   = 5 * Pt   // between the data area and the axis line
	tickLen   = 8 * Pt   // a labelled tick; a minor one is half
	tickGap   = 2 * Pt   // between a tick and its label
	axisWidth = 0.5 * Pt // the axis line and ticks
	TickSize  = 10 * Pt  // tick labels
	LabelSize = 12 * Pt  // axis labels and panel titles
	labelGap  = 3 * Pt   // between tick labels and the axis label
	gridWidth = 0.25 * Pt
)

// Axis is one axis of a panel: its data range, label, ticks, and
// whether its line and tick marks are drawn (a categorical axis shows
// only its labels).
type Axis struct {
	Min, Max float64
	Label    string
	Ticks    []Tick
	NoLine   bool
}

// visible are the ticks within the axis's range.
func (a *Axis) visible() []Tick {
	var out []Tick
	for _, t := range a.Ticks {
		if t.Value >= a.Min && t.Value <= a.Max {
			out = append(out, t)
		}
	}
	return out
}

func (a *Axis) ticksLen() float64 {
	if a.NoLine {
		return 0
	}
	return tickLen
}

// markLen is the length of t's mark: a minor tick's is half.
func (a *Axis) markLen(t Tick) float64 {
	if t.Label == "" {
		return a.ticksLen() / 2
	}
	return a.ticksLen()
}

// YWidth is the room a y axis takes left of the data area.
func (a *Axis) YWidth() float64 {
	w := 0.0
	for _, t := range a.visible() {
		if t.Label != "" {
			w = max(w, Width(t.Label, TickSize))
		}
	}
	w += axisPad + a.ticksLen() + tickGap
	if a.Label != "" {
		asc, desc := Metrics(LabelSize)
		w += labelGap + asc + desc
	}
	return w
}

// XHeight is the room an x axis takes below the data area.
func (a *Axis) XHeight() float64 {
	asc, desc := Metrics(TickSize)
	h := axisPad + a.ticksLen() + tickGap + asc + desc
	if a.Label != "" {
		asc, desc := Metrics(LabelSize)
		h += labelGap + asc + desc
	}
	return h
}

// Panel is one plot: a data area and its axes, optionally titled.
type Panel struct {
	X, Y  Axis
	Title string
	// Area is the data area in pixels (set it, or let Layout).
	Area Rect
}

// TitleHeight is the room a panel title takes above the data area.
func TitleHeight() float64 {
	asc, desc := Metrics(LabelSize)
	return asc + desc + axisPad
}

// PX and PY map data coordinates to pixels.
func (p *Panel) PX(v float64) float64 {
	return p.Area.Min.X + (v-p.X.Min)/(p.X.Max-p.X.Min)*p.Area.Dx()
}

func (p *Panel) PY(v float64) float64 {
	return p.Area.Max.Y - (v-p.Y.Min)/(p.Y.Max-p.Y.Min)*p.Area.Dy()
}

// P maps a data point to pixels.
func (p *Panel) P(x, y float64) Point { return Point{p.PX(x), p.PY(y)} }

// Grid draws thin lines across the data area at the labelled ticks.
func (p *Panel) Grid(c Canvas, col color.Color) {
	l := Line{Color: col, Width: gridWidth}
	for _, t := range p.X.visible() {
		if t.Label != "" {
			x := p.PX(t.Value)
			c.Stroke([]Point{{x, p.Area.Min.Y}, {x, p.Area.Max.Y}}, l)
		}
	}
	for _, t := range p.Y.visible() {
		if t.Label != "" {
			y := p.PY(t.Value)
			c.Stroke([]Point{{p.Area.Min.X, y}, {p.Area.Max.X, y}}, l)
		}
	}
}

// Axes draws the title, the x axis below the data area and the y axis
// left of it: line, ticks, tick labels and label.
func (p *Panel) Axes(c Canvas) {
	black := color.Black
	ts := Text{Size: TickSize, Color: black}
	ls := Line{Color: black, Width: axisWidth}
	if p.Title != "" {
		c.Text(Point{(p.Area.Min.X + p.Area.Max.X) / 2, p.Area.Min.Y - axisPad},
			p.Title, Text{Size: LabelSize, Color: black, X: Center, Y: Bottom})
	}

	y0 := p.Area.Max.Y + axisPad
	if !p.X.NoLine {
		c.Stroke([]Point{{p.Area.Min.X, y0}, {p.Area.Max.X, y0}}, ls)
	}
	ts.X, ts.Y = Center, Top
	for _, t := range p.X.visible() {
		x := p.PX(t.Value)
		if n := p.X.markLen(t); n > 0 {
			c.Stroke([]Point{{x, y0}, {x, y0 + n}}, ls)
		}
		c.Text(Point{x, y0 + p.X.ticksLen() + tickGap}, t.Label, ts)
	}
	if p.X.Label != "" {
		asc, desc := Metrics(TickSize)
		c.Text(Point{(p.Area.Min.X + p.Area.Max.X) / 2, y0 + p.X.ticksLen() + tickGap + asc + desc + labelGap},
			p.X.Label, Text{Size: LabelSize, Color: black, X: Center, Y: Top})
	}

	x0 := p.Area.Min.X - axisPad
	if !p.Y.NoLine {
		c.Stroke([]Point{{x0, p.Area.Min.Y}, {x0, p.Area.Max.Y}}, ls)
	}
	ts.X, ts.Y = Right, Middle
	widest := 0.0
	for _, t := range p.Y.visible() {
		y := p.PY(t.Value)
		if n := p.Y.markLen(t); n > 0 {
			c.Stroke([]Point{{x0, y}, {x0 - n, y}}, ls)
		}
		if t.Label != "" {
			c.Text(Point{x0 - p.Y.ticksLen() - tickGap, y}, t.Label, ts)
			widest = math.Max(widest, Width(t.Label, TickSize))
		}
	}
	if p.Y.Label != "" {
		c.Text(Point{x0 - p.Y.ticksLen() - tickGap - widest - labelGap, (p.Area.Min.Y + p.Area.Max.Y) / 2},
			p.Y.Label, Text{Size: LabelSize, Color: black, X: Center, Y: Bottom, Vertical: true})
	}
}
