package sinks

import (
	"image/color"
	"strconv"

	"github.com/steadysweep/steadysweep/sinks/internal/canvas"
)

// plotMark is a mark both panels share, drawn in data coordinates
// (clipped to the data area), with a legend thumbnail.
type plotMark interface {
	draw(c canvas.Canvas, p *canvas.Panel)
	thumb(c canvas.Canvas, box canvas.Rect)
}

// plotMarks are the marks both panels share: warmup, window, plateaus,
// change point, and their legend entries.
type plotMarks struct {
	marks  []plotMark
	legend []legendItem
}

// markLabelSize is the size of the plateau and change-point labels.
const markLabelSize = 9 * pt

// marksOf builds the shared marks of l, in drawing order.
func marksOf(l *plotLayout) plotMarks {
	var m plotMarks
	if l.Warmup > 0 {
		b := spanBand{span: span{0, l.Warmup - 1}, fill: warmupFill}
		m.marks = append(m.marks, b)
		m.legend = append(m.legend, legendItem{"warmup", b.thumb})
	}
	if l.Window != nil && l.Certified {
		b := spanBand{span: *l.Window, fill: windowFill}
		m.marks = append(m.marks, b)
		m.legend = append(m.legend, legendItem{"reported window", b.thumb})
	}
	for i, s := range l.Plateaus {
		b := spanBand{span: s, inset: 2 * pt, label: "P" + strconv.Itoa(i+1), labelColor: color.Black,
			outline: canvas.Line{Color: plateauLine, Width: 1.2 * pt, Dashes: []float64{5 * pt, 3 * pt}}}
		m.marks = append(m.marks, b)
		if i == 0 {
			m.legend = append(m.legend, legendItem{"plateau", b.thumb})
		}
	}
	if l.ChangePoint >= 0 {
		// The change point is the first super-pass after the change, so
		// the line goes on its left edge, between the two levels.
		v := vMarker{x: float64(l.ChangePoint) - 0.5, label: "change point " + strconv.Itoa(l.ChangePoint),
			line: canvas.Line{Color: changePointLine, Width: 2 * pt}}
		m.marks = append(m.marks, v)
		m.legend = append(m.legend, legendItem{"change point", v.thumb})
	}
	return m
}

// spanBand marks a range of super-passes over the whole height of a
// panel: filled (warmup, window), outlined (plateaus) or both. Each
// super-pass i occupies [i−0.5, i+0.5] on the x axis. It has no data
// range, so it never stretches the axes.
type spanBand struct {
	span    span
	fill    color.Color // nil: no fill
	outline canvas.Line // zero Width: no outline
	// inset pulls the outline inside the band so the outlines of two
	// adjacent plateaus stay apart.
	inset float64
	// label is written at the band's top left ("" for none).
	label      string
	labelColor color.Color
}

func (b spanBand) draw(c canvas.Canvas, p *canvas.Panel) {
	a := p.Area
	x0 := max(p.PX(float64(b.span.Lo)-0.5), a.Min.X)
	x1 := min(p.PX(float64(b.span.Hi)+0.5), a.Max.X)
	if x1 <= x0 {
		return
	}
	b.paint(c, canvas.Rect{Min: canvas.Point{X: x0, Y: a.Min.Y}, Max: canvas.Point{X: x1, Y: a.Max.Y}}, b.inset)
	if b.label != "" {
		c.Text(canvas.Point{X: x0 + b.inset + 3*pt, Y: a.Min.Y + b.inset + 3*pt}, b.label,
			canvas.Text{Size: markLabelSize, Color: b.labelColor, Y: canvas.Top})
	}
}

func (b spanBand) thumb(c canvas.Canvas, box canvas.Rect) { b.paint(c, box, 0) }

// paint fills r and strokes its outline inset by inset.
func (b spanBand) paint(c canvas.Canvas, r canvas.Rect, inset float64) {
	if b.fill != nil {
		c.Fill(canvas.RectPath(r)[:4], b.fill)
	}
	if b.outline.Width > 0 {
		c.Stroke(canvas.RectPath(r.Inset(inset)), b.outline)
	}
}

// vMarker is a vertical line at x (the change point), labelled to its
// right below the plateau labels.
type vMarker struct {
	x     float64
	line  canvas.Line
	label string
}

func (m vMarker) draw(c canvas.Canvas, p *canvas.Panel) {
	x := p.PX(m.x)
	if x < p.Area.Min.X || x > p.Area.Max.X {
		return
	}
	c.Stroke([]canvas.Point{{X: x, Y: p.Area.Min.Y}, {X: x, Y: p.Area.Max.Y}}, m.line)
	if m.label != "" {
		c.Text(canvas.Point{X: x + 3*pt, Y: p.Area.Min.Y + 16*pt}, m.label,
			canvas.Text{Size: markLabelSize, Color: m.line.Color, Y: canvas.Top})
	}
}

func (m vMarker) thumb(c canvas.Canvas, box canvas.Rect) {
	x := (box.Min.X + box.Max.X) / 2
	c.Stroke([]canvas.Point{{X: x, Y: box.Min.Y}, {X: x, Y: box.Max.Y}}, m.line)
}
