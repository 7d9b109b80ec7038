package sinks

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// spanBand marks a range of super-passes over the whole height of a
// panel: filled (warmup, window), outlined (plateaus) or both. Each
// super-pass i occupies [i−0.5, i+0.5] on the x axis. It has no data
// range, so it never stretches the axes.
type spanBand struct {
	span    span
	fill    color.Color    // nil: no fill
	outline draw.LineStyle // zero Width: no outline
	// inset pulls the outline inside the band so the outlines of two
	// adjacent plateaus stay apart.
	inset vg.Length
	// label is written at the band's top left ("" for none).
	label      string
	labelStyle draw.TextStyle
}

var (
	_ plot.Plotter     = spanBand{}
	_ plot.Thumbnailer = spanBand{}
)

func (b spanBand) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x0 := max(trX(float64(b.span.Lo)-0.5), c.Min.X)
	x1 := min(trX(float64(b.span.Hi)+0.5), c.Max.X)
	if x1 <= x0 {
		return
	}
	if b.fill != nil {
		c.FillPolygon(b.fill, []vg.Point{{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}})
	}
	if b.outline.Width > 0 {
		l, r, bot, top := x0+b.inset, x1-b.inset, c.Min.Y+b.inset, c.Max.Y-b.inset
		c.StrokeLines(b.outline, []vg.Point{{X: l, Y: bot}, {X: r, Y: bot}, {X: r, Y: top}, {X: l, Y: top}, {X: l, Y: bot}})
	}
	if b.label != "" {
		c.FillText(b.labelStyle, vg.Point{X: x0 + b.inset + 3, Y: c.Max.Y - b.inset - 3}, b.label)
	}
}

func (b spanBand) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	if b.fill != nil {
		c.FillPolygon(b.fill, pts)
	}
	if b.outline.Width > 0 {
		c.StrokeLines(b.outline, append(pts, pts[0]))
	}
}

// vMarker is a vertical line at x (the change point), labelled to its
// right below the plateau labels.
type vMarker struct {
	x          float64
	line       draw.LineStyle
	label      string
	labelStyle draw.TextStyle
}

var (
	_ plot.Plotter     = vMarker{}
	_ plot.Thumbnailer = vMarker{}
)

func (m vMarker) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(m.x)
	if x < c.Min.X || x > c.Max.X {
		return
	}
	c.StrokeLine2(m.line, x, c.Min.Y, x, c.Max.Y)
	if m.label != "" {
		c.FillText(m.labelStyle, vg.Point{X: x + 3, Y: c.Max.Y - 16}, m.label)
	}
}

func (m vMarker) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(m.line, x, c.Min.Y, x, c.Max.Y)
}
